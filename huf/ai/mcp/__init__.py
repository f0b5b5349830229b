"""The MCP client's site half: MCP Server documents into the engine's MCP client (``client``:
tools of a server, a connection test, sync of its tool list), signing in to a server behind OAuth
(``oauth``) and the tokens kept for it (``tokens``). The protocol itself is ``huf/ai/engine/mcp``.

May import: the engine, the site's foundations and ``huf.ai.tools`` (an MCP tool is a tool).
"""
