"""What the web app at /huf relies on: the shell page and its boot data, the provider overview (the
key never leaves), the connection test (the provider's own error), and the run detail (owner only)."""

from __future__ import annotations

import json
import re

import frappe
import pytest

from huf.ai.agent.integration import run_agent_sync
from huf.ai.agent.run_detail import get_run_detail
from huf.ai.providers import get_provider_overview, test_provider_connection as connection_test
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import error, text, tool_calls


def test_the_shell_serves_every_address_under_huf_with_boot_data_and_leaves_streams_alone(site, llm, web):
	manager = make_user("shell-manager@huf.test", ["Huf Manager"])
	session, _csrf = web.login(manager)
	page = session.get(web.base + "/huf/agents/Some%20Agent", timeout=30)  # a deep link
	assert page.status_code == 200
	boot = json.loads(re.search(r"window.HUF_BOOT = (.*);</script>", page.text).group(1))
	assert boot["me"]["user"] == manager and boot["me"]["capabilities"]["agent.write"] is True
	assert boot["csrf_token"] and boot["site_name"] == site
	script = re.search(r'<script type="module" src="(/assets/huf/frontend/assets/[^"]+\.js)"', page.text)
	assert script, "the page loads the built app named in Vite's manifest"
	assert session.get(web.base + script.group(1), timeout=30).status_code == 200
	assert session.get(web.base + "/huf/stream", allow_redirects=False, timeout=30).status_code == 302  # not the app's shell
	guest = session.__class__()
	guest.headers.update(web.site_header())
	refused = guest.get(web.base + "/huf/runs", allow_redirects=False, timeout=30)
	assert refused.status_code == 302 and refused.headers["Location"].endswith("/login?redirect-to=/huf/runs")


def test_provider_overview_says_a_key_is_set_and_never_returns_it(site, llm):
	fixtures.model(fixtures.provider(llm, name="Scripted", api_key="sk-overview-secret"), name="scripted-model")
	fixtures.model(fixtures.provider(None, name="Keyless", api_key=None), name="keyless-model")
	rows = {row["name"]: row for row in get_provider_overview()}
	assert rows["Scripted"]["key_set"] is True and rows["Scripted"]["ready"] is True
	assert rows["Keyless"]["key_set"] is False and rows["Keyless"]["ready"] is False
	assert [m["name"] for m in rows["Keyless"]["models"]] == ["keyless-model"]
	assert "sk-overview-secret" not in json.dumps(rows, default=str)
	assert "*" not in json.dumps(rows, default=str)  # not even the mask of it
	frappe.delete_doc("AI Model", "keyless-model", force=True)
	frappe.delete_doc("AI Provider", "Keyless", force=True)


def test_connection_test_calls_the_provider_and_reports_its_own_error(site, llm):
	provider = fixtures.provider(llm)
	fixtures.model(provider)
	llm.script(text("OK"))
	result = connection_test(provider)
	assert result["ok"] is True and result["reply"] == "OK"
	assert llm.requests[-1]["headers"].get("authorization") == "Bearer sk-test"
	llm.script(error(401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}))
	result = connection_test(provider)
	assert result["ok"] is False and result["kind"] == "auth"
	assert "sk-test" not in json.dumps(result)
	user = make_user("not-a-manager@huf.test", ["Huf User"])
	with as_user(user), pytest.raises(frappe.PermissionError):
		connection_test(provider)


def test_run_detail_shows_rounds_and_tool_calls_in_order_to_the_owner_only(site, llm):
	fixtures.tool("huf_detail_list", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="Detail Agent", tools=("huf_detail_list",))
	owner = make_user("detail-owner@huf.test", ["Huf User"])
	other = make_user("detail-other@huf.test", ["Huf User"])
	llm.script(tool_calls([("c1", "huf_detail_list", json.dumps({"limit": 1}))]), text("done"))
	with as_user(owner):
		run = run_agent_sync(agent, "list", now=True)["run"]
		detail = get_run_detail(run)
	assert detail["run"]["status"] == "Success" and detail["run"]["total_tokens"] > 0
	assert [(s["kind"], s.get("tool")) for s in detail["timeline"]] == [("model", None), ("tool", "huf_detail_list"), ("model", None)]
	assert detail["timeline"][0]["requested_tools"] is True and detail["timeline"][2]["content"] == "done"
	assert all(s["duration_ms"] is not None and s["duration_ms"] >= 0 for s in detail["timeline"])
	with as_user(other), pytest.raises(frappe.PermissionError):
		get_run_detail(run)
