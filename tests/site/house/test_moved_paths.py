"""Modules that moved into rooms keep their old dotted paths (huf/ai/moved.py): the same module and
the same functions, a whitelisted method still answers at its old address over HTTP, and a job
queued under an old path (as one waiting in Redis while the code is updated would be) still runs."""

from __future__ import annotations

import importlib

import frappe

from huf.ai.moved import MOVED
from tests.site import fixtures
from tests.site.conftest import make_user, wait_for


def test_every_old_path_is_the_module_at_its_new_home(site):
	for old, new in MOVED.items():
		assert importlib.import_module(old) is importlib.import_module(new), old
	# the reference's names of the built-in media tools and the MCP client
	assert frappe.get_attr("huf.ai.sdk_tools.handle_generate_image") is importlib.import_module("huf.ai.media.sdk_tools").handle_generate_image
	assert frappe.get_attr("huf.ai.mcp_client.create_mcp_tools") is importlib.import_module("huf.ai.mcp.client").create_mcp_tools


def test_a_whitelisted_method_answers_at_its_old_address(site, llm, web):
	alice = make_user("moved-alice@huf.test", ["Huf User"])
	stranger = make_user("moved-bob@huf.test", ["Huf User"])
	agent = fixtures.agent(llm, name="Moved Paths Agent")
	from huf.ai.agent.integration import run_agent_sync
	from tests.support.scripted_llm import text

	llm.script(text("hello"))
	frappe.set_user(alice)
	conversation = run_agent_sync(agent, "hi", now=True)["conversation"]
	frappe.set_user("Administrator")
	frappe.db.commit()
	for base in ("/api/method/huf.ai.memory.", "/api/method/huf.ai.agent_state.memory."):
		mine = web.get(base + "get_conversation_memory", web.token_headers(alice), conversation=conversation)
		assert mine.status_code == 200 and mine.json()["message"] == [], base
		refused = web.get(base + "get_conversation_memory", web.token_headers(stranger), conversation=conversation)
		assert refused.status_code == 404, base  # someone else's conversation is not found, as at the new address


def test_a_job_queued_under_an_old_path_still_runs(site, workers):
	job = frappe.enqueue("huf.ai.every_minute.run", queue="short", enqueue_after_commit=False)
	workers.start()
	wait_for(lambda: job.get_status(refresh=True) in ("finished", "failed"), message="the worker ran the job")
	assert job.get_status() == "finished", job.exc_info
