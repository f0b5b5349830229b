# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import re

import frappe
from frappe import _
from frappe.model.document import Document

from huf.ai.outbound import normalize_url

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
PARAMETER_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
HEADERS_SET_BY_HUF = frozenset({"host", "content-length", "transfer-encoding", "connection"})

# Types that act on one DocType, chosen on the tool.
DOCTYPE_TYPES = frozenset(
	{
		"Get Document",
		"Get Multiple Documents",
		"Get List",
		"Create Document",
		"Create Multiple Documents",
		"Update Document",
		"Update Multiple Documents",
		"Delete Document",
		"Delete Multiple Documents",
		"Submit Document",
		"Cancel Document",
		"Get Amended Document",
		"Get Value",
		"Set Value",
	}
)
FUNCTION_TYPES = frozenset({"Custom Function", "App Provided"})
HTTP_TYPES = frozenset({"GET", "POST"})

# The Agent Tool Type (category) a new tool gets when none is chosen; huf.install creates them all.
CATEGORY_BY_TYPE = {
	**{types: "Document Operations" for types in DOCTYPE_TYPES},
	"Get Report Result": "Reports",
	"Attach File to Document": "Files",
	"Speech to Text": "Files",
	"Custom Function": "Custom Functions",
	"App Provided": "App Provided",
	"Run Agent": "Agents",
	"GET": "HTTP Requests",
	"POST": "HTTP Requests",
}


class AgentToolFunction(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF
		from huf.huf.doctype.agent_function_params.agent_function_params import AgentFunctionParams
		from huf.huf.doctype.agent_tool_http_header.agent_tool_http_header import AgentToolHTTPHeader

		agent: DF.Link | None
		base_url: DF.Data | None
		description: DF.SmallText
		function_definition: DF.JSON | None
		function_path: DF.Data | None
		http_headers: DF.Table[AgentToolHTTPHeader]
		is_builtin: DF.Check
		parameters: DF.Table[AgentFunctionParams]
		pass_parameters_as_json: DF.Check
		provider_app: DF.Data | None
		reference_doctype: DF.Link | None
		sync_conflict: DF.SmallText | None
		tool_name: DF.Data
		tool_type: DF.Link | None
		types: DF.Literal["Get Document", "Get Multiple Documents", "Get List", "Create Document", "Create Multiple Documents", "Update Document", "Update Multiple Documents", "Delete Document", "Delete Multiple Documents", "Submit Document", "Cancel Document", "Get Amended Document", "Custom Function", "App Provided", "Attach File to Document", "Get Report Result", "Get Value", "Set Value", "GET", "POST", "Run Agent", "Speech to Text"]

	# end: auto-generated types

	def before_validate(self):
		if not self.tool_type:
			category = CATEGORY_BY_TYPE.get(self.types)
			if category and frappe.db.exists("Agent Tool Type", category):
				self.tool_type = category

	def validate(self):
		self.validate_tool_name()
		self.validate_target()
		self.validate_parameters()
		from huf.ai.tools.definition import build_function_definition

		self.function_definition = build_function_definition(self)

	def validate_tool_name(self):
		self.tool_name = (self.tool_name or "").strip()
		if not TOOL_NAME.match(self.tool_name):
			frappe.throw(
				_(
					"The tool name {0} cannot be used: models accept only letters, digits, _ and -, at most 64 characters "
					"(OpenAI's rule). For example: get_sales_order."
				).format(frappe.bold(self.tool_name)),
				title=_("Invalid Tool Name"),
			)

	def validate_target(self):
		if self.types in DOCTYPE_TYPES and not self.reference_doctype:
			frappe.throw(
				_("Pick the Reference DocType this {0} tool works on.").format(frappe.bold(self.types)),
				title=_("Missing Reference DocType"),
			)
		if self.types in FUNCTION_TYPES:
			self.validate_function_path()
		if self.types == "Run Agent" and not self.agent:
			frappe.throw(_("Pick the agent this Run Agent tool runs."), title=_("Missing Agent"))
		if self.types in HTTP_TYPES:
			self.validate_base_url()
			self.validate_headers()

	def validate_base_url(self):
		from huf.ai.engine.http_tool import base_problem
		from huf.ai.outbound import check_address

		self.base_url = normalize_url(self.base_url, _("Base URL"))
		if not self.base_url:
			return
		problem = base_problem(self.base_url)
		if problem:
			frappe.throw(_("The Base URL {0} {1}").format(frappe.bold(self.base_url), problem), title=_("Invalid URL"))
		check_address(self.base_url, _("The Base URL {0}").format(frappe.bold(self.base_url)), _("this tool's requests and headers"))

	def validate_function_path(self):
		from huf.ai.tools.custom import allowed_function

		self.function_path = (self.function_path or "").strip()
		if not self.function_path:
			frappe.throw(
				_("Enter the Function Path of the Python function this tool calls, e.g. my_app.api.get_stock_level."),
				title=_("Missing Function Path"),
			)
		if self.types == "App Provided" and not self.provider_app:
			frappe.throw(_("Enter the Provider App: the app whose function this tool calls."), title=_("Missing Provider App"))
		allowed_function(self.function_path, self.provider_app if self.types == "App Provided" else None)

	def validate_headers(self):
		"""Header values are secrets (a Password field): they go only to the Base URL's host, so a tool
		without a Base URL has none (a model could otherwise send them anywhere)."""
		if self.http_headers and not self.base_url:
			frappe.throw(
				_(
					"HTTP Headers are sent only to the host of the Base URL, so that a model cannot send them anywhere else. "
					"Enter a Base URL, or remove the headers."
				),
				title=_("Base URL Needed"),
			)
		seen: set[str] = set()
		for row in self.http_headers or []:
			row.key = (row.key or "").strip()
			if not HEADER_NAME.match(row.key):
				frappe.throw(
					_("HTTP Headers row {0}: {1} is not a valid header name.").format(row.idx, frappe.bold(row.key)),
					title=_("Invalid Header"),
				)
			if row.key.lower() in seen:
				frappe.throw(
					_("HTTP Headers row {0}: the header {1} is listed twice.").format(row.idx, frappe.bold(row.key)),
					title=_("Duplicate Header"),
				)
			seen.add(row.key.lower())
			if row.key.lower() in HEADERS_SET_BY_HUF:
				frappe.throw(
					_("HTTP Headers row {0}: {1} is set by Huf itself; remove the row.").format(row.idx, frappe.bold(row.key)),
					title=_("Invalid Header"),
				)
			if not row.value:
				frappe.throw(
					_("HTTP Headers row {0}: enter the value of {1}.").format(row.idx, frappe.bold(row.key)), title=_("Missing Value")
				)

	def validate_parameters(self):
		seen: set[str] = set()
		for row in self.parameters or []:
			row.fieldname = (row.fieldname or "").strip()
			if not PARAMETER_NAME.match(row.fieldname):
				frappe.throw(
					_(
						"Parameters row {0}: {1} cannot be an argument name. Use letters, digits and _ only, not starting with a digit."
					).format(row.idx, frappe.bold(row.fieldname)),
					title=_("Invalid Parameter"),
				)
			if row.fieldname in seen:
				frappe.throw(
					_("Parameters row {0}: the argument {1} is listed twice.").format(row.idx, frappe.bold(row.fieldname)),
					title=_("Duplicate Parameter"),
				)
			seen.add(row.fieldname)
			if row.child_table_name and not frappe.db.exists("DocType", {"name": row.child_table_name, "istable": 1}):
				frappe.throw(
					_("Parameters row {0}: {1} is not a child table DocType.").format(row.idx, frappe.bold(row.child_table_name)),
					title=_("Invalid Parameter"),
				)
