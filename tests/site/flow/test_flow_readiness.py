"""What cannot work is refused when a flow is activated (huf/ai/flow/readiness.py), with the words the
builder shows: a web request trigger without a secret, an approval nobody can decide (Guest, people
who do not exist, a role nobody holds), a tool the person the flow runs as may not use. A draft with
these problems may still be saved."""

from __future__ import annotations

import frappe
import pytest

from huf.ai.flow import api, readiness
from tests.site import fixtures
from tests.site.conftest import as_user, make_user

FLOW = "huf-test-readiness"


def graph(*steps: dict) -> dict:
	"""A web request trigger, then ``steps`` one after another, then an end."""
	nodes = [{"id": "hook", "type": "trigger.webhook", "data": {"label": "Web request", "config": {"secret": "s3cret-hook"}}}, *steps]
	nodes.append({"id": "done", "type": "end", "data": {"label": "Done", "config": {}}})
	edges = [{"id": f"e{i}", "source": a["id"], "target": b["id"], "type": "always"} for i, (a, b) in enumerate(zip(nodes, nodes[1:]))]
	return {"schema_version": 1, "nodes": nodes, "edges": edges}


def approval(**config) -> dict:
	return {"id": "ask", "type": "human.approval", "data": {"label": "Ask the boss", "config": config}}


@pytest.fixture
def fresh(site):
	def clear():
		if frappe.db.exists("Flow Definition", FLOW):
			frappe.delete_doc("Flow Definition", FLOW, force=True)
		frappe.db.commit()

	clear()
	yield FLOW
	clear()


def refused(definition: dict, *messages: str) -> None:
	with pytest.raises(frappe.ValidationError) as raised:
		api.save_flow_definition(FLOW, definition, status="Active")
	for message in messages:
		assert frappe.utils.escape_html(message) in str(raised.value), str(raised.value)
	frappe.db.rollback()


def test_a_web_request_trigger_without_a_secret_is_saved_as_a_draft_but_not_activated(fresh):
	empty = graph()
	empty["nodes"][0]["data"]["config"] = {}
	assert api.save_flow_definition(FLOW, empty, flow_name="Readiness")["status"] == "Draft"
	refused(empty, "Node Web request (hook): " + readiness.NO_SECRET)
	empty["nodes"][0]["data"]["config"] = {"secret": ""}
	refused(empty, readiness.NO_SECRET)
	# a secret saved before stays (the graph keeps ******** for it), so the flow activates
	api.save_flow_definition(FLOW, graph())
	assert api.save_flow_definition(FLOW, status="Active")["status"] == "Active"


def test_an_approval_needs_somebody_who_can_decide(fresh):
	api.save_flow_definition(FLOW, graph(approval(approval_type="user", users=["Guest"])), flow_name="Readiness")
	refused(graph(approval(approval_type="user", users=["Guest"])), "Node Ask the boss (ask): " + readiness.GUEST_USER, readiness.NOBODY)
	refused(graph(approval(approval_type="user", users=["nobody-here@huf.test"])), readiness.NOBODY)
	refused(graph(approval(approval_type="role", roles=["Guest"])), readiness.GUEST_ROLE, readiness.NOBODY_WITH_ROLE)
	if not frappe.db.exists("Role", "Huf Test Empty Role"):
		frappe.get_doc({"doctype": "Role", "role_name": "Huf Test Empty Role"}).insert(ignore_permissions=True)
	frappe.db.delete("Has Role", {"role": "Huf Test Empty Role"})
	frappe.db.commit()
	refused(graph(approval(approval_type="role", roles=["Huf Test Empty Role"])), readiness.NOBODY_WITH_ROLE)
	boss = make_user("readiness-boss@huf.test", ["Huf User"])
	assert api.save_flow_definition(FLOW, graph(approval(approval_type="user", users=[boss])), status="Active")["status"] == "Active"
	frappe.db.commit()


def test_a_tool_the_person_the_flow_runs_as_may_not_use_is_refused(fresh):
	manager = make_user("readiness-manager@huf.test", ["Huf User", "Huf Manager"])
	fixtures.tool("huf_test_create_user", "Create Document", "User")
	fixtures.tool("huf_test_read_todo", "Get List", "ToDo")
	frappe.db.commit()
	step = lambda tool: {"id": "use", "type": "tool.call", "data": {"label": "Use it", "config": {"tool": tool, "arguments": {}}}}  # noqa: E731
	with as_user(manager):
		api.save_flow_definition(FLOW, graph(step("huf_test_create_user")), flow_name="Readiness")
		frappe.db.commit()
		refused(
			graph(step("huf_test_create_user")),
			"Node Use it (use): readiness-manager@huf.test, who this flow runs as, may not create User records, so the tool 'huf_test_create_user'",
		)
		assert api.save_flow_definition(FLOW, graph(step("huf_test_read_todo")), status="Active")["status"] == "Active"
	frappe.db.commit()
