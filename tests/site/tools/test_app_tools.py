"""Tools and hints from other apps: two real app packages (on sys.path, with their own hooks.py,
tool functions and hints files) that this site counts as installed."""

from __future__ import annotations

import json
import sys

import frappe
import pytest

from huf.ai.engine.tools import ToolError
from huf.ai.tools import build_tool, hints
from huf.ai.tools.context import RunContext
from huf.ai.tools.registry import sync_app_tools
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text, tool_calls

APPS = ("huf_t_alpha", "huf_t_beta")
ALPHA, BETA = "huf_t_alpha__create_ticket", "huf_t_beta__create_ticket"
TODO_HINT = {"type": "doctype", "target": "ToDo", "hint": "A ToDo is one task for one person."}
TODO_WORKFLOW = {"type": "workflow", "target": "Hand a task over", "steps": ["Open the ToDo.", "Change 'allocated_to'."]}


def write_app(root, app: str, declarations: list[str], hint_files: dict[str, str]) -> None:
	package = root / app
	(package / "huf" / "hints").mkdir(parents=True)
	(package / "__init__.py").write_text("")
	(package / "hooks.py").write_text(f'app_name = "{app}"\nhuf_tools = ["{app}.tools.TOOLS"]\n')
	tools = [
		f'{{"tool_name": "{name}", "description": "{name} in {app}", "function_path": "{app}.tools.{name}", '
		'"parameters": [{"fieldname": "subject", "type": "string", "required": 1}]}'
		for name in declarations
	]
	functions = "".join(
		f"def {name}(subject):\n\treturn {{'app': '{app}', 'tool': '{name}', 'subject': subject}}\n\n\n" for name in set(declarations)
	)
	(package / "tools.py").write_text(f"{functions}TOOLS = [{', '.join(tools)}]\n")
	for name, content in hint_files.items():
		(package / "huf" / "hints" / name).write_text(content)


@pytest.fixture(scope="module")
def apps(site, tmp_path_factory):
	"""huf_t_alpha and huf_t_beta both declare create_ticket; beta declares close_ticket twice and
	ships a broken hints file beside a good one."""
	root = tmp_path_factory.mktemp("apps")
	write_app(root, "huf_t_alpha", ["create_ticket"], {"tickets.json": json.dumps([TODO_HINT, TODO_WORKFLOW])})
	write_app(
		root,
		"huf_t_beta",
		["create_ticket", "close_ticket", "close_ticket"],
		{"a_broken.json": '[{"type": "doctype", "target": "ToDo"}]', "good.json": json.dumps([dict(TODO_HINT, hint="Beta's word.")])},
	)
	sys.path.insert(0, str(root))
	installed = frappe.get_installed_apps

	def with_test_apps(*, _ensure_on_bench=False):  # Frappe's own hooks cache asks with _ensure_on_bench
		return installed(_ensure_on_bench=_ensure_on_bench) + ([] if _ensure_on_bench else list(APPS))

	with pytest.MonkeyPatch.context() as patch:
		patch.setattr(frappe, "get_installed_apps", with_test_apps)
		frappe.cache.delete_value(hints.VERSION_KEY)  # the installed apps changed: read the hints again
		yield root
	sys.path.remove(str(root))
	frappe.cache.delete_value(hints.VERSION_KEY)


def ctx(user: str = "Administrator") -> RunContext:
	return RunContext(run="t", conversation="t", agent="t", user=user)


def call(tool_name: str, args: dict):
	return build_tool(frappe.get_doc("Agent Tool Function", tool_name), ctx(frappe.session.user)).handler(args)


def test_two_apps_may_declare_the_same_tool_and_an_agent_uses_both(apps, llm):
	for name in (ALPHA, BETA, "create_ticket"):
		frappe.delete_doc_if_exists("Agent Tool Function", name, force=True)
	sync_app_tools()
	assert frappe.db.get_value("Agent Tool Function", ALPHA, ["provider_app", "function_path"]) == (
		"huf_t_alpha",
		"huf_t_alpha.tools.create_ticket",
	)
	agent = fixtures.agent(llm, name="Two Apps Agent", tools=(ALPHA, BETA))
	llm.script(
		tool_calls([("c1", ALPHA, json.dumps({"subject": "printer"})), ("c2", BETA, json.dumps({"subject": "printer"}))]),
		text("Both tickets are made."),
	)
	from huf.ai.agent.integration import run_agent_sync

	run = run_agent_sync(agent, "make the tickets", now=True)
	assert run["status"] == "Success"
	offered = [tool["function"]["name"] for tool in llm.requests[0]["body"]["tools"]]
	assert {ALPHA, BETA} <= set(offered)
	fields = ["tool", "status", "tool_result"]
	rows = frappe.get_all("Agent Tool Call", filters={"agent_run": run["run"]}, fields=fields, order_by="call_id")
	assert [(r.tool, r.status, json.loads(r.tool_result)["app"]) for r in rows] == [
		(ALPHA, "Success", "huf_t_alpha"),
		(BETA, "Success", "huf_t_beta"),
	]


def test_a_taken_name_is_shown_on_the_tool_list_until_it_is_free(apps):
	sync_app_tools()
	frappe.delete_doc("Agent Tool Function", ALPHA, force=True)
	fixtures.tool(ALPHA, "Custom Function", None, function_path="huf.ai.tools.builtin.get_current_datetime")
	logs_before = frappe.db.count("Error Log", {"method": f"Huf tool name conflict: {ALPHA}"})
	sync_app_tools()
	sync_app_tools()  # the same conflict again: still logged once
	reader = make_user("tool-picker@huf.test", ["Huf User"])
	with as_user(reader):  # what the web app's tool picker and the Desk list read
		listed = frappe.get_list("Agent Tool Function", filters={"sync_conflict": ["is", "set"]}, fields=["name", "sync_conflict"])
	shown = {row.name: row.sync_conflict for row in listed}
	assert "The app huf_t_alpha declares a tool named huf_t_alpha__create_ticket" in shown[ALPHA]
	assert "The app huf_t_beta declares the tool close_ticket more than once" in shown["huf_t_beta__close_ticket"]
	assert frappe.db.get_value("Agent Tool Function", ALPHA, "types") == "Custom Function"  # the hand-made tool stays
	assert frappe.db.count("Error Log", {"method": f"Huf tool name conflict: {ALPHA}"}) == logs_before + 1

	frappe.delete_doc("Agent Tool Function", ALPHA, force=True)
	assert ALPHA in sync_app_tools()
	assert frappe.db.get_value("Agent Tool Function", ALPHA, ["types", "sync_conflict"]) == ("App Provided", None)


def test_stored_tools_of_other_apps_get_their_namespaced_names(apps, llm):
	from huf.patches import namespace_app_tools

	sync_app_tools()
	frappe.delete_doc("Agent Tool Function", ALPHA, force=True)
	old = fixtures.tool(
		"create_ticket", "App Provided", None, provider_app="huf_t_alpha", function_path="huf_t_alpha.tools.create_ticket"
	)
	agent = fixtures.agent(llm, name="Old Name Agent", tools=(old,))
	namespace_app_tools.execute()
	assert not frappe.db.exists("Agent Tool Function", "create_ticket")
	renamed = frappe.get_doc("Agent Tool Function", ALPHA)
	assert renamed.tool_name == ALPHA and json.loads(renamed.function_definition)["name"] == ALPHA
	assert [row.tool for row in frappe.get_doc("Agent", agent).agent_tool] == [ALPHA]
	namespace_app_tools.execute()  # run again: nothing named twice
	assert frappe.db.exists("Agent Tool Function", ALPHA) and not frappe.db.exists("Agent Tool Function", f"huf_t_alpha__{ALPHA}")


def test_get_doctype_schema_and_describe_doctype_answer_alike_with_every_apps_hints(apps):
	sync_app_tools()
	schema = call("get_doctype_schema", {"doctype": "ToDo"})
	assert schema == call("describe_doctype", {"doctype": "ToDo"})
	assert schema["hints"] == [TODO_HINT["hint"], "Beta's word."]  # beta's good file, not its broken one
	assert schema["workflows"] == [TODO_WORKFLOW]
	assert "allocated_to" in [field["fieldname"] for field in schema["fields"]]
	agent = call("get_doctype_schema", {"doctype": "Agent"})
	assert "instructions" in agent["hints"][0] and {w["id"] for w in agent["workflows"]} == {"HUF-WF-001", "HUF-WF-002"}
	tools_table = next(field for field in agent["fields"] if field["fieldname"] == "agent_tool")
	assert [field["fieldname"] for field in tools_table["table_fields"]][:1] == ["tool"]


def test_a_bad_hints_file_is_skipped_and_reported_once_with_its_name(apps):
	title = "Huf skipped the hints file huf_t_beta/huf/hints/a_broken.json"
	frappe.cache.delete_value(hints.VERSION_KEY)
	call("get_doctype_schema", {"doctype": "ToDo"})
	frappe.cache.delete_value(hints.VERSION_KEY)  # read every file again: the same problem is not logged again
	call("get_doctype_schema", {"doctype": "ToDo"})
	logs = frappe.get_all("Error Log", filters={"method": title, "error": ["like", f"%{apps}%"]}, fields=["error"])
	assert len(logs) == 1, logs
	assert 'hint 1: "hint" must be a text that is not empty' in logs[0].error


def test_the_schema_answers_only_what_the_runs_user_may_read(apps):
	sync_app_tools()
	user = make_user("schema-reader@huf.test", ["Huf User"])
	manager = make_user("schema-manager@huf.test", ["Huf User", "Huf Manager"])
	with as_user(user):
		with pytest.raises(ToolError, match="You do not have permission to read Error Log"):
			call("get_doctype_schema", {"doctype": "Error Log"})
		with pytest.raises(ToolError, match="There is no DocType named Nope"):
			call("describe_doctype", {"doctype": "Nope"})
		seen = [field["fieldname"] for field in call("get_doctype_schema", {"doctype": "Agent Tool Call"})["fields"]]
	assert "tool_result" in seen and "error_message" not in seen  # permlevel 1: managers only
	with as_user(manager):
		seen = [field["fieldname"] for field in call("get_doctype_schema", {"doctype": "Agent Tool Call"})["fields"]]
	assert "error_message" in seen
