"""One run lifecycle (huf.ai.run.lifecycle) for every kind of run, and what a run costs in SQL."""

from __future__ import annotations

import json

import frappe

from huf.ai.run import event_log
from huf.ai.agent.integration import run_agent_sync
from huf.ai.run.titles import name_conversation
from huf.ai.triggers.fire import run_trigger
from tests.site import fixtures
from tests.site.sql_count import counted_statements
from tests.support.scripted_llm import text, tool_calls

LIFECYCLE_FIELDS = ["name", "agent", "user", "status", "run_kind", "provider", "model", "model_used", "turns", "started_at", "ended_at", "duration_seconds", "total_tokens"]


def statuses(run: str) -> list[str]:
	return [data["status"] for _id, name, data in event_log.read(event_log.log_key(run), "0-0", 0) if name == "status"]


def test_every_kind_of_run_is_recorded_the_same_way_with_its_kind(site, llm):
	helper = fixtures.agent(llm, name="Kind Helper")
	fixtures.tool("kind_ask_helper", "Run Agent", None, agent=helper)
	agent = fixtures.agent(llm, name="Kind Agent", tools=("kind_ask_helper",), autonaming_of_conversation_title=1)
	trigger = frappe.get_doc({"doctype": "Agent Trigger", "agent": agent, "trigger_type": "Manual"}).insert().name
	frappe.db.commit()
	llm.script(
		tool_calls([("c1", "kind_ask_helper", json.dumps({"prompt": "help"}))], usage=(10, 2, 0)),
		text("helped", usage=(5, 1, 0)),  # the sub-agent's answer
		text("done", usage=(10, 2, 0)),
		text("A title", usage=(3, 2, 0)),  # the title job, called below
		text("triggered", usage=(4, 1, 0)),
		text("again", usage=(4, 1, 0)),
	)
	runs_before = frappe.db.get_value("Agent", agent, "total_run")
	chat = run_agent_sync(agent, "do it", now=True)
	name_conversation(chat["conversation"], chat["run"])
	triggered = run_trigger(trigger, {"kind": "manual", "trigger": trigger, "prompt": "go"}, triggered_by="Administrator")
	frappe.db.commit()

	sub = frappe.db.get_value("Agent Run", {"parent_run": chat["run"], "run_kind": "sub-agent"}, "name")
	title = frappe.db.get_value("Agent Run", {"parent_run": chat["run"], "run_kind": "title"}, "name")
	runs = {kind: frappe.db.get_value("Agent Run", name, LIFECYCLE_FIELDS, as_dict=True) for kind, name in (
		("chat", chat["run"]), ("sub-agent", sub), ("title", title), ("trigger", triggered["run"]))}
	for kind, run in runs.items():
		assert run.run_kind == kind and run.status == "Success", (kind, run)
		assert run.user == "Administrator" and run.provider == "Scripted" and run.model == "scripted-model", (kind, run)
		assert run.model_used and run.turns >= 1 and run.total_tokens > 0, (kind, run)
		assert run.started_at and run.ended_at and run.duration_seconds >= 0, (kind, run)
		assert statuses(run.name)[-1] == "Success", (kind, statuses(run.name))  # its watchers heard it end
	assert runs["sub-agent"].agent == helper and runs["title"].agent == agent
	# an inline run in a conversation made for it is never queued: it starts at once (runs.queue_run)
	assert statuses(chat["run"]) == ["Started", "Success"]
	again = run_agent_sync(agent, "again", conversation_id=chat["conversation"], now=True)
	assert statuses(again["run"]) == ["Queued", "Started", "Success"]
	# chat and trigger runs are the agent's own runs; naming its conversation is not
	assert frappe.db.get_value("Agent", agent, "total_run") == runs_before + 3


def test_the_sub_agents_answer_is_what_the_asking_model_reads(site, llm):
	helper = fixtures.agent(llm, name="Answer Helper")
	fixtures.tool("answer_ask_helper", "Run Agent", None, agent=helper)
	boss = fixtures.agent(llm, name="Answer Boss", tools=("answer_ask_helper",))
	llm.script(
		tool_calls([("c1", "answer_ask_helper", json.dumps({"prompt": "count to three"}))]),
		text("one two three"),
		text("The helper says: one two three"),
	)
	result = run_agent_sync(boss, "get help", now=True)
	call = frappe.get_all("Agent Tool Call", filters={"agent_run": result["run"]}, fields=["status", "tool_result", "error_message"])
	assert len(call) == 1 and call[0].status == "Success", call
	assert json.loads(call[0].tool_result)["response"] == "one two three"
	tool_message = llm.requests[2]["body"]["messages"][-1]
	assert tool_message["role"] == "tool" and "one two three" in tool_message["content"]


def test_an_inline_runs_log_is_whole_and_in_order_and_its_drainer_leaves_nothing_behind(site, llm):
	"""A new conversation's inline run sends its Started event with the drainer's in-flight entry, its
	complete with its final status, and its entry's deletion with the lock's release (huf.ai.run.runs.drain)."""
	from huf.ai.run import inflight, lifecycle
	fixtures.tool("log_get_todos", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="Log Agent", tools=("log_get_todos",))
	llm.script(tool_calls([("c1", "log_get_todos", json.dumps({"limit": 1}))]), text("Done."))
	result = run_agent_sync(agent, "list", channel_id="log-order", now=True)
	assert result["status"] == "Success", result
	logged = [(name, data.get("status") or data.get("id")) for _id, name, data in event_log.read(event_log.log_key(result["run"]), "0-0", 0)]
	assert logged == [
		("status", "Started"), ("tool_call", "c1"), ("tool_result", "c1"), ("delta", None), ("complete", None), ("status", "Success")
	], logged  # fmt: skip
	conversation = result["conversation"]
	assert not frappe.cache.execute_command("HEXISTS", inflight.INFLIGHT, f"{site}|conversation|{conversation}")
	assert not frappe.cache.execute_command("EXISTS", f"huf:pulse:{site}|conversation|{conversation}")
	assert not lifecycle.key_exists(lifecycle.lock_key(conversation))
	assert not lifecycle.key_exists(lifecycle.heartbeat_key(result["run"]))


def test_a_cancel_flag_read_already_is_not_read_again_until_its_time(site):
	import time

	from huf.ai.run import lifecycle
	run = f"cancel-{frappe.generate_hash(length=8)}"
	frappe.cache.set(lifecycle.cancel_key(run), "1", ex=60)
	assert lifecycle.cancel_checker(run)()  # nothing read yet: reads it
	assert not lifecycle.cancel_checker(run, seen=(time.monotonic(), False))()  # read a moment ago
	assert lifecycle.cancel_checker(run, seen=(time.monotonic() - lifecycle.CANCEL_CHECK_EVERY, False))()  # due again
	frappe.cache.delete_value(lifecycle.cancel_key(run))
	assert lifecycle.cancel_checker(run, seen=(time.monotonic(), True))()


def test_a_three_tool_run_writes_its_rows_in_few_statements(site, llm, monkeypatch):
	"""Guards the batching: a round's rows go in one INSERT per table, nothing just written is read
	back. (benchmarks/site_run.py measures the same run's time.)"""
	fixtures.tool("sql_get_todos", "Get List", "ToDo")
	fixtures.tool("sql_create_todo", "Create Document", "ToDo")
	fixtures.tool("sql_get_todo", "Get Document", "ToDo")
	agent = fixtures.agent(llm, name="Sql Agent", tools=("sql_get_todos", "sql_create_todo", "sql_get_todo"), context_strategy="FIFO")
	todo = frappe.get_doc({"doctype": "ToDo", "description": "seed"}).insert().name
	frappe.db.commit()
	run_agent_sync(agent, "warm up", channel_id="sql-warm", now=True)  # caches (documents, prices) as in a warm worker

	three_tools(llm, todo, "counted")
	with counted_statements(monkeypatch) as counts:
		result = run_agent_sync(agent, "three tools", channel_id="sql-counted", now=True)
	assert result["status"] == "Success", result
	assert frappe.db.count("Agent Tool Call", {"agent_run": result["run"], "status": "Success"}) == 3
	# 64 before a round's rows were batched (and the tools' own 7); 31 before commits skipped Frappe's
	# START TRANSACTION, prices were cached in the process and the queue check became the claim; 24
	# before a new conversation's first run started without a commit and a claim, read no history, and
	# a run numbered its own messages; 15 before the provider's stored key was kept in the process for
	# the provider's version. With the tools' own 4 in benchmarks/site_run.py that is 18 for the whole
	# run (here the tools look up two DocTypes' metadata too).
	assert counts["huf"] <= 14, counts

	# The same conversation's next run: the run's number, the commit that lets a drainer see it, the
	# claim, the history and the first message number come back (5 more).
	three_tools(llm, todo, "again")
	with counted_statements(monkeypatch) as counts:
		result = run_agent_sync(agent, "three tools again", channel_id="sql-counted", now=True)
	assert result["status"] == "Success", result
	assert counts["huf"] <= 19, counts


def three_tools(llm, todo: str, description: str) -> None:
	"""The model's script of the 3-tool run: list ToDos, then create one and read another, then answer."""
	llm.script(
		tool_calls([("c1", "sql_get_todos", json.dumps({"limit": 5}))]),
		tool_calls([("c2", "sql_create_todo", json.dumps({"data": {"description": description}})), ("c3", "sql_get_todo", json.dumps({"name": todo}))]),
		text("Done."),
	)


def numbers(conversation: str) -> tuple[list[int], dict]:
	sequences = frappe.get_all("Agent Message", filters={"conversation": conversation}, pluck="sequence", order_by="sequence asc")
	counter = frappe.db.get_value("Agent Conversation", conversation, ["last_message_sequence", "total_messages"], as_dict=True)
	return sequences, counter


def test_a_run_numbers_its_own_messages_and_the_counter_catches_up_when_it_ends(site, llm):
	"""After its first message a run numbers the rest itself (it holds the conversation's lock); the
	conversation's counter and total are brought up to date by the statement that ends the run."""
	fixtures.tool("numbers_get_todos", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="Numbers Agent", tools=("numbers_get_todos",), context_strategy="FIFO")
	for _ in range(2):
		llm.script(
			tool_calls([("c1", "numbers_get_todos", json.dumps({"limit": 1}))]),
			tool_calls([("c2", "numbers_get_todos", json.dumps({"limit": 2}))]),
			text("Done."),
		)
		result = run_agent_sync(agent, "count", channel_id="numbers", now=True)
		assert result["status"] == "Success", result
	sequences, counter = numbers(result["conversation"])
	assert sequences == list(range(1, 13)), sequences  # 6 per run: the person, 2 x (call + result), the answer
	assert (counter.last_message_sequence, counter.total_messages) == (12, 12), counter


def test_a_counter_left_behind_by_a_dead_worker_never_hands_out_a_taken_number(site, llm):
	"""A worker that died mid-run committed rounds the counter does not count yet: the next number
	taken is after the conversation's last message all the same."""
	agent = fixtures.agent(llm, name="Lagging Counter Agent")
	llm.respond_with(lambda body: text("ok"))
	first = run_agent_sync(agent, "one", channel_id="lagging", now=True)
	frappe.db.set_value("Agent Conversation", first["conversation"], "last_message_sequence", 0, update_modified=False)
	frappe.db.commit()
	second = run_agent_sync(agent, "two", channel_id="lagging", now=True)
	assert second["status"] == "Success", second
	sequences, counter = numbers(first["conversation"])
	assert sequences == [1, 2, 3, 4], sequences
	assert counter.last_message_sequence == 4, counter


def test_a_new_conversations_first_run_that_fails_before_its_first_commit_is_still_recorded(site, llm, monkeypatch):
	"""Such a run starts without a commit (runs.queue_run): a failure in its setup keeps the
	conversation and the run, Failed with the reason, instead of rolling them back."""
	from huf.ai.run import executor
	agent = fixtures.agent(llm, name="Setup Fails Agent")

	def broken(*args, **kwargs):
		frappe.throw("The setup broke.")

	monkeypatch.setattr(executor.run_setup, "prepare_run", broken)
	result = run_agent_sync(agent, "hello", channel_id=f"setup-fails-{frappe.generate_hash(length=6)}", now=True)
	assert result["status"] == "Failed" and result["error_kind"] == "setup", result
	frappe.db.rollback()
	run = frappe.db.get_value("Agent Run", result["run"], ["status", "error_message", "conversation"], as_dict=True)
	assert run and run.status == "Failed" and "setup broke" in run.error_message, run
	assert frappe.db.exists("Agent Conversation", run.conversation)


def test_a_models_prices_are_read_from_the_table_once_per_process(site, llm, monkeypatch):
	"""A cache miss was remembered in the process as None, so every later run read AI Model again."""
	from huf.ai.run import cost
	model = fixtures.model("Scripted", name="priced-once", use_custom_pricing=1, input_cost_per_1m_tokens=3.0)
	cost.clear_price_cache(model)
	reads = []
	real_get_value = frappe.db.get_value

	def counted_get_value(doctype, *args, **kwargs):
		reads.append(doctype)
		return real_get_value(doctype, *args, **kwargs)

	monkeypatch.setattr(frappe.db, "get_value", counted_get_value)
	prices = [cost.get_prices(model) for _ in range(3)]
	assert reads.count("AI Model") == 1, reads
	assert prices[0].input_per_1m == prices[2].input_per_1m == 3.0
