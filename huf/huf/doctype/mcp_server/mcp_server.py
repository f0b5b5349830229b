# Copyright (c) 2027, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document


class MCPServer(Document):
	"""An external MCP server whose tools agents may use (data only for now: connecting,
	testing and syncing come with the MCP client). Secrets are Password fields: read them with
	``doc.get_password(fieldname)``, never send them to a model."""

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

	pass
