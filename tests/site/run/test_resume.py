"""Agent runs whose worker is SIGKILLed mid-way, through real RQ workers: the run goes on from its
last recorded step on another worker (each message once), or, when a call that may act only once
was in flight, waits for its owner's decision (Retry, Skip, End)."""

from __future__ import annotations

import json
import time

import frappe
import pytest

from huf.ai.run import event_log
from huf.ai.agent.approvals import resolve_interrupted_call
from huf.ai.agent.chat import get_agent_chat_messages
from huf.ai.agent.integration import run_agent_sync
from huf.ai.run.approvals import DecisionConflict
from huf.ai.run.resume import recover_conversation
from huf.ai.run.runs import sweep_stale_runs
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
from tests.site.sql_count import counted_statements
from tests.support.local_http import LocalServer
from tests.support.scripted_llm import text, tool_calls

SEND = "huf_t_send_invoice"
TODO = "huf_t_resume_todo"
LOOKUP = "huf_t_slow_lookup"


def status(run: str) -> str:
	return frappe.db.get_value("Agent Run", run, "status")


def events_of(run: str) -> list[tuple[str, dict]]:
	return [(name, data) for _id, name, data in event_log.read(event_log.log_key(run), "0-0", 0)]


def messages_of(run: str) -> list[tuple[str, str, str]]:
	rows = frappe.get_all("Agent Message", {"agent_run": run}, ["role", "kind", "content"], order_by="sequence asc")
	return [(row.role, row.kind, row.content) for row in rows]


@pytest.fixture
def server():
	fixtures.allowed_hosts("127.0.0.1")
	with LocalServer() as running:
		yield running
		running.go_on.set()  # a request still held answers at once, so its thread ends


def killed_mid_answer(llm, workers, name: str) -> dict:
	"""A run whose worker is SIGKILLed while the model streams its answer (some text already shown)."""
	agent = fixtures.agent(llm, name=name, allow_chat=1)
	llm.script(text("A slow answer that never ends", chunks=8, delay=1.0), text("The whole answer."))
	run = run_agent_sync(agent, "Tell me everything", channel_id="chat")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: any(name == "delta" for name, _data in events_of(run["run"])), 60, message="the first words of the answer")
	workers.kill(0)
	return run


def assert_resumed_once(run: dict, llm) -> None:
	wait_for(lambda: status(run["run"]) in ("Success", "Failed"), 60, message="the resumed run to end")
	row = frappe.db.get_value("Agent Run", run["run"], ["status", "response", "resumed_count", "interrupted_at", "turns"], as_dict=True)
	assert (row.status, row.response, row.resumed_count, row.turns) == ("Success", "The whole answer.", 1, 1) and row.interrupted_at
	# the person's message once, the answer once: the dead attempt left nothing behind
	assert [(role, kind) for role, kind, _content in messages_of(run["run"])] == [("user", "Message"), ("agent", "Message")]
	assert frappe.db.count("Agent Message", {"conversation": run["conversation"]}) == 2
	asked = llm.requests[1]["body"]["messages"]
	assert [m["role"] for m in asked] == ["system", "user"] and asked[1]["content"] == "Tell me everything"
	events = events_of(run["run"])
	names = [name for name, _data in events]
	resumed = names.index("resumed")
	assert events[resumed][1] == {"type": "resumed", "run": run["run"], "full_response": ""}  # the lost words go
	assert [data["status"] for name, data in events if name == "status"] == ["Queued", "Started", "Queued", "Started", "Success"]
	assert "delta" in names[:resumed] and "delta" in names[resumed:] and names[-1] == "status"
	# a reader attaching now gets the answer once, after the resumed marker
	folded, _last = event_log.attach(run["run"], "0-0")
	snapshot = next(data for _id, name, data in folded if name == "snapshot")
	assert snapshot["full_response"] == "The whole answer."
	assert [name for _id, name, _data in folded].index("resumed") < [name for _id, name, _data in folded].index("snapshot")


def test_a_run_killed_mid_answer_goes_on_on_another_worker_when_its_conversation_is_recovered(site, llm, workers):
	run = killed_mid_answer(llm, workers, "Resume Agent")
	assert status(run["run"]) == "Started"
	recover_conversation(run["conversation"])  # what the watcher enqueues when a drainer dies
	assert status(run["run"]) == "Queued"
	recover_conversation(run["conversation"])  # a second call finds nothing to do
	assert frappe.db.get_value("Agent Run", run["run"], "resumed_count") == 1
	workers.start(1)
	assert_resumed_once(run, llm)


def test_the_minute_sweep_is_the_backstop_for_a_run_whose_worker_died(site, llm, workers):
	run = killed_mid_answer(llm, workers, "Swept Resume Agent")
	wait_for(lambda: (sweep_stale_runs() or True) and status(run["run"]) != "Started", 30, 0.5, "the sweep to resume the run")
	workers.start(1)
	assert_resumed_once(run, llm)
	with as_user("Administrator"):
		assert get_agent_chat_messages(run["conversation"])["runs"][run["run"]]["resumed_count"] == 1  # the chat's line after a reload


def test_a_run_that_kills_its_worker_every_time_is_failed_after_three_resumes(site, llm):
	from frappe.utils import add_to_date, now_datetime

	from huf.ai.run.rows import insert_row

	agent = fixtures.agent(llm, name="Doomed Agent")
	conversation = run_agent_sync(agent, "again")["conversation"]
	values = {"agent": agent, "user": "Administrator", "conversation": conversation, "status": "Started", "prompt": "x", "run_kind": "chat"}
	run = insert_row("Agent Run", {**values, "resumed_count": 3, "started_at": add_to_date(now_datetime(), seconds=-30)})
	frappe.db.commit()
	sweep_stale_runs()
	row = frappe.db.get_value("Agent Run", run, ["status", "error_kind", "error_message"], as_dict=True)
	assert (row.status, row.error_kind) == ("Failed", "worker_lost") and "stopped 4 times" in row.error_message


def test_a_run_killed_in_a_round_of_database_and_repeatable_calls_runs_that_round_again_and_writes_once(site, llm, workers, server):
	fixtures.tool(TODO, "Create Document", "ToDo")
	fixtures.tool(LOOKUP, "GET", None, base_url=server.url(""), tool_type="HTTP Requests")  # GET: safe to repeat
	agent = fixtures.agent(llm, name="Todo Resume Agent", tools=(TODO, LOOKUP))
	todo = f"resume target {frappe.generate_hash(length=8)}"
	llm.script(
		tool_calls([("c_todo", TODO, json.dumps({"data": {"description": todo}})), ("c_look", LOOKUP, json.dumps({"url": "/sleep?seconds=60"}))]),
		text("Made the ToDo and looked it up."),
	)
	run = run_agent_sync(agent, "Make a ToDo, then look it up")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: server.seen, 60, message="the lookup, after the ToDo was made")
	workers.kill(0)  # the ToDo's insert was not committed: it goes with the worker
	recover_conversation(run["conversation"])
	assert status(run["run"]) == "Queued" and not frappe.db.exists("ToDo", {"description": todo})
	server.go_on.set()
	workers.start(1)
	wait_for(lambda: status(run["run"]) in ("Success", "Failed"), 60, message="the resumed run")
	assert status(run["run"]) == "Success"
	assert frappe.db.count("ToDo", {"description": todo}) == 1
	assert len(llm.requests) == 2  # the round was not asked again: the same calls ran again
	calls = frappe.get_all("Agent Tool Call", {"agent_run": run["run"]}, ["call_id", "status"], order_by="call_id")
	assert [(c.call_id, c.status) for c in calls] == [("c_look", "Success"), ("c_todo", "Success")]
	assert [(role, kind) for role, kind, _content in messages_of(run["run"])] == [
		("user", "Message"), ("agent", "Tool Call"), ("tool", "Tool Result"), ("tool", "Tool Result"), ("agent", "Message"),
	]  # fmt: skip
	assert [seen.path for seen in server.seen] == ["/sleep?seconds=60"] * 2  # asked again: a GET may be


def stopped_run(llm, workers, server, user: str, *after) -> dict:
	"""A run of ``user``'s whose worker died while it sent an invoice (a POST that may act only once):
	recovered, it waits for its owner's decision."""
	fixtures.tool(SEND, "POST", None, base_url=server.url(""), tool_type="HTTP Requests", effect="Ask before repeating")
	agent = fixtures.agent(llm, name="Invoice Agent", tools=(SEND,), allow_chat=1)
	llm.script(
		tool_calls([("call_send", SEND, json.dumps({"url": "/sleep?seconds=60", "body": {"invoice": 7}}))], content="Sending it now. "),
		*after,
	)
	with as_user(user):
		run = run_agent_sync(agent, "Send invoice 7", channel_id="chat")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: server.seen, 60, message="the invoice request")
	workers.kill(0)
	recover_conversation(run["conversation"])
	return run


def test_a_call_that_may_act_only_once_stops_the_run_for_its_owner_who_may_retry_it(site, llm, workers, server):
	owner = make_user("interrupted@huf.test", ["Huf User"])
	other = make_user("bystander-resume@huf.test", ["Huf User"])
	run = stopped_run(llm, workers, server, owner, text("Sent invoice 7."))

	assert status(run["run"]) == "Needs Attention"
	call = frappe.db.get_value("Agent Tool Call", {"agent_run": run["run"]}, ["call_id", "status"], as_dict=True)
	assert (call.call_id, call.status) == ("call_send", "Interrupted")
	note = frappe.get_all("Notification Log", {"for_user": owner, "document_name": run["run"]}, ["subject", "link", "document_type"])
	assert len(note) == 1 and note[0].document_type == "Agent Run" and "huf_t_send_invoice" in note[0].subject
	assert note[0].link == f"/huf/chat?agent=Invoice+Agent&conversation={run['conversation']}"
	name, last = events_of(run["run"])[-1]
	assert name == "status" and last["status"] == "Needs Attention" and (last["call"]["id"], last["call"]["name"]) == ("call_send", SEND)
	assert json.loads(last["call"]["arguments"]) == {"url": "/sleep?seconds=60", "body": {"invoice": 7}}
	with as_user(owner):  # the chat shows the card again after a reload
		loaded = get_agent_chat_messages(run["conversation"])
	assert loaded["active_run"] == run["run"] and [(c.call_id, c.tool) for c in loaded["needs_attention"]] == [("call_send", SEND)]
	sweep_stale_runs()
	assert status(run["run"]) == "Needs Attention"  # nobody's worker holds it: the sweep leaves it for its owner

	with as_user(other), pytest.raises(frappe.PermissionError):
		resolve_interrupted_call(run["run"], "call_send", "retry")
	frappe.clear_messages()
	server.go_on.set()  # the retried request is answered at once
	with as_user(owner):
		assert resolve_interrupted_call(run["run"], "call_send", "retry")["status"] == "Queued"
	with as_user(owner), pytest.raises(DecisionConflict):
		resolve_interrupted_call(run["run"], "call_send", "skip")
	frappe.clear_messages()
	workers.start(1)
	wait_for(lambda: status(run["run"]) in ("Success", "Failed", "Needs Attention"), 60, message="the retried run")
	assert status(run["run"]) == "Success"
	assert [seen.path for seen in server.seen] == ["/sleep?seconds=60"] * 2  # sent again, as the owner chose
	row = frappe.db.get_value("Agent Tool Call", {"agent_run": run["run"]}, ["status", "decided_by"], as_dict=True)
	assert (row.status, row.decided_by) == ("Success", owner)
	assert frappe.db.count("Agent Tool Call", {"agent_run": run["run"]}) == 1
	asked = llm.requests[-1]["body"]["messages"]
	assert [m["role"] for m in asked] == ["system", "user", "assistant", "tool"] and asked[2]["tool_calls"][0]["id"] == "call_send"
	assert [(role, kind) for role, kind, _content in messages_of(run["run"])] == [
		("user", "Message"), ("agent", "Tool Call"), ("tool", "Tool Result"), ("agent", "Message"),
	]  # fmt: skip
	names = [name for name, _data in events_of(run["run"])]
	assert names.count("resumed") == 1 and names.index("resumed") < names.index("complete")


def test_skip_goes_on_with_the_value_the_owner_gave_as_the_calls_result(site, llm, workers, server):
	owner = make_user("skipper@huf.test", ["Huf User"])
	run = stopped_run(llm, workers, server, owner, text("Noted: it was sent by hand."))
	with as_user(owner):
		resolve_interrupted_call(run["run"], "call_send", "skip", value="Invoice 7 was sent by hand.")
	workers.start(1)
	wait_for(lambda: status(run["run"]) in ("Success", "Failed"), 60, message="the run to go on")
	assert status(run["run"]) == "Success"
	assert len(server.seen) == 1  # not sent again
	told = llm.requests[-1]["body"]["messages"][-1]
	assert (told["role"], told["tool_call_id"], told["content"]) == ("tool", "call_send", "Invoice 7 was sent by hand.")
	row = frappe.db.get_value("Agent Tool Call", {"agent_run": run["run"]}, ["status", "tool_result"], as_dict=True)
	assert row.status == "Skipped" and json.loads(row.tool_result) == {"skipped": True, "value": "Invoice 7 was sent by hand."}


def test_end_cancels_the_run_and_lets_the_conversations_next_run_go(site, llm, workers, server):
	owner = make_user("ender@huf.test", ["Huf User"])
	run = stopped_run(llm, workers, server, owner, text("The next answer."))
	with as_user(owner):
		later = run_agent_sync("Invoice Agent", "And then?", conversation_id=run["conversation"], channel_id="chat")
	frappe.db.commit()
	workers.start(1)
	time.sleep(3)  # the later run's drainer came and went
	frappe.db.commit()
	assert status(later["run"]) == "Queued"  # held while the run before it waits for its owner
	with as_user(owner):
		assert resolve_interrupted_call(run["run"], "call_send", "end")["status"] == "Cancelled"
	row = frappe.db.get_value("Agent Run", run["run"], ["status", "error_message", "error_kind"], as_dict=True)
	assert row.status == "Cancelled" and row.error_kind == "ended_after_interruption" and owner in row.error_message
	wait_for(lambda: status(later["run"]) == "Success", 60, message="the next run")
	assert len(server.seen) == 1
	with as_user(owner), pytest.raises(DecisionConflict):
		resolve_interrupted_call(run["run"], "call_send", "retry")


def test_a_round_that_acts_outside_commits_before_and_after_only_what_it_must(site, llm, server, monkeypatch):
	"""What knowing what may have acted costs, in Huf's own SQL statements per round: a round of a
	tool safe to repeat commits its assistant message first (2 more: its INSERT and the commit; its
	number is the run's own, recorder.py); one that may act only once also commits its Started row
	before the call (2 more). A round of database tools stays as it was (tests/site/run/test_lifecycle.py guards it)."""
	fixtures.tool("sql_list_todos", "Get List", "ToDo")
	fixtures.tool("sql_lookup", "GET", None, base_url=server.url(""), tool_type="HTTP Requests")
	fixtures.tool("sql_send", "POST", None, base_url=server.url(""), tool_type="HTTP Requests", effect="Ask before repeating")
	agent = fixtures.agent(llm, name="Sql Resume Agent", tools=("sql_list_todos", "sql_lookup", "sql_send"))
	run_agent_sync(agent, "warm up", channel_id="sql-warm", now=True)  # caches, as in a warm worker

	def huf_statements(tool: str, arguments: dict) -> int:
		llm.script(tool_calls([("c1", tool, json.dumps(arguments))]), text("Done."))
		with counted_statements(monkeypatch) as counts:
			result = run_agent_sync(agent, f"use {tool}", channel_id=f"sql-{tool}", now=True)
		assert result["status"] == "Success", result
		return counts["huf"]

	database = huf_statements("sql_list_todos", {"limit": 1})
	assert huf_statements("sql_lookup", {"url": "/echo"}) - database == 2
	assert huf_statements("sql_send", {"url": "/echo", "body": {}}) - database == 4
