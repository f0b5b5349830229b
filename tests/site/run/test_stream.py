"""Streaming through the real web server (gunicorn) and real workers: arrival times, order,
reconnect with Last-Event-ID, and refusals."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlparse

import frappe
import requests

from huf.ai.run import event_log
from huf.ai.agent.integration import run_agent_sync
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
		# nothing that would make a server or proxy hold the body back (the client asked for gzip)
		assert "ETag" not in response.headers and "Content-Encoding" not in response.headers
		assert "no-transform" in response.headers["Cache-Control"]
		events = read_events(response)
	names = [e["event"] for e in events]
	assert names[:2] == ["status", "status"] and [e["data"]["status"] for e in events[:2]] == ["Queued", "Started"]
	assert names.index("tool_call") < names.index("tool_result") < names.index("delta")
	assert names[-2:] == ["complete", "status"] and events[-1]["data"]["status"] == "Success"
	deltas = [e for e in events if e["event"] == "delta"]
	assert "".join(d["data"]["content"] for d in deltas) == "one two three four five six"
	assert all(set(d["data"]) == {"type", "content"} for d in deltas)  # each its own piece, never the text so far
	assert events[-2]["data"]["full_response"] == "one two three four five six"
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
	logged = event_log.read(event_log.log_key(run), "0-0", 0)
	assert [e["id"] for e in first + rest] == [entry_id for entry_id, _name, _data in logged]
	text_seen = "".join(e["data"]["content"] for e in first + rest if e["event"] == "delta")
	assert text_seen == "alpha beta gamma delta" == frappe.db.get_value("Agent Run", run, "response")


def test_a_reader_attaching_mid_run_gets_the_text_so_far_once_then_the_pieces(site, llm, workers, web):
	agent = fixtures.agent(llm, name="Late Reader Agent")
	llm.script(text("one two three four five six seven eight", chunks=8, delay=0.3))
	workers.start(1)
	headers = web.token_headers("Administrator")
	with requests.post(f"{web.base}/huf/stream/{agent}", json={"prompt": "count"}, headers=headers, stream=True, timeout=60) as first:
		seen = []
		for event in iter_events(first):
			seen.append(event)
			if len([e for e in seen if e["event"] == "delta"]) == 3:
				break
		run = seen[0]["data"]["run"]
		with requests.get(f"{web.base}/huf/stream/run/{run}", headers=headers, stream=True, timeout=60) as late:
			events = read_events(late)
	names = [e["event"] for e in events]
	assert names.count("snapshot") == 1 and names.index("snapshot") < names.index("delta")
	snapshot = events[names.index("snapshot")]["data"]["full_response"]
	assert snapshot.startswith("one two th") and snapshot != "one two three four five six seven eight"
	after = "".join(e["data"]["content"] for e in events[names.index("snapshot") :] if e["event"] == "delta")
	assert snapshot + after == "one two three four five six seven eight"
	assert [e["data"]["status"] for e in events if e["event"] == "status"] == ["Queued", "Started", "Success"]


def test_the_event_log_grows_with_the_reply_not_with_its_square(site, llm, workers):
	agent = fixtures.agent(llm, name="Long Reply Agent")
	reply = "".join(f"{n:09d} " for n in range(4000))  # 40,000 characters
	llm.script(text(reply, chunks=400))
	result = run_agent_sync(agent, "write a lot", now=True)
	assert result["status"] == "Success" and result["response"] == reply
	logged = event_log.read(event_log.log_key(result["run"]), "0-0", 0)
	stored = sum(len(json.dumps(data)) for _id, name, data in logged if name == "delta")
	assert "".join(data["content"] for _id, name, data in logged if name == "delta") == reply
	assert stored < 2 * len(reply), stored  # was 400 deltas carrying the text so far: about 8 MB
	assert frappe.cache.get(event_log.text_key(result["run"])).decode() == reply


def test_a_result_whose_round_has_calls_left_is_logged_with_the_next_call(site):
	"""One round trip for both; what is still held goes out on flush (a run stopped between calls)."""
	from huf.ai.engine.events import ToolCall, ToolCallEvent, ToolResultEvent

	run = f"relay-{frappe.generate_hash(length=8)}"
	relay = event_log.relay(run, "a-conversation")
	first, second = ToolCall("c1", "lookup", "{}"), ToolCall("c2", "lookup", "{}")

	def result(call, more):
		return ToolResultEvent(call=call, content="{}", ok=True, error=None, duration_ms=1.0, truncated=False, turn=1, more=more)

	def logged():
		return [(name, data.get("id")) for _id, name, data in event_log.read(event_log.log_key(run), "0-0", 0)]

	relay(ToolCallEvent(call=first, turn=1))
	relay(result(first, more=True))
	assert logged() == [("tool_call", "c1")]
	relay(ToolCallEvent(call=second, turn=1))
	assert logged() == [("tool_call", "c1"), ("tool_result", "c1"), ("tool_call", "c2")]
	relay(result(second, more=True))  # as if the run were stopped before its next call
	relay.flush()
	assert logged()[-1] == ("tool_result", "c2")
	assert frappe.cache.ttl(event_log.log_key(run)) > 0


def test_a_runs_complete_waits_to_go_with_its_final_status(site):
	"""The loop's last event: no step follows it, and it goes out with the final status once the run's
	end is committed (huf.ai.run.executor hands it to lifecycle.finish)."""
	from huf.ai.engine.events import CompleteEvent, Usage

	run = f"relay-{frappe.generate_hash(length=8)}"
	relay = event_log.relay(run, "a-conversation")
	relay(CompleteEvent(response="Done.", usage=Usage(), turns=1, duration_seconds=0.1))
	assert frappe.cache.execute_command("XLEN", event_log.log_key(run)) == 0  # (a read of an empty log would wait)
	held = relay.take()
	assert [name for name, _data in held] == ["complete"]
	event_log.append_many(run, [*held, ("status", {"type": "status", "run": run, "status": "Success"})])
	assert [name for _id, name, _data in event_log.read(event_log.log_key(run), "0-0", 0)] == ["complete", "status"]


def test_a_reconnect_whose_last_event_was_trimmed_away_still_gets_the_whole_text(site, llm, web):
	from huf.ai.run.rows import insert_row

	agent = fixtures.agent(llm, name="Trimmed Log Agent")
	run = insert_row("Agent Run", {"agent": agent, "user": "Administrator", "status": "Started", "prompt": "x"})
	frappe.db.commit()
	for piece in ("Once ", "upon ", "a ", "time"):
		event_log.append(run, "delta", {"type": "delta", "content": piece})
	key = event_log.log_key(run)
	seen_last = event_log.read(key, "0-0", 0)[0][0]
	frappe.cache.xtrim(key, maxlen=2, approximate=False)  # what MAX_EVENTS does to a very long run
	event_log.append(run, "status", {"type": "status", "run": run, "status": "Success"})
	headers = {**web.token_headers("Administrator"), "Last-Event-ID": seen_last}
	with requests.get(f"{web.base}/huf/stream/run/{run}", headers=headers, stream=True, timeout=60) as response:
		events = read_events(response)
	assert [(e["event"], e["data"].get("full_response")) for e in events] == [("snapshot", "Once upon a time"), ("status", None)]


def test_refusals_are_error_events_with_the_right_status_and_create_nothing(site, llm, web):
	agent = fixtures.agent(llm, name="Refusing Agent")
	headers = web.token_headers("Administrator")
	before = frappe.db.count("Agent Run")
	disabled = fixtures.agent(llm, name="Sleeping Agent", disabled=1)
	limit = frappe.db.get_single_value("Agent Settings", "max_prompt_chars")
	frappe.db.set_single_value("Agent Settings", "max_prompt_chars", 50)
	frappe.db.commit()
	cases = [
		("/huf/stream/No Such Agent", {"prompt": "hi"}, 404, "There is no agent named"),
		(f"/huf/stream/{agent}", {"prompt": "  "}, 417, "The message is empty"),
		(f"/huf/stream/{disabled}", {"prompt": "hi"}, 417, "is disabled"),
		(f"/huf/stream/{agent}", {"prompt": "x" * 51}, 417, "the limit is 50"),
	]
	try:
		for path, body, status, says in cases:
			response = requests.post(web.base + path, json=body, headers=headers, timeout=30)
			assert response.status_code == status, (path, response.text)
			assert response.text.startswith("event: error")
			assert says in json.loads(response.text.split("data: ", 1)[1])["message"]
	finally:
		frappe.db.set_single_value("Agent Settings", "max_prompt_chars", limit)  # as it was: 0 is refused on save
		frappe.db.commit()
	response = requests.get(f"{web.base}/huf/stream/{agent}", params={"prompt": "hi"}, headers=headers, timeout=30)
	assert response.status_code == 405  # no GET starts a run
	frappe.db.commit()
	assert frappe.db.count("Agent Run") == before


def test_another_user_gets_403_on_a_stream_and_a_conversation_that_are_not_theirs(site, llm, web):
	agent = fixtures.agent(llm, name="Private Stream Agent")
	llm.script(text("mine"))
	run = run_agent_sync(agent, "private", now=True)["run"]
	frappe.db.commit()
	other = make_user("stranger@huf.test", ["Huf User"])
	other_headers = web.token_headers(other)
	response = requests.get(f"{web.base}/huf/stream/run/{run}", headers=other_headers, timeout=30)
	assert response.status_code == 403 and "someone else" in response.text
	conversation = frappe.db.get_value("Agent Run", run, "conversation")
	response = web.get("/api/method/huf.ai.agent.chat.get_agent_chat_messages", other_headers, conversation_id=conversation)
	assert response.status_code == 403 and "someone else" in response.text


def test_a_session_post_needs_its_csrf_token(site, llm, workers, web):
	agent = fixtures.agent(llm, name="Session Agent")
	user = make_user("browser@huf.test", ["Huf User"])
	session, token = web.login(user)
	before = frappe.db.count("Agent Run")
	for bad in ({}, {"X-Frappe-CSRF-Token": "not-the-token"}):
		response = session.post(f"{web.base}/huf/stream/{agent}", json={"prompt": "hi"}, headers=bad, timeout=30)
		assert response.status_code == 400, response.text
	frappe.db.commit()
	assert frappe.db.count("Agent Run") == before
	llm.script(text("hello browser"))
	workers.start(1)
	with session.post(
		f"{web.base}/huf/stream/{agent}", json={"prompt": "hi"}, headers={"X-Frappe-CSRF-Token": token}, stream=True, timeout=60
	) as response:
		assert response.status_code == 200
		events = read_events(response)
	assert events[-1]["data"]["status"] == "Success" and events[-2]["data"]["response"] == "hello browser"


def test_stop_mid_stream_records_cancelled_with_the_text_so_far(site, llm, workers, web):
	agent = fixtures.agent(llm, name="Stoppable Agent")
	llm.script(text("one two three four five six seven eight", chunks=8, delay=0.4))
	workers.start(1)
	headers = web.token_headers("Administrator")
	with requests.post(f"{web.base}/huf/stream/{agent}", json={"prompt": "count"}, headers=headers, stream=True, timeout=60) as response:
		events = []
		for event in iter_events(response):
			events.append(event)
			if event["event"] == "delta" and len([e for e in events if e["event"] == "delta"]) == 2:
				run = events[0]["data"]["run"]
				stopped = web.post("/api/method/huf.ai.agent.integration.cancel_agent_run", {"run": run}, headers)
				assert stopped.status_code == 200, stopped.text
			if event["event"] == "status" and event["data"]["status"] in ("Success", "Failed", "Cancelled"):
				break
	assert events[-1]["data"]["status"] == "Cancelled"
	shown = "".join(e["data"]["content"] for e in events if e["event"] == "delta")
	row = frappe.db.get_value("Agent Run", run, ["status", "response"], as_dict=True)
	assert row.status == "Cancelled" and row.response == shown
	assert shown.startswith("one two ") and not shown.endswith("eight")


def test_the_old_try_out_address_opens_the_chat_for_the_agent_it_names(site, llm, web):
	agent = fixtures.agent(llm, name="Page Agent", allow_chat=1)
	session, _token = web.login(make_user("visitor@huf.test", ["Huf User"]))
	asked = session.get(f"{web.base}/huf/stream", params={"agent": agent}, allow_redirects=False, timeout=30)
	assert asked.status_code == 302 and asked.headers["Location"].endswith("/huf/chat?agent=Page+Agent")
	plain = session.get(f"{web.base}/huf/stream", allow_redirects=False, timeout=30)
	assert plain.status_code == 302 and plain.headers["Location"].endswith("/huf/chat")
	page = session.get(f"{web.base}/huf/stream", params={"agent": agent}, timeout=30)
	assert page.status_code == 200 and "window.HUF_BOOT" in page.text  # the web app, which opens that chat
	anonymous = requests.get(f"{web.base}/huf/stream", params={"agent": agent}, headers=web.site_header(), timeout=30)
	assert anonymous.url.split("?")[0].endswith("/login")
	assert parse_qs(urlparse(anonymous.url).query)["redirect-to"] == ["/huf/chat?agent=Page+Agent"]  # back to it after signing in


def test_open_streams_hold_no_database_connection(site, llm, web):
	"""A stream can last as long as a run: it must not keep one of the database's connections."""
	import threading

	from huf.ai.run.rows import insert_row

	agent = fixtures.agent(llm, name="Idle Stream Agent")
	runs = [insert_row("Agent Run", {"agent": agent, "user": "Administrator", "status": "Started", "prompt": "x"}) for _ in range(5)]
	frappe.db.commit()
	headers = web.token_headers("Administrator")

	def connections() -> int:
		return int(frappe.db.sql("show status like 'Threads_connected'")[0][1])

	before = connections()
	attached = threading.Barrier(len(runs) + 1)

	def follow(run):
		with requests.get(f"{web.base}/huf/stream/run/{run}", headers=headers, stream=True, timeout=60) as response:
			events = iter_events(response)
			next(events)  # the first delta: the stream is attached
			attached.wait()
			read_events(response)

	threads = [threading.Thread(target=follow, args=(run,)) for run in runs]
	for thread in threads:
		thread.start()
	for run in runs:
		event_log.append(run, "delta", {"type": "delta", "content": "x"})
	attached.wait(timeout=30)
	during = connections()
	for run in runs:
		event_log.append(run, "status", {"type": "status", "run": run, "status": "Success"})
	for thread in threads:
		thread.join(timeout=30)
	assert during - before < len(runs), (before, during)


def test_stopping_a_run_that_has_not_started_ends_its_stream(site, llm, web):
	import threading

	agent = fixtures.agent(llm, name="Never Started Agent")  # no workers: the run stays Queued
	headers = web.token_headers("Administrator")
	with requests.post(f"{web.base}/huf/stream/{agent}", json={"prompt": "wait"}, headers=headers, stream=True, timeout=30) as response:
		guard = threading.Timer(20, response.close)  # keepalives would hold a hung stream open for an hour
		guard.start()
		events = []
		try:
			for event in iter_events(response):
				events.append(event)
				if event["event"] == "status" and event["data"]["status"] == "Queued":
					stopped = web.post("/api/method/huf.ai.agent.integration.cancel_agent_run", {"run": event["data"]["run"]}, headers)
					assert stopped.status_code == 200, stopped.text
				if event["event"] == "status" and event["data"]["status"] in ("Success", "Failed", "Cancelled"):
					break
		except Exception:  # noqa: BLE001 - the guard closed a stream that never ended
			pass
		finally:
			guard.cancel()
	assert [e["data"]["status"] for e in events if e["event"] == "status"] == ["Queued", "Cancelled"]
	frappe.db.commit()
	assert frappe.db.get_value("Agent Run", events[0]["data"]["run"], "status") == "Cancelled"
