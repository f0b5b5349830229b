"""Seeding from apps (huf/ai/seeding.py): a throwaway app package, made in a temp folder, importable
through sys.path and counted as installed on this site only (``frappe.get_installed_apps`` patched
in this process, as test_app_tools.py does: nothing is written to apps.txt or to any site)."""

from __future__ import annotations

import json
import sys

import frappe
import pytest

from huf import install
from huf.ai import seeding
from tests.site import fixtures
from tests.site.conftest import as_user, make_user

APP = "huf_t_seed"
TOOL, AGENT, SOURCE, TRIGGER, FLOW = "seedtest_hello", "Seed Test Agent", "Seed Test Source", "seed-test-trigger", "seed-test-flow"
PROMPT = "seedtest-greeting"
WRITES = ("insert", "update", "delete", "replace")


def write_app(root) -> None:
	package = root / APP
	seeds = package / "huf"
	for folder in ("prompts", "tools", "agents", "knowledge", "triggers", "flows", "widgets"):
		(seeds / folder).mkdir(parents=True)
	(package / "__init__.py").write_text("")
	(package / "hooks.py").write_text(f'app_name = "{APP}"\n')  # Huf's migrate reads every app's huf_tools hook
	(package / "api.py").write_text("def hello(name):\n\treturn f'hello {name}'\n")
	(seeds / "tools" / "a_tools.json").write_text(
		json.dumps(
			[
				{"tool_name": TOOL, "types": "Custom Function", "function_path": f"{APP}.api.hello", "description": "Say hello.", "tool_type": "Custom Functions",
				 "parameters": [{"fieldname": "name", "type": "string", "required": 1}]},
				# the allow-list: an import of the standard library is no app's function
				{"tool_name": "seedtest_shell", "types": "Custom Function", "function_path": "os.system", "description": "Never.", "tool_type": "Custom Functions"},
			]
		)
	)  # fmt: skip
	(seeds / "tools" / "b_broken.json").write_text('{"tool_name": "seedtest_broken", ')
	(seeds / "tools" / "c_wrong_kind.json").write_text(json.dumps({"doctype": "Agent", "tool_name": "seedtest_wrong"}))
	(seeds / "widgets" / "x.json").write_text("{}")
	(seeds / "prompts" / "greeting.json").write_text(json.dumps({"slug": PROMPT, "title": "Greeting", "prompt_body": "Say hello."}))
	# the agent comes after its tool (agents/ after tools/), whatever the files' names
	(seeds / "agents" / "agent.json").write_text(
		json.dumps({"agent_name": AGENT, "model": "scripted-model", "instructions": "Seeded.", "agent_tool": [{"tool": TOOL}], "max_turns": 4})
	)
	(seeds / "knowledge" / "source.json").write_text(json.dumps({"source_name": SOURCE, "description": "Seeded knowledge."}))
	(seeds / "triggers" / "trigger.json").write_text(
		json.dumps({"trigger_name": TRIGGER, "agent": AGENT, "trigger_type": "Manual", "disabled": 1})
	)
	(seeds / "flows" / "flow.json").write_text(
		json.dumps(
			{
				"flow_id": FLOW, "flow_name": "Seed test flow", "status": "Draft",
				"definition_json": {"nodes": [{"id": "done", "type": "end", "data": {"label": "Done", "config": {}}}], "edges": []},
			}
		)
	)  # fmt: skip


def clean() -> None:
	for doctype, name in (
		("Agent Trigger", TRIGGER), ("Flow Definition", FLOW), ("Agent", AGENT), ("Knowledge Source", SOURCE), ("Agent Tool Function", TOOL),
		("Agent Prompt", PROMPT),
	):  # fmt: skip
		frappe.delete_doc_if_exists(doctype, name, force=True)
	frappe.db.delete(seeding.TRACK, {"app": APP})
	frappe.db.delete("Error Log", {"method": ("like", f"Huf seeding skipped {APP}/%")})


@pytest.fixture(scope="module")
def people(site):
	return (
		make_user("seed-user@huf.test", ["Huf User"]),
		make_user("seed-manager@huf.test", ["Huf Manager"]),
		make_user("seed-admin@huf.test", ["System Manager"]),  # Huf Admin
	)


@pytest.fixture
def app(site, tmp_path, llm, people):
	write_app(tmp_path)
	sys.path.insert(0, str(tmp_path))
	fixtures.model(fixtures.provider(llm))
	clean()
	installed = frappe.get_installed_apps

	def with_test_app(*, _ensure_on_bench=False):  # Frappe's hooks cache asks with _ensure_on_bench
		return installed(_ensure_on_bench=_ensure_on_bench) + ([] if _ensure_on_bench else [APP])

	commits = []
	with pytest.MonkeyPatch.context() as patch:
		patch.setattr(frappe, "get_installed_apps", with_test_app)
		# seeding never commits: install and migrate commit it with everything else
		patch.setattr(frappe.db, "commit", lambda *a, **k: commits.append("commit"))
		patch.setattr(frappe.db, "sql_ddl", lambda *a, **k: commits.append(f"ddl {a}"))
		yield tmp_path / APP / "huf"
	assert commits == []
	sys.path.remove(str(tmp_path))
	sys.modules.pop(f"{APP}.api", None)
	sys.modules.pop(APP, None)
	frappe.db.rollback()
	# Frappe keeps Error Logs through a rollback: take this test's away
	frappe.db.delete("Error Log", {"method": ("like", f"Huf seeding skipped {APP}/%")})
	frappe.db.commit()


def writes_during(monkeypatch, action) -> list[str]:
	real = frappe.db.sql
	seen: list[str] = []

	def counted(query, *args, **kwargs):
		if str(query).lstrip().lower().startswith(WRITES):
			seen.append(str(query)[:120])
		return real(query, *args, **kwargs)

	monkeypatch.setattr(frappe.db, "sql", counted)
	try:
		action()
	finally:
		monkeypatch.setattr(frappe.db, "sql", real)
	return seen


def errors() -> list[str]:
	return frappe.get_all("Error Log", filters={"method": ("like", f"Huf seeding skipped {APP}/%")}, pluck="method")


def test_an_app_is_seeded_in_order_and_a_second_migrate_writes_nothing(app, monkeypatch):
	report = seeding.seed()
	created = "\n".join(report.created)
	for doctype, name in (("Agent Tool Function", TOOL), ("Agent", AGENT), ("Knowledge Source", SOURCE), ("Agent Trigger", TRIGGER), ("Flow Definition", FLOW)):
		assert frappe.db.exists(doctype, name), (doctype, report.as_dict())
		assert f"{doctype} {name} ({APP}/huf/" in created
	# prompts come first, named by their slug
	assert frappe.db.get_value("Agent Prompt", PROMPT, ["prompt_body", "version", "is_latest"]) == ("Say hello.", 1, 1)
	assert created.index(f"Agent Prompt {PROMPT} ") < created.index(f"Agent Tool Function {TOOL} ")
	# dependency order: the agent links the tool seeded from the same app in the same pass
	assert [row.tool for row in frappe.get_doc("Agent", AGENT).agent_tool] == [TOOL]
	assert frappe.db.get_value("Agent", AGENT, ["provider", "model"]) == ("Scripted", "scripted-model")
	assert frappe.db.get_value("Flow Definition", FLOW, "status") == "Draft"
	modified = {(d, n): frappe.db.get_value(d, n, "modified") for d, n in (("Agent", AGENT), ("Agent Tool Function", TOOL), ("Flow Definition", FLOW))}

	# migrate again, the way bench migrate ends (Huf's after_migrate), twice
	install.after_migrate()
	assert writes_during(monkeypatch, install.after_migrate) == []
	assert writes_during(monkeypatch, seeding.seed) == []
	assert {(d, n): frappe.db.get_value(d, n, "modified") for d, n in modified} == modified
	assert seeding.seed().unchanged >= 5


def test_bad_files_are_skipped_with_an_error_log_and_the_rest_seeds(app, monkeypatch):
	report = seeding.seed()
	assert frappe.db.exists("Agent Tool Function", TOOL)
	assert not frappe.db.exists("Agent Tool Function", "seedtest_shell")
	logged = errors()
	expect = {
		f"Huf seeding skipped {APP}/huf/tools/a_tools.json, key seedtest_shell": "not part of an app installed on this site",  # the allow-list
		f"Huf seeding skipped {APP}/huf/tools/b_broken.json": "not valid JSON",
		f"Huf seeding skipped {APP}/huf/tools/c_wrong_kind.json, key seedtest_wrong": "holds Agent Tool Function records",
		f"Huf seeding skipped {APP}/huf/widgets/x.json": "not a folder Huf seeds from",
	}
	assert sorted(logged) == sorted(expect), logged
	for title, words in expect.items():
		message = frappe.db.get_value("Error Log", {"method": title}, "error")
		assert f"App: {APP}" in message and words in message, message
	assert len(report.skipped) == 4
	# logged once: a migrate that finds the same bad files writes nothing
	assert writes_during(monkeypatch, seeding.seed) == []
	assert len(errors()) == 4


def test_an_admin_edit_is_kept_and_the_apps_version_can_be_taken_back(app):
	seeding.seed()
	agent = frappe.get_doc("Agent", AGENT)
	agent.instructions = "Edited by an admin."
	agent.save()
	# the app ships a new version: the edited agent keeps the admin's text
	(app / "agents" / "agent.json").write_text(
		json.dumps({"agent_name": AGENT, "model": "scripted-model", "instructions": "Seeded, version 2.", "agent_tool": [{"tool": TOOL}], "max_turns": 4})
	)
	(app / "knowledge" / "source.json").write_text(json.dumps({"source_name": SOURCE, "description": "Seeded knowledge, version 2."}))
	report = seeding.seed()
	assert frappe.db.get_value("Agent", AGENT, "instructions") == "Edited by an admin."
	assert any(line.startswith(f"Agent {AGENT}") and "changed from the app's version" in line for line in report.kept)
	# nobody edited the knowledge source: the app's new version is written
	assert frappe.db.get_value("Knowledge Source", SOURCE, "description") == "Seeded knowledge, version 2."
	content = {(r["doctype"], r["key"]): r for r in seeding.get_seeded_content()["records"]}
	mine = content[("Agent", AGENT)]
	assert mine["status"] == "Changed from the app's version" and mine["app_has_newer_version"] and mine["app"] == APP
	assert content[("Knowledge Source", SOURCE)]["status"] == "As the app ships it"
	seeding.restore_app_version(mine["seed_record"])
	assert frappe.db.get_value("Agent", AGENT, "instructions") == "Seeded, version 2."
	again = {(r["doctype"], r["key"]): r for r in seeding.get_seeded_content()["records"]}[("Agent", AGENT)]
	assert again["status"] == "As the app ships it" and not again["app_has_newer_version"]


def test_a_deleted_record_is_not_made_again_until_taken_back(app):
	seeding.seed()
	frappe.delete_doc("Agent Trigger", TRIGGER, force=True)
	seeding.seed()
	assert not frappe.db.exists("Agent Trigger", TRIGGER)
	row = next(r for r in seeding.get_seeded_content()["records"] if r["key"] == TRIGGER)
	assert row["status"] == "Deleted"
	seeding.restore_app_version(row["seed_record"])
	assert frappe.db.exists("Agent Trigger", TRIGGER)


def test_a_record_that_did_not_come_from_the_app_is_left_alone(app):
	fixtures.tool(TOOL, "Get List", "ToDo")
	seeding.seed()
	assert frappe.db.get_value("Agent Tool Function", TOOL, "types") == "Get List"
	assert f"Huf seeding skipped {APP}/huf/tools/a_tools.json, key {TOOL}" in errors()


def test_only_admins_seed_list_and_take_back(app, people):
	"""settings.write: Huf Admins, not Huf Managers (who build everything else)."""
	user, manager, admin = people
	for person in (user, manager):
		with as_user(person):
			for method in (seeding.seed_all_apps, seeding.get_seeded_content):
				with pytest.raises(frappe.PermissionError, match='"settings.write"'):
					method()
			with pytest.raises(frappe.PermissionError, match='"settings.write"'):
				seeding.restore_app_version("anything")
	with as_user(admin):
		assert f"Agent {AGENT} ({APP}/huf/agents/agent.json)" in seeding.seed_all_apps()["created"]


def test_hufs_own_folder_seeds_no_example_until_it_is_added(site):
	"""Huf's huf/ folder (huf/huf/, beside doctype/) holds its example under examples/: a migrate
	seeds none of it on a site where nobody added it (huf/examples, tests/site/test_getting_started.py)."""
	frappe.db.delete(seeding.TRACK, {"app": "huf", "seed_file": ("like", "examples/%")})
	report = seeding.seed(["huf"])
	assert not [line for line in report.created + report.waiting + report.skipped if "examples/" in line], report.as_dict()
	seeds, problems, _notes = seeding.read_apps(["huf"], examples=["huf"])
	assert not problems
	assert {(s.doctype, s.key) for s in seeds if s.file.startswith("examples/")} >= {
		("Agent", "Example: Site helper"), ("Knowledge Source", "Example: About Huf"), ("Flow Definition", "example-triage"),
	}  # fmt: skip


def test_an_example_agent_without_a_model_waits_and_comes_with_the_first_model(site, llm):
	"""A site with no AI Model: the example's agent waits (no error, nothing written); saving the
	site's first model seeds it at once, with that model."""
	from huf import examples

	frappe.db.delete(seeding.TRACK, {"app": "huf"})
	frappe.db.delete("Agent", {"name": examples.AGENT})
	frappe.db.delete("AI Model")  # in this test's transaction only: a site with no model yet
	report = seeding.seed(["huf"], examples=["huf"])
	assert any(line.startswith(f"Agent {examples.AGENT}") for line in report.waiting)
	assert not frappe.db.exists("Agent", examples.AGENT)
	assert not report.skipped
	assert examples.status() == {"added": True, "agent": None, "waiting_for_model": True}
	fixtures.model(fixtures.provider(llm))  # the first model: nothing else is called
	assert frappe.db.get_value("Agent", examples.AGENT, ["disabled", "allow_chat", "model"]) == (0, 1, "scripted-model")
	assert examples.status() == {"added": True, "agent": examples.AGENT, "waiting_for_model": False}
