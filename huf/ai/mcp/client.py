"""MCP servers on the site: the engine's MCP client (``huf/ai/engine/mcp``) fed from MCP Server rows.

- ``server_config(doc)``: an MCP Server row as the engine's ServerConfig (secrets decrypted only
  when asked); ``policy()``: the site's allow-lists (``huf_allowed_hosts``, ``huf_mcp_stdio_commands``).
- ``create_mcp_tools(agent)``: the enabled tools of the agent's enabled servers, one MCPPool per run
  (the run closes it, see ``run_setup.PreparedRun.close``); each tool's effect is its row's choice,
  else what the server's hints imply (``engine/effects.mcp_effect``).
- The whitelisted methods the Desk form and the web app call. Sync and test take tool.mcp.write;
  ``get_agent_mcp_servers`` gives whoever may read the agent names and tool counts only.
- ``auto_sync``: the minute job's part (one query when nothing is due).

OAuth sign-in and the ``/mcp-oauth-callback`` page are in ``oauth.py``; the tokens (``MCPTokenStore``) in ``tokens.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import frappe
from frappe import _
from frappe.utils import cint, now_datetime

from huf.ai.engine.mcp import Auth, OAuthSettings, Policy, ServerConfig, ToolSpec
from huf.ai.engine.tools import Tool
from huf.ai.mcp.tokens import MCPTokenStore, redirect_uri
from huf.ai.outbound import allowed_hosts
from huf.ai.tools.effects import chosen_effect
from huf.capabilities import needs
from huf.permissions import can_run_agent, has_capability

if TYPE_CHECKING:
	from huf.ai.engine.mcp import MCPPool

FAILED_SYNC = "huf:mcp_sync_failed:"  # + server: an auto-sync failed; wait an interval before the next try


def policy() -> Policy:
	return Policy(allowed_hosts=allowed_hosts(), stdio_commands=frozenset(frappe.conf.get("huf_mcp_stdio_commands") or ()))


def server_config(doc, decrypt: bool = True) -> ServerConfig:
	"""``doc`` (an MCP Server) as the engine takes it. With ``decrypt=False`` secret values are the
	form's own (masked when unchanged): enough for the save-time check, never sent anywhere."""
	def secret(row, fieldname: str) -> str:
		value = row.get(fieldname) or ""
		if decrypt and value and not doc.is_new():
			return row.get_password(fieldname, raise_exception=False) or ""
		return value

	kind = doc.auth_type or "none"
	oauth = oauth_settings(doc, secret(doc, "oauth_client_secret")) if kind == "oauth" else None
	return ServerConfig(
		name=doc.name or doc.server_name,
		transport=doc.transport_type or "http",
		url=(doc.server_url or "").strip(),
		namespace=doc.tool_namespace or doc.server_name or doc.name,
		auth=Auth(kind=kind, header_name=doc.auth_header_name or "", value=secret(doc, "auth_header_value"), oauth=oauth),
		headers=tuple((row.header_name, secret(row, "header_value")) for row in doc.custom_headers or []),
		timeout=float(cint(doc.timeout_seconds) or 30),
		command=(doc.command or "").strip(),
		args=tuple(line.strip() for line in (doc.command_args or "").splitlines() if line.strip()),  # one per line, as the form says
		env=tuple((row.variable_name, secret(row, "variable_value")) for row in doc.environment or []),
		token_store=MCPTokenStore(doc.name) if kind == "oauth" else None,
	)


def oauth_settings(doc, client_secret: str) -> OAuthSettings:
	"""The form's OAuth fields; all but the redirect address are optional (discovery and dynamic
	registration fill them in)."""
	def text(fieldname: str) -> str | None:
		return (doc.get(fieldname) or "").strip() or None

	return OAuthSettings(
		redirect_uri=redirect_uri(doc),
		scope=text("oauth_scope"),
		client_id=text("oauth_client_id"),
		client_secret=client_secret or None,
		authorization_endpoint=text("oauth_authorization_endpoint"),
		token_endpoint=text("oauth_token_endpoint"),
		extra_params=extra_params(text("oauth_extra_authorize_params")),
		token_path=text("oauth_token_response_path"),
	)


def extra_params(text: str | None) -> tuple[tuple[str, str], ...]:
	"""Extra Authorize Params: a JSON object of text values, e.g. {"access_type": "offline"}."""
	if not text:
		return ()
	try:
		value = frappe.parse_json(text)
	except ValueError:
		value = None
	if not isinstance(value, dict) or not all(isinstance(v, str | int | bool) for v in value.values()):
		frappe.throw(
			_('Extra Authorize Params must be a JSON object of names and text values, e.g. {"access_type": "offline"}.'),
			title=_("Check the MCP Server"),
		)
	return tuple((str(k), str(v).lower() if isinstance(v, bool) else str(v)) for k, v in value.items())


def enabled_rows(doc) -> list:
	"""The server's enabled MCP Server Tool rows that a sync named."""
	return [row for row in doc.tools or [] if row.enabled and row.namespaced_name]


def enabled_specs(doc) -> list[ToolSpec]:
	"""The server's enabled tool rows as ToolSpecs (the names, schemas and hints of the last sync)."""
	return [
		ToolSpec(
			name=row.namespaced_name,
			tool=row.tool_name,
			description=row.description or "",
			input_schema=frappe.parse_json(row.parameters) if row.parameters else {"type": "object", "properties": {}},
			read_only=bool(row.read_only_hint),
			idempotent=bool(row.idempotent_hint),
		)
		for row in enabled_rows(doc)
	]


def create_mcp_tools(agent) -> tuple[list[Tool], MCPPool | None]:
	"""The tools of ``agent``'s enabled MCP servers and the pool that serves them for one run
	(nothing connects until the model calls a tool). They act with the server's credentials, which
	only managers set; the run's user was checked when the run was queued (may use the agent)."""
	rows = [row for row in agent.get("agent_mcp_server") or [] if row.enabled]
	if not rows:
		return [], None
	from huf.ai.engine.mcp import MCPPool  # the SDK: only for runs that have MCP servers

	pool = MCPPool(policy())
	tools: list[Tool] = []
	for row in rows:
		doc = frappe.get_doc("MCP Server", row.mcp_server)
		if not doc.enabled:
			continue
		specs = enabled_specs(doc)
		for tool_row, spec, tool in zip(enabled_rows(doc), specs, pool.tools(server_config(doc), specs), strict=True):
			tool.origin = {"is_mcp_tool": 1, "mcp_server": doc.name, "mcp_tool": spec.tool}
			tool.requires_approval = bool(tool_row.requires_approval)  # a person approves each call (the run pauses)
			tool.effect = chosen_effect(tool_row.effect) or tool.effect  # else the server's hints (pool.tools)
			tools.append(tool)
	return tools, pool


def _manager_doc(server_name: str):
	"""The MCP Server, when the caller may change it (``tool.mcp.write`` was checked first)."""
	if not frappe.db.exists("MCP Server", server_name or ""):
		frappe.throw(_("There is no MCP server named {0}.").format(frappe.bold(server_name or "")), frappe.DoesNotExistError)
	doc = frappe.get_doc("MCP Server", server_name)
	doc.check_permission("write")
	return doc


@frappe.whitelist(methods=["POST"])
@needs("tool.mcp.write")
def sync_mcp_server_tools(server_name: str) -> dict:
	"""Fetch the server's tools into its Tools table. Returns ``{"tool_count", "added", "removed",
	"last_sync", "tools": [{tool_name, namespaced_name, description, enabled, requires_approval,
	effect, read_only_hint, idempotent_hint}]}``;
	a server that cannot be reached is an error message (HTTP 417) and nothing is changed."""
	return _manager_doc(server_name).sync_tools()


@frappe.whitelist(methods=["POST"])
@needs("tool.mcp.write")
def test_mcp_connection(server_name: str) -> dict:
	"""``{"ok", "server_name", "server_version", "protocol_version", "tool_count", "error",
	"error_kind"}``: what the server says it is, or the error in words (never raises for it)."""
	return _manager_doc(server_name).test_connection()


test_mcp_connection.__test__ = False  # not a pytest test, whatever imports it


@frappe.whitelist()
@needs("agent.run")
def get_agent_mcp_servers(agent_name: str) -> list[dict]:
	"""The MCP servers bound to the agent: ``[{mcp_server, enabled, server_enabled, tool_count}]``
	for whoever may use the agent; who may change MCP servers (``tool.mcp.write``) also gets ``description, transport_type, server_url,
	auth_type, oauth_status, last_sync``. Never a secret."""
	if not frappe.db.exists("Agent", agent_name or ""):
		frappe.throw(_("There is no agent named {0}.").format(frappe.bold(agent_name or "")), frappe.DoesNotExistError)
	agent = frappe.get_doc("Agent", agent_name)
	if not can_run_agent(agent) or frappe.session.user == "Guest":
		frappe.throw(_("You are not allowed to see this agent."), frappe.PermissionError)
	manager = has_capability(None, "tool.mcp.write")
	found = []
	for row in agent.get("agent_mcp_server") or []:
		server = _summary(row.mcp_server) if manager else {}
		found.append(
			{
				"mcp_server": row.mcp_server,
				"enabled": cint(row.enabled),
				"server_enabled": cint(frappe.db.get_value("MCP Server", row.mcp_server, "enabled")),
				"tool_count": enabled_tool_count(row.mcp_server),
				**{key: value for key, value in server.items() if key not in ("name", "enabled", "tool_count")},
			}
		)
	return found


@frappe.whitelist()
@needs("tool.mcp.write")
def get_available_mcp_servers(include_disabled: bool = False) -> list[dict]:
	"""The enabled MCP servers (all with ``include_disabled``) as ``[{name, description,
	enabled, transport_type, server_url, auth_type, oauth_status, last_sync, tool_count,
	total_tools}]``; ``tool_count`` counts the enabled tools."""
	filters = {} if cint(include_disabled) else {"enabled": 1}
	names = frappe.get_list("MCP Server", filters=filters, pluck="name", order_by="name asc")
	return [_summary(name) for name in names]


def _summary(name: str) -> dict:
	fields = ["name", "description", "enabled", "transport_type", "server_url", "auth_type", "oauth_status", "last_sync"]
	row = frappe.db.get_value("MCP Server", name, fields, as_dict=True) or {}
	total = frappe.db.count("MCP Server Tool", {"parent": name, "parenttype": "MCP Server"})
	return {**row, "tool_count": enabled_tool_count(name), "total_tools": total}


def enabled_tool_count(server: str) -> int:
	return frappe.db.count("MCP Server Tool", {"parent": server, "parenttype": "MCP Server", "enabled": 1})


def auto_sync() -> None:
	"""The minute job: queue a sync of each server whose Sync Interval has passed (one query)."""
	due = frappe.db.sql(
		"""select name, auto_sync_interval from `tabMCP Server`
		where enabled = 1 and enable_auto_sync = 1 and auto_sync_interval > 0
		and (last_sync is null or last_sync <= %(now)s - interval auto_sync_interval hour)""",
		{"now": now_datetime()},
		as_dict=True,
	)
	for row in due:
		if frappe.cache.get_value(FAILED_SYNC + row.name, expires=True):
			continue
		frappe.enqueue(
			"huf.ai.mcp.client.sync_job", queue="long", server_name=row.name, job_id=f"huf-mcp-sync-{row.name}", deduplicate=True
		)


def sync_job(server_name: str) -> None:
	"""One auto-sync; a failure is logged and the server waits one interval before the next try."""
	doc = frappe.get_doc("MCP Server", server_name)
	try:
		doc.sync_tools()
	except Exception:
		frappe.db.rollback()
		frappe.log_error(title=f"Huf: auto-sync of MCP server {server_name} failed")
		frappe.cache.set_value(FAILED_SYNC + server_name, 1, expires_in_sec=max(cint(doc.auto_sync_interval), 1) * 3600)
