"""Every document tool type, run as three different users, with Frappe's own permission checks."""

from __future__ import annotations

import base64
import json

import frappe
import pytest
from frappe.utils import strip_html

from huf.ai.agent.integration import run_agent_sync
from huf.ai.engine.tools import ToolError
from huf.ai.tools import build_tool
from huf.ai.tools.context import RunContext
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text, tool_calls

NOTE = "Huf Test Note"
NOTHING = dict.fromkeys(("read", "write", "create", "delete", "submit", "cancel", "amend", "report"), 0)


@pytest.fixture(scope="module")
def note_doctype(site):
	for role in ("Huf Test Reader", "Huf Test Writer"):
		if not frappe.db.exists("Role", role):
			frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": 1}).insert()
	if frappe.db.exists("DocType", NOTE):
		frappe.delete_doc("DocType", NOTE, force=True)
		frappe.db.sql_ddl(f"drop table if exists `tab{NOTE}`")
	frappe.get_doc(
		{
			"doctype": "DocType",
			"name": NOTE,
			"module": "Custom",
			"custom": 1,
			"is_submittable": 1,
			"autoname": "hash",
			"fields": [
				{"fieldname": "title", "fieldtype": "Data", "label": "Title", "reqd": 1},
				{"fieldname": "amount", "fieldtype": "Int", "label": "Amount"},
				{"fieldname": "status", "fieldtype": "Select", "label": "Status", "options": "Open\nClosed"},
			],
			"permissions": [
				{"role": "System Manager", "read": 1, "write": 1, "create": 1, "delete": 1, "submit": 1, "cancel": 1, "amend": 1, "report": 1},
				# DocPerm rows default to write and create: every right is spelled out
				dict(NOTHING, role="Huf Test Writer", read=1, write=1, create=1, submit=1, cancel=1, amend=1),
				dict(NOTHING, role="Huf Test Reader", read=1),
			],
		}
	).insert()
	frappe.db.commit()
	return NOTE


@pytest.fixture(scope="module")
def people(site):
	return {
		"manager": make_user("manager@huf.test", ["Huf User", "System Manager"]),
		"writer": make_user("writer@huf.test", ["Huf User", "Huf Test Writer"]),
		"reader": make_user("reader@huf.test", ["Huf User", "Huf Test Reader"]),
	}


def tool(types: str, doctype: str | None = NOTE, name: str | None = None):
	tool_name = name or "huf_t_" + types.lower().replace(" ", "_")
	user = frappe.session.user
	with as_user("Administrator"):  # an admin sets tools up; the user only calls them
		fixtures.tool(tool_name, types, doctype)
	ctx = RunContext(run="test", conversation="test", agent="test", user=user)
	return build_tool(frappe.get_doc("Agent Tool Function", tool_name), ctx)


def note(title: str = "first", **values) -> str:
	doc = frappe.get_doc({"doctype": NOTE, "title": title, **values}).insert(ignore_permissions=True)
	return doc.name


def test_read_tools_return_documents_lists_and_values(note_doctype, people):
	name = note("readable", amount=5)
	with as_user(people["reader"]):
		assert tool("Get Document").handler({"name": name})["title"] == "readable"
		docs = tool("Get Multiple Documents").handler({"names": [name]})
		assert [d["amount"] for d in docs] == [5]
		rows = tool("Get List").handler({"filters": {"title": "readable"}, "fields": ["name", "amount"]})
		assert rows == [{"name": name, "amount": 5}]
		assert tool("Get Value").handler({"name": name, "fieldname": "amount"}) == {"amount": 5}
		with pytest.raises(ToolError, match="has no field nope"):
			tool("Get List").handler({"fields": ["nope"]})


def test_the_definition_is_derived_from_the_doctype(note_doctype):
	definition = json.loads(frappe.get_doc("Agent Tool Function", tool("Create Document").name).function_definition)
	data = definition["parameters"]["properties"]["data"]["properties"]
	assert data["amount"]["type"] == "integer" and data["status"]["enum"] == ["Open", "Closed"]
	assert definition["parameters"]["required"] == ["data"]


def test_a_reader_cannot_write_and_nothing_is_written(note_doctype, people):
	name = note("guarded")
	with as_user(people["reader"]):
		with pytest.raises(ToolError, match="(?i)permission|not permitted|insufficient"):
			tool("Create Document").handler({"data": {"title": "sneaky"}})
		with pytest.raises(ToolError):
			tool("Update Document").handler({"name": name, "data": {"amount": 99}})
		with pytest.raises(ToolError):
			tool("Set Value").handler({"name": name, "fieldname": "amount", "value": 99})
		with pytest.raises(ToolError):
			tool("Delete Document").handler({"name": name})
		assert frappe.local.message_log == []  # no Frappe pop-up text leaks into the response
	assert not frappe.db.exists(NOTE, {"title": "sneaky"})
	assert frappe.db.get_value(NOTE, name, "amount") in (0, None)


def test_a_refusal_says_what_was_refused_and_frappes_reason(note_doctype, people):
	name = note("not yours", status="Open")
	frappe.msgprint("said before the call")  # earlier messages stay in the response and out of the tool's answer
	with as_user(people["reader"]):
		with pytest.raises(ToolError) as create:
			tool("Create Document").handler({"data": {"title": "sneaky"}})
		with pytest.raises(ToolError) as update:
			tool("Update Document").handler({"name": name, "data": {"amount": 99}})
	reason = f"User {people['reader']} does not have doctype access via role permission for document {NOTE}"
	assert str(create.value) == f"You do not have permission to create {NOTE}: {reason}"
	assert str(update.value) == f"You do not have permission to update {NOTE}: {reason}"
	assert [m.message for m in frappe.local.message_log] == ["said before the call"]
	assert not frappe.flags.error_message  # Frappe's error for the response is not left behind


def test_a_refused_document_is_named_and_nothing_of_it_is_shown(site):
	"""A user who may read ToDos but not this one: Frappe's reason is the error message it sets."""
	user = make_user("todo-reader@huf.test", ["Huf User"])
	todo = frappe.get_doc({"doctype": "ToDo", "description": "the quarterly secret plan"}).insert(ignore_permissions=True)
	frappe.local.message_log = []
	with as_user(user):
		with pytest.raises(ToolError) as read:
			tool("Get Document", "ToDo", name="huf_t_get_todo").handler({"name": todo.name})
	message = str(read.value)
	assert message.startswith("You do not have permission to read ToDo: ") and todo.name in message, message
	assert "secret" not in message and "<" not in message
	assert frappe.local.message_log == [], message


def test_a_writer_creates_updates_submits_cancels_and_amends_but_cannot_delete(note_doctype, people):
	with as_user(people["writer"]):
		created = tool("Create Document").handler({"data": {"title": "w1", "amount": 1}})
		name = created["name"]
		assert tool("Update Document").handler({"name": name, "data": {"amount": 2}})["updated"] == ["amount"]
		assert tool("Set Value").handler({"name": name, "fieldname": "status", "value": "Closed"})["status"] == "Closed"
		assert tool("Submit Document").handler({"name": name})["docstatus"] == 1
		assert tool("Cancel Document").handler({"name": name})["docstatus"] == 2
		amended = tool("Get Amended Document").handler({"name": name})
		assert frappe.db.get_value(NOTE, amended["name"], ["amended_from", "docstatus"]) == (name, 0)
		with pytest.raises(ToolError):
			tool("Delete Document").handler({"name": amended["name"]})
	assert frappe.db.get_value(NOTE, name, "owner") == people["writer"]


def test_multiple_writes_are_all_or_nothing(note_doctype, people):
	with as_user(people["writer"]):
		with pytest.raises(ToolError, match="(?i)title"):
			tool("Create Multiple Documents").handler({"documents": [{"title": "batch-ok"}, {"amount": 3}]})
	assert not frappe.db.exists(NOTE, {"title": "batch-ok"})
	with as_user(people["manager"]):
		done = tool("Create Multiple Documents").handler({"documents": [{"title": "m1"}, {"title": "m2"}]})
		assert len(done) == 2
		tool("Delete Multiple Documents").handler({"names": [d["name"] for d in done]})
	assert not frappe.db.exists(NOTE, {"title": ["in", ["m1", "m2"]]})


def test_submit_on_a_doctype_that_cannot_be_submitted_says_so(site, people):
	with as_user(people["manager"]):
		with pytest.raises(ToolError, match="cannot be submitted"):
			tool("Submit Document", "ToDo", name="huf_t_submit_todo").handler({"name": "x"})


def test_report_results_respect_report_permissions(note_doctype, people):
	with as_user(people["manager"]):
		result = tool("Get Report Result", None).handler({"report_name": "ToDo", "filters": {}})
		assert "columns" in result and isinstance(result["rows"], list)
	with as_user(people["reader"]):
		with pytest.raises(ToolError):
			tool("Get Report Result", None).handler({"report_name": "ToDo", "filters": {}})


def test_attach_file_needs_write_permission_on_the_target(note_doctype, people):
	name = note("with file")
	content = base64.b64encode(b"hello file").decode()
	with as_user(people["reader"]):
		with pytest.raises(ToolError):
			tool("Attach File to Document").handler({"name": name, "file_name": "a.txt", "content_base64": content})
	with as_user(people["manager"]):
		attached = tool("Attach File to Document").handler({"name": name, "file_name": "a.txt", "content_base64": content})
	file = frappe.get_doc("File", attached["name"])
	assert (file.attached_to_doctype, file.attached_to_name, file.is_private) == (NOTE, name, 1)
	assert file.get_content() in (b"hello file", "hello file")


def test_in_a_run_a_denied_tool_call_goes_back_to_the_model_and_nothing_is_written(note_doctype, people, llm):
	fixtures.tool("huf_t_create_note", "Create Document", NOTE)
	agent = fixtures.agent(llm, name="Note Agent", tools=("huf_t_create_note",))
	title = "from the reader " + frappe.generate_hash(length=6)
	llm.script(
		tool_calls([("c1", "huf_t_create_note", json.dumps({"data": {"title": title}}))]),
		text("I could not create it: you lack permission."),
	)
	with as_user(people["reader"]):
		result = run_agent_sync(agent, "make a note", now=True)
	assert result["status"] == "Success"
	call = frappe.get_all("Agent Tool Call", filters={"agent_run": result["run"]}, fields=["status", "error_message"])[0]
	assert call.status == "Failed" and call.error_message, call
	said = json.loads(llm.requests[-1]["body"]["messages"][-1]["content"])["error"]
	assert said == f"You do not have permission to create {NOTE}: User {people['reader']} does not have doctype access via role permission for document {NOTE}"
	assert not frappe.db.exists(NOTE, {"title": title})


def test_custom_functions_get_their_schema_from_the_signature(site):
	fixtures.tool("huf_t_describe", "Custom Function", None, function_path="huf.ai.tools.builtin.describe_doctype")
	doc = frappe.get_doc("Agent Tool Function", "huf_t_describe")
	parameters = json.loads(doc.function_definition)["parameters"]
	assert parameters["required"] == ["doctype"] and parameters["properties"]["doctype"]["type"] == "string"
	ctx = RunContext(run="t", conversation="t", agent="t", user="Administrator")
	assert build_tool(doc, ctx).handler({"doctype": "ToDo"})["doctype"] == "ToDo"


def test_app_tools_are_synced_idempotently(site):
	from huf.ai.tools.registry import sync_app_tools

	frappe.db.set_value("Agent Tool Function", "describe_doctype", "description", "changed by hand")
	assert "describe_doctype" in sync_app_tools()
	assert sync_app_tools() == []  # nothing changed: nothing written


@pytest.mark.parametrize(
	"path, reason",
	[
		("os.system", "not part of an app installed"),
		("subprocess.getoutput", "not part of an app installed"),
		("frappe.utils.execute_in_shell", "not part of an app installed"),
		("huf.ai.models.model_spec", "Huf's own internal functions"),
		("huf.ai.tools.custom.call_function", "Huf's own internal functions"),
		("huf", "not a dotted path"),
	],
)
def test_a_custom_function_outside_an_installed_apps_own_code_is_refused_at_save(site, path, reason):
	from huf.ai.tools.custom import FunctionNotAllowed

	with pytest.raises(FunctionNotAllowed, match=reason) as refused:
		fixtures.tool("huf_t_refused", "Custom Function", None, function_path=path)
	assert "app.module.function" in str(refused.value)  # the message names the allowed shape
	assert not frappe.db.exists("Agent Tool Function", "huf_t_refused")


def test_a_re_exported_name_or_a_class_is_not_the_apps_own_function(site, monkeypatch):
	from huf.ai.tools import custom

	# builtin.py imports now_datetime from frappe.utils: huf.ai.tools.builtin.now_datetime is Frappe's code
	reexport, cls = "huf.ai.tools.builtin.now_datetime", "huf.ai.tools.builtin.ToolError"
	monkeypatch.setattr(custom, "HUF_TOOL_FUNCTIONS", custom.HUF_TOOL_FUNCTIONS | {reexport, cls})
	with pytest.raises(custom.FunctionNotAllowed) as refused:
		fixtures.tool("huf_t_refused", "Custom Function", None, function_path=reexport)
	assert "is defined in frappe.utils.data, not in the app huf" in strip_html(str(refused.value))
	with pytest.raises(custom.FunctionNotAllowed) as refused:
		fixtures.tool("huf_t_refused", "Custom Function", None, function_path=cls)
	assert "ToolError is not a Python function (a def) in huf.ai.tools.builtin" in strip_html(str(refused.value))


def test_a_function_path_is_checked_again_when_the_tool_is_called(site, tmp_path):
	fixtures.tool("huf_t_rechecked", "Custom Function", None, function_path="huf.ai.tools.builtin.get_current_datetime")
	marker = tmp_path / "ran"
	frappe.db.set_value("Agent Tool Function", "huf_t_rechecked", "function_path", "subprocess.getoutput")  # saved before the rule
	ctx = RunContext(run="t", conversation="t", agent="t", user="Administrator")
	with pytest.raises(ToolError, match="not part of an app installed"):
		build_tool(frappe.get_doc("Agent Tool Function", "huf_t_rechecked"), ctx).handler({"cmd": f"touch {marker}"})
	assert not marker.exists()


def test_an_app_provided_tool_calls_only_the_declaring_apps_functions(site):
	from huf.ai.tools.custom import FunctionNotAllowed
	from huf.ai.tools.registry import validate_declaration

	declaration = {"tool_name": "borrowed", "description": "d", "function_path": "huf.ai.tools.builtin.describe_doctype"}
	validate_declaration("huf", declaration)
	with pytest.raises(FunctionNotAllowed, match="The app frappe declares the tool borrowed, but it cannot be used"):
		validate_declaration("frappe", declaration)
	with pytest.raises(FunctionNotAllowed) as refused:
		fixtures.tool("huf_t_borrowed", "App Provided", None, provider_app="frappe", function_path=declaration["function_path"])
	assert "is not part of the app frappe that declares the tool" in strip_html(str(refused.value))
	ctx = RunContext(run="t", conversation="t", agent="t", user="Administrator")
	frappe.db.set_value("Agent Tool Function", "describe_doctype", "provider_app", "frappe")  # as if changed behind the form
	try:
		with pytest.raises(ToolError, match="not part of the app frappe"):
			build_tool(frappe.get_doc("Agent Tool Function", "describe_doctype"), ctx).handler({"doctype": "ToDo"})
	finally:
		frappe.db.set_value("Agent Tool Function", "describe_doctype", "provider_app", "huf")
	assert build_tool(frappe.get_doc("Agent Tool Function", "describe_doctype"), ctx).handler({"doctype": "ToDo"})["doctype"] == "ToDo"


def test_attach_file_copies_only_a_file_the_user_may_read(note_doctype, people):
	name = note("attach by address")
	secret = make_user("file-owner@huf.test", ["Huf User"])
	with as_user(secret):
		private = frappe.get_doc({"doctype": "File", "file_name": "payroll.txt", "content": b"salaries", "is_private": 1}).insert()
	with as_user(people["writer"]):
		mine = frappe.get_doc({"doctype": "File", "file_name": "notes.txt", "content": b"my notes", "is_private": 1}).insert()
		with pytest.raises(ToolError, match="may not read the file payroll.txt"):
			tool("Attach File to Document").handler({"name": name, "file_url": private.file_url})
		attached = tool("Attach File to Document").handler({"name": name, "file_url": mine.file_url})
	assert not frappe.db.exists("File", {"file_url": private.file_url, "attached_to_name": name})
	copy = frappe.get_doc("File", attached["name"])
	assert (copy.file_url, copy.attached_to_name, copy.is_private) == (mine.file_url, name, 1)


def test_an_unexpected_tool_failure_reaches_the_model_in_general_words_and_managers_in_full(site, llm):
	from huf.ai.agent.run_detail import get_run_detail

	fixtures.tool("huf_t_todos", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="Failing Tool Agent", tools=("huf_t_todos",))
	owner = make_user("tool-owner@huf.test", ["Huf User"])
	llm.script(tool_calls([("c1", "huf_t_todos", json.dumps({"order_by": "no_such_column desc"}))]), text("Sorry."))
	with as_user(owner):
		run = run_agent_sync(agent, "list my todos", now=True)["run"]
		detail = get_run_detail(run)
	seen = json.loads(llm.requests[-1]["body"]["messages"][-1]["content"])
	assert seen == {"error": "The tool huf_t_todos failed with an unexpected error. Its details were kept for an administrator."}
	row = frappe.get_all("Agent Tool Call", filters={"agent_run": run}, fields=["name", "status", "error_message", "tool_result"])[0]
	assert row.status == "Failed" and "Unknown column 'no_such_column'" in row.error_message  # the full text, for managers
	assert "Unknown column" not in json.dumps(detail, default=str)  # the run's owner reads what the model read
	def read_as(user: str):
		with as_user(user):
			doc = frappe.get_doc("Agent Tool Call", row.name)
			doc.apply_fieldlevel_read_permissions()  # what the form and the REST API show
			return doc

	assert not read_as(owner).get("error_message") and "unexpected error" in read_as(owner).tool_result
	assert "Unknown column" in read_as(make_user("tool-manager@huf.test", ["Huf Manager"])).error_message
	logged = frappe.get_all("Error Log", filters={"method": "Huf tool failed", "reference_name": run}, pluck="error")
	assert len(logged) == 1 and "Unknown column 'no_such_column'" in logged[0]
