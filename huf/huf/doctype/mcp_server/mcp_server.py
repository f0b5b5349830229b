# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

import json

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import now_datetime

from huf.ai.mcp import client as mcp_client, tokens as mcp_tokens
from huf.ai.engine.mcp import MCPError, check_server, list_tools, test_connection
from huf.ai.outbound import check_address
from huf.permissions import require

CHOICES = ("requires_approval", "effect")  # an administrator's, kept across syncs
HINTS = ("read_only_hint", "idempotent_hint")  # the server's, as of the last sync
KEPT = ("tool_name", "namespaced_name", "parameters", *CHOICES, *HINTS)  # a row the server no longer lists
SHOWN = ("tool_name", "namespaced_name", "description", "enabled", *CHOICES, *HINTS)  # what a sync answers
DESTINATION = ("transport_type", "server_url", "command", "command_args", "oauth_token_endpoint")  # where the secrets go


class MCPServer(Document):
	"""An external MCP server whose tools agents may use. Secrets are Password fields: read them
	with ``doc.get_password(fieldname)``, never send them to a model. Saving checks the settings
	(no I/O but the address lookup, nothing started); Sync Tools and Test Connection connect."""

	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF
		from huf.huf.doctype.mcp_server_header.mcp_server_header import MCPServerHeader
		from huf.huf.doctype.mcp_server_tool.mcp_server_tool import MCPServerTool
		from huf.huf.doctype.mcp_server_variable.mcp_server_variable import MCPServerVariable

		auth_header_name: DF.Data | None
		auth_header_value: DF.Password | None
		auth_type: DF.Literal["none", "api_key", "bearer_token", "custom_header", "oauth"]
		auto_sync_interval: DF.Int
		available_tools: DF.Code | None
		command: DF.Data | None
		command_args: DF.SmallText | None
		custom_headers: DF.Table[MCPServerHeader]
		description: DF.SmallText | None
		enable_auto_sync: DF.Check
		enabled: DF.Check
		environment: DF.Table[MCPServerVariable]
		last_sync: DF.Datetime | None
		oauth_access_token: DF.Password | None
		oauth_authorization_endpoint: DF.Data | None
		oauth_authorization_server: DF.Data | None
		oauth_client_id: DF.SmallText | None
		oauth_client_registration_method: DF.Data | None
		oauth_client_secret: DF.Password | None
		oauth_discovery_error: DF.SmallText | None
		oauth_discovery_status: DF.Literal["Not Discovered", "Discovered", "Failed"]
		oauth_extra_authorize_params: DF.SmallText | None
		oauth_last_discovered_at: DF.Datetime | None
		oauth_metadata_json: DF.Code | None
		oauth_redirect_uri: DF.Data | None
		oauth_refresh_token: DF.Password | None
		oauth_registration_endpoint: DF.Data | None
		oauth_resource_metadata_url: DF.Data | None
		oauth_scope: DF.SmallText | None
		oauth_status: DF.Literal["Not Connected", "Connected", "Failed"]
		oauth_token_endpoint: DF.Data | None
		oauth_token_expires_at: DF.Datetime | None
		oauth_token_response_path: DF.Data | None
		server_name: DF.Data
		server_url: DF.Data | None
		timeout_seconds: DF.Int
		tool_namespace: DF.Data | None
		tools: DF.Table[MCPServerTool]
		transport_type: DF.Literal["http", "sse", "stdio"]

	# end: auto-generated types

	def validate(self):
		if self.transport_type == "stdio" and self._stdio_changed():
			require("tool.mcp.stdio")
		try:
			check_server(mcp_client.server_config(self, decrypt=False), mcp_client.policy())
		except MCPError as error:
			frappe.throw(str(error), title=_("Check the MCP Server"))
		if self.transport_type != "stdio" and (self.is_new() or self.has_value_changed("server_url")):
			check_address(self.server_url.strip(), _("The Server URL of MCP server {0}").format(frappe.bold(self.server_name)), _("MCP requests and the server's credentials"))
		if self.auth_type == "oauth" and self.oauth_token_endpoint and (self.is_new() or self.has_value_changed("oauth_token_endpoint")):
			check_address(self.oauth_token_endpoint.strip(), _("The Token Endpoint of MCP server {0}").format(frappe.bold(self.server_name)), _("the sign-in's client secret and codes"))
		if self.auto_sync_interval is not None and self.auto_sync_interval < 1 and self.enable_auto_sync:
			frappe.throw(_("Sync Interval (Hours) must be at least 1, e.g. 24."), title=_("Invalid Sync Interval"))
		self.forget_secrets_when_the_address_changes()

	def on_update(self):
		self.update_agent_counts()

	def forget_secrets_when_the_address_changes(self):
		"""The stored secrets were entered for one destination. A new transport, Server URL or stdio
		command removes them (the key, the headers' and the environment's values, the OAuth sign-in)
		unless new values are typed in the same save, so that whoever may edit the server cannot aim it
		at their own host and receive them. As AI Provider does for its key."""
		before = self.get_doc_before_save()
		if not before or all((before.get(f) or "").strip() == (self.get(f) or "").strip() for f in DESTINATION):
			return
		fields = [(self, "auth_header_value"), (self, "oauth_client_secret")]
		fields += [(row, "header_value") for row in self.custom_headers] + [(row, "variable_value") for row in self.environment]
		stored = [(doc, f) for doc, f in fields if doc.get(f) and doc.is_dummy_password(doc.get(f))]
		for doc, fieldname in stored:
			doc.set(fieldname, None)  # Frappe deletes the stored value when the field is empty
		signed_in = any(self.get(f) for f in mcp_tokens.SECRET_FIELDS)
		if signed_in:
			self.update(mcp_tokens.cleared())
		if stored or signed_in:
			frappe.msgprint(
				_("The stored key, header values and sign-in of {0} were removed because its address changed. Enter them again to use this server.").format(
					frappe.bold(self.server_name)
				),
				title=_("Secrets Removed"),
				indicator="orange",
			)

	def _stdio_changed(self) -> bool:
		before = self.get_doc_before_save()
		if before is None or before.transport_type != "stdio":
			return True
		fields = ("command", "command_args")
		rows = lambda doc: [(r.variable_name, r.variable_value) for r in doc.environment]  # noqa: E731
		return any(before.get(f) != self.get(f) for f in fields) or rows(before) != rows(self)

	def sync_tools(self) -> dict:
		"""Fetch the server's tools into the Tools table: a row keeps its Enabled, Requires Approval and
		If a run stops during a call (``effect``) across syncs, and takes the server's read-only and
		idempotent hints afresh; a new tool the server marks destructive starts as Requires Approval;
		a tool the server no longer lists is disabled (and said to be missing)."""
		try:
			specs = list_tools(mcp_client.server_config(self), mcp_client.policy())
		except MCPError as error:
			frappe.throw(str(error), title=_("Sync Tools failed"))
		old = {row.tool_name: row for row in self.tools}
		listed = {spec.tool for spec in specs}
		added, removed = [s.tool for s in specs if s.tool not in old], [n for n, r in old.items() if n not in listed and r.enabled]
		rows = []
		for spec in specs:
			row = old.get(spec.tool)
			rows.append(
				{
					"tool_name": spec.tool,
					"namespaced_name": spec.name,
					"description": spec.description,
					"parameters": json.dumps(spec.input_schema),
					"enabled": row.enabled if row else 1,
					"requires_approval": row.requires_approval if row else int(bool(spec.destructive)),
					"effect": (row.effect if row else None) or "Automatic",
					"read_only_hint": int(bool(spec.read_only)),
					"idempotent_hint": int(bool(spec.idempotent)),
				}
			)
		for name, row in old.items():
			if name not in listed:
				gone = _("[No longer offered by the server at the last sync] ")
				description = row.description if (row.description or "").startswith(gone) else gone + (row.description or "")
				rows.append({**{f: row.get(f) for f in KEPT}, "enabled": 0, "description": description})
		self.set("tools", rows)
		self.available_tools = json.dumps([spec.to_dict() for spec in specs], indent=1)
		self.last_sync = now_datetime()
		self.save()
		return {
			"tool_count": len(specs),
			"added": added,
			"removed": removed,
			"last_sync": str(self.last_sync),
			"tools": [{f: row.get(f) for f in SHOWN} for row in self.tools],
		}

	def test_connection(self) -> dict:
		report = test_connection(mcp_client.server_config(self), mcp_client.policy())
		return {
			"ok": report.ok,
			"server_name": report.server_name,
			"server_version": report.server_version,
			"protocol_version": report.protocol_version,
			"tool_count": report.tool_count,
			"error": report.error,
			"error_kind": report.error_kind,
		}

	def update_agent_counts(self):
		"""Agent MCP Server rows show how many tools of this server an agent gets."""
		count = mcp_client.enabled_tool_count(self.name) if self.enabled else 0
		parents = frappe.get_all("Agent MCP Server", filters={"mcp_server": self.name, "parenttype": "Agent"}, pluck="parent")
		if parents:
			frappe.db.set_value("Agent MCP Server", {"mcp_server": self.name, "parenttype": "Agent"}, "tool_count", count, update_modified=False)
			for parent in set(parents):
				frappe.clear_document_cache("Agent", parent)
