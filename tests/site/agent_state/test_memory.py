"""Conversation memory on a real site: atomic writes under concurrency, runs that save keys, the
injected block, the limits, and the memory panel that only the conversation's owner may use."""

from __future__ import annotations

import json
import os
import threading
import time

import frappe

from huf.ai.agent_state import memory
from huf.ai.engine import memory as fence
from huf.ai.agent.integration import run_agent_sync
from tests.site import fixtures
from tests.site.conftest import make_user, wait_for
from tests.support.scripted_llm import text, tool_calls


def memory_agent(llm, **fields) -> str:
	return fixtures.agent(llm, name="Memory Agent", enable_conversation_data=1, **fields)


def limits(per_value: int, total: int) -> None:
	settings = frappe.get_single("Agent Settings")
	settings.update({"conversation_data_max_value_bytes": per_value, "conversation_data_max_bytes": total})
	settings.save()
	frappe.db.commit()


def stored(conversation: str) -> dict:
	frappe.db.rollback()  # a fresh snapshot: what the other connections committed
	return memory.read(conversation)


def keying(body: dict):
	"""The model: "remember kN" -> save kN = N; after the tool's result -> a plain answer."""
	last = body["messages"][-1]
	if last["role"] == "tool":
		return text("saved")
	key = last["content"].split()[-1]
	return tool_calls([(f"call-{key}", "set_conversation_data", json.dumps({"key": key, "value": int(key[1:])}))])


def test_ten_writers_at_once_each_setting_a_key_lose_no_update(site, llm):
	agent = memory_agent(llm)
	llm.script(text("hello"))
	conversation = run_agent_sync(agent, "hi", now=True)["conversation"]
	frappe.db.commit()
	barrier = threading.Barrier(10)
	failures: list[BaseException] = []

	def writer(i: int) -> None:
		frappe.init(site=site, sites_path=os.getcwd())
		frappe.connect()
		try:
			barrier.wait()
			memory.write(conversation, f"k{i}", {"n": i})
			time.sleep(0.05)  # hold the row: the others queue behind this transaction, they do not overwrite it
			frappe.db.commit()
		except BaseException as error:  # noqa: BLE001 - reported below
			failures.append(error)
		finally:
			frappe.destroy()

	threads = [threading.Thread(target=writer, args=(i,)) for i in range(10)]
	for thread in threads:
		thread.start()
	for thread in threads:
		thread.join()
	assert not failures
	assert fence.values(stored(conversation)) == {f"k{i}": {"n": i} for i in range(10)}


def test_ten_runs_of_one_conversation_each_save_a_key_and_the_next_run_sees_them_all(site, llm, workers):
	agent = memory_agent(llm, inject_conversation_data=1)
	llm.respond_with(keying)
	conversation = run_agent_sync(agent, "remember k0", now=True)["conversation"]
	for i in range(1, 10):
		run_agent_sync(agent, f"remember k{i}", conversation_id=conversation)
	frappe.db.commit()
	workers.start(2)
	wait_for(lambda: frappe.db.count("Agent Run", {"conversation": conversation, "status": "Success"}) == 10, 120, message="ten runs")
	assert fence.values(stored(conversation)) == {f"k{i}": i for i in range(10)}
	llm.reset()
	llm.script(text("I remember."))
	run_agent_sync(agent, "what do you know?", conversation_id=conversation, now=True)
	system = llm.chat_requests[0]["body"]["messages"][0]["content"]
	block = system.split(fence.OPEN_TAG + "\n", 1)[1].split("\n" + fence.CLOSE_TAG)[0]
	assert json.loads(block) == {f"k{i}": i for i in range(10)}


def test_refusals_leave_the_store_as_it_was(site, llm):
	limits(50, 120)
	try:
		agent = memory_agent(llm)
		llm.script(
			tool_calls([("c1", "set_conversation_data", '{"key": "a", "value": "' + "x" * 60 + '"}')]),
			tool_calls([("c2", "set_conversation_data", '{"key": "a", "value": "' + "x" * 40 + '"}')]),
			tool_calls([("c3", "set_conversation_data", '{"key": "b", "value": "' + "y" * 40 + '"}')]),
			text("done"),
		)
		result = run_agent_sync(agent, "save things", now=True)
		frappe.db.commit()
		results = frappe.get_all("Agent Tool Call", {"agent_run": result["run"]}, ["call_id", "tool_result"], order_by="creation asc")
		by_id = {row.call_id: row.tool_result for row in results}
		assert "at most 50 bytes" in by_id["c1"]
		assert json.loads(by_id["c2"]) == {"saved": "a"}
		assert "memory is full (120 bytes)" in by_id["c3"]
		assert fence.values(stored(result["conversation"])) == {"a": "x" * 40}
	finally:
		limits(0, 0)


def test_only_the_owner_reads_and_edits_the_memory_panel(site, llm, web):
	alice = make_user("memory-alice@huf.test", ["Huf User"])
	bob = make_user("memory-bob@huf.test", ["Huf User"])
	manager = make_user("memory-manager@huf.test", ["Huf Manager"])
	agent = memory_agent(llm)
	llm.script(tool_calls([("c1", "set_conversation_data", '{"key": "city", "value": "Porto"}')]), text("ok"))
	frappe.set_user(alice)
	conversation = run_agent_sync(agent, "I live in Porto", now=True)["conversation"]
	frappe.set_user("Administrator")
	frappe.db.commit()
	base = "/api/method/huf.ai.agent_state.memory."
	mine = web.get(base + "get_conversation_memory", web.token_headers(alice), conversation=conversation)
	assert mine.status_code == 200 and [(row["key"], row["value"]) for row in mine.json()["message"]] == [("city", "Porto")]
	for other in (bob, manager):
		refused = web.get(base + "get_conversation_memory", web.token_headers(other), conversation=conversation)
		assert refused.status_code == 404 and "Porto" not in refused.text
		edit = web.post(base + "set_conversation_memory", {"conversation": conversation, "key": "city", "value": '"Lisbon"'}, web.token_headers(other))
		assert edit.status_code == 404
	desk = web.get(f"/api/resource/Agent Conversation/{conversation}", web.token_headers(manager))
	assert desk.status_code == 200 and "Porto" not in desk.text  # the field is for the panel only
	headers = web.token_headers(alice)
	bad = web.post(base + "set_conversation_memory", {"conversation": conversation, "key": "city", "value": "Lisbon"}, headers)
	assert bad.status_code == 417 and "must be JSON" in bad.text
	changed = web.post(base + "set_conversation_memory", {"conversation": conversation, "key": "city", "value": '"Lisbon"'}, headers)
	assert [(row["key"], row["value"]) for row in changed.json()["message"]] == [("city", "Lisbon")]
	cleared = web.post(base + "set_conversation_memory", {"conversation": conversation, "key": "city", "value": ""}, headers)
	assert cleared.json()["message"] == [] and fence.values(stored(conversation)) == {}
