"""Writes to Huf's records through Frappe's own endpoints, over HTTP: refused with the capability to
ask for when the person holds none that grants the write, and left to Frappe otherwise."""

from __future__ import annotations

import json

import frappe

from tests.site import fixtures
from tests.site.conftest import make_user


def words(response) -> str:
	body = response.json()
	messages = [json.loads(item).get("message", "") for item in json.loads(body.get("_server_messages") or "[]")]
	messages += [error.get("message", "") for error in body.get("errors") or []]  # the v2 API's shape
	return " ".join(messages) + str(body.get("exception", ""))


def test_a_viewer_is_told_which_permission_a_write_needs_and_a_manager_writes(site, llm, web):
	agent = fixtures.agent(llm, name="Request Check Agent", description="as it was")
	viewer = web.token_headers(make_user("checks-viewer@huf.test", ["Huf Viewer"]))
	manager = web.token_headers(make_user("checks-manager@huf.test", ["Huf Manager"]))
	import requests

	def send(verb, path, headers, body=None):
		return requests.request(verb, web.base + path, json=body, headers=headers, timeout=60)

	attempts = [
		("POST", "/api/resource/Agent", {"agent_name": "Viewer made"}, "agent.write"),
		("PUT", f"/api/resource/Agent/{agent}", {"description": "changed"}, "agent.write"),
		("DELETE", f"/api/resource/Agent/{agent}", None, "agent.write"),
		("PUT", f"/api/v2/document/Agent/{agent}", {"description": "changed"}, "agent.write"),
		("POST", "/api/method/frappe.client.set_value", {"doctype": "Agent", "name": agent, "fieldname": "description", "value": "changed"}, "agent.write"),
		("POST", "/api/method/frappe.desk.form.save.savedocs", {"doc": json.dumps({"doctype": "Agent", "name": agent, "description": "changed"}), "action": "Save"}, "agent.write"),
		("POST", "/api/resource/AI Provider", {"provider_name": "Viewer provider"}, "provider.write"),
	]
	for verb, path, body, capability in attempts:
		refused = send(verb, path, viewer, body)
		assert refused.status_code == 403, (path, refused.text)
		assert f'"{capability}"' in words(refused), (path, refused.text)
	frappe.db.rollback()
	assert frappe.db.get_value("Agent", agent, "description") == "as it was" and not frappe.db.exists("Agent", "Viewer made")
	assert send("GET", f"/api/resource/Agent/{agent}", viewer).status_code == 200  # reading is not touched
	changed = send("PUT", f"/api/resource/Agent/{agent}", manager, {"description": "changed by the manager"})
	assert changed.status_code == 200, changed.text
	frappe.db.rollback()
	assert frappe.db.get_value("Agent", agent, "description") == "changed by the manager"
