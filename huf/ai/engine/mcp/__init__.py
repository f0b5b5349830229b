"""Huf's MCP client, on the official ``mcp`` SDK: plain settings in, plain results out.

- ``config``: ServerConfig, Auth, OAuthSettings, Policy, OAuthState and the TokenStore port,
  ``check_server`` (the save-time check: no I/O, nothing started).
- ``pool``: MCPPool (one run's sessions: list_tools, call_tool, tools, report, sign-in, close)
  and one-shot ``list_tools``, ``test_connection``, ``begin_sign_in``, ``finish_sign_in``.
- ``names``: ToolSpec and the provider-safe ``ns__tool`` names.
- ``connection``, ``stdio``, ``oauth``, ``results``, ``errors``: how it is done.
"""

from huf.ai.engine.mcp.config import (
	Auth,
	MCPError,
	OAuthSettings,
	OAuthState,
	Policy,
	ServerConfig,
	TokenStore,
	check_server,
)
from huf.ai.engine.mcp.names import ToolSpec

# ``pool`` imports the ``mcp`` SDK (over half a second): only when one of its names is asked for, so
# a run without MCP servers, and a web process's first request, never load it.
_POOL = {"ConnectionReport", "MCPPool", "begin_sign_in", "finish_sign_in", "list_tools", "test_connection"}


def __getattr__(name: str):
	if name in _POOL:
		from huf.ai.engine.mcp import pool

		return getattr(pool, name)
	raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
	"Auth",
	"ConnectionReport",
	"MCPError",
	"MCPPool",
	"OAuthSettings",
	"OAuthState",
	"Policy",
	"ServerConfig",
	"TokenStore",
	"ToolSpec",
	"begin_sign_in",
	"check_server",
	"finish_sign_in",
	"list_tools",
	"test_connection",
]
