"""Streaming through the real web server (gunicorn) and real workers: arrival times, order,
reconnect with Last-Event-ID, and refusals."""

from __future__ import annotations

import json
import time

import frappe
import requests

from tests.site import fixtures
from tests.site.conftest import make_user
from tests.support.scripted_llm import text, tool_calls


def iter_events(response):
	"""Parse an SSE response into events as they arrive, each stamped with its arrival time."""
	current = {}
	for raw in response.iter_lines(decode_unicode=True):
		if raw == "":
			if "event" in current:
				current.update(at=time.monotonic(), data=json.loads(current["data"]))
				yield current
			current = {}
		elif raw and not raw.startswith(":"):
			field, _, value = raw.partition(":")
			current[field] = value.lstrip(" ")


def read_events(response) -> list[dict]:
	"""Every event up to the run's final status."""
	events = []
	for event in iter_events(response):
		events.append(event)
		if event["event"] == "status" and event["data"]["status"] in ("Success", "Failed", "Cancelled"):
			break
	return events


def test_deltas_arrive_while_the_run_is_still_going_and_tool_events_are_in_order(site, llm, workers, web):
	fixtures.tool("huf_s_list", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="Stream Agent", tools=("huf_s_list",))
	llm.script(
		tool_calls([("c1", "huf_s_list", json.dumps({"limit": 1}))]),
		text("one two three four five six", chunks=6, delay=0.25),
	)
	workers.start(1)
	headers = web.token_headers("Administrator")
	started = time.monotonic()
	with requests.post(f"{web.base}/huf/stream/{agent}", json={"prompt": "count"}, headers=headers, stream=True, timeout=60) as response:
		assert response.status_code == 200
		assert response.headers["Content-Type"].startswith("text/event-stream")
		assert response.headers.get("X-Accel-Buffering") == "no"
		events = read_events(response)
	names = [e["event"] for e in events]
	assert names[:2] == ["status", "status"] and [e["data"]["status"] for e in events[:2]] == ["Queued", "Started"]
	assert names.index("tool_call") < names.index("tool_result") < names.index("delta")
	assert names[-2:] == ["complete", "status"] and events[-1]["data"]["status"] == "Success"
	deltas = [e for e in events if e["event"] == "delta"]
	assert "".join(d["data"]["content"] for d in deltas) == "one two three four five six"
	assert deltas[-1]["data"]["full_response"] == "one two three four five six"
	complete = events[-2]["data"]
	assert complete["usage"]["total_tokens"] > 0 and "duration_seconds" in complete and "cost" in complete
	# streamed, not buffered: the first delta came well before the end
	assert events[-1]["at"] - deltas[0]["at"] > 0.8, [round(e["at"] - started, 2) for e in events]
	ids = [e["id"] for e in events]
	assert len(set(ids)) == len(ids)


def test_a_reconnect_with_last_event_id_gets_exactly_the_missing_events(site, llm, workers, web):
	agent = fixtures.agent(llm, name="Reconnect Agent")
	llm.script(text("alpha beta gamma delta", chunks=4, delay=0.3))
	workers.start(1)
	headers = web.token_headers("Administrator")
	with requests.post(f"{web.base}/huf/stream/{agent}", json={"prompt": "go"}, headers=headers, stream=True, timeout=60) as response:
		first = []
		for event in iter_events(response):
			first.append(event)
			if event["event"] == "delta":
				break  # the tab closes mid-answer
	run = first[0]["data"]["run"]
	with requests.get(
		f"{web.base}/huf/stream/run/{run}", headers={**headers, "Last-Event-ID": first[-1]["id"]}, stream=True, timeout=60
	) as response:
		rest = read_events(response)
	with requests.get(f"{web.base}/huf/stream/run/{run}", headers=headers, stream=True, timeout=60) as response:
		everything = read_events(response)
	assert [e["id"] for e in first + rest] == [e["id"] for e in everything]
	text_seen = "".join(e["data"]["content"] for e in first + rest if e["event"] == "delta")
	assert text_seen == "alpha beta gamma delta" == frappe.db.get_value("Agent Run", run, "response")


def test_refusals_are_error_events_with_the_right_status_and_create_nothing(site, llm, web):
	agent = fixtures.agent(llm, name="Refusing Agent")
	headers = web.token_headers("Administrator")
	before = frappe.db.count("Agent Run")
	cases = [
		("/huf/stream/No Such Agent", {"prompt": "hi"}, 404),
		(f"/huf/stream/{agent}", {"prompt": "  "}, 417),
	]
	for path, body, status in cases:
		response = requests.post(web.base + path, json=body, headers=headers, timeout=30)
		assert response.status_code == status, (path, response.text)
		assert response.text.startswith("event: error") and json.loads(response.text.split("data: ", 1)[1])["message"]
	response = requests.get(f"{web.base}/huf/stream/{agent}", params={"prompt": "hi"}, headers=headers, timeout=30)
	assert response.status_code == 405  # no GET starts a run
	frappe.db.commit()
	assert frappe.db.count("Agent Run") == before


def test_another_user_gets_403_on_a_stream_that_is_not_theirs(site, llm, web):
	agent = fixtures.agent(llm, name="Private Stream Agent")
	llm.script(text("mine"))
	from huf.ai.agent.integration import run_agent_sync

	run = run_agent_sync(agent, "private", now=True)["run"]
	frappe.db.commit()
	other = make_user("stranger@huf.test", ["Huf User"])
	response = requests.get(f"{web.base}/huf/stream/run/{run}", headers=web.token_headers(other), timeout=30)
	assert response.status_code == 403 and "someone else" in response.text
