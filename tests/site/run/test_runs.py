"""Queue-first runs on a real site: inline and through real RQ workers, tools, ordering, failures."""

from __future__ import annotations

import json
import threading
import time

import frappe
import pytest

from huf.ai.agent.integration import get_agent_run_status, run_agent_sync
from huf.ai.run.runs import sweep_stale_runs
from tests.site import fixtures
from tests.site.conftest import as_user, make_user, wait_for
from tests.support.scripted_llm import empty, error, text, tool_calls


def messages_of(conversation: str) -> list[dict]:
	return frappe.get_all(
		"Agent Message",
		filters={"conversation": conversation},
		fields=["sequence", "role", "kind", "content", "tool_call_id", "context_policy"],
		order_by="sequence asc",
	)


def test_install_created_roles_tool_types_and_builtin_tools(site):
	assert frappe.db.exists("Role", "Huf Manager") and frappe.db.exists("Role", "Huf User")
	assert frappe.db.exists("Agent Tool Type", "Document Operations")
	builtin = frappe.get_doc("Agent Tool Function", "describe_doctype")
	assert builtin.types == "App Provided" and builtin.is_builtin
	assert json.loads(builtin.function_definition)["parameters"]["required"] == ["doctype"]


def test_inline_run_with_a_tool_round_records_every_step(site, llm):
	fixtures.tool("huf_test_create_todo", "Create Document", "ToDo")
	agent = fixtures.agent(llm, name="Todo Agent", tools=("huf_test_create_todo",))
	llm.script(
		tool_calls([("call_1", "huf_test_create_todo", json.dumps({"data": {"description": "buy milk"}}))], usage=(50, 10, 0)),
		text("Created the ToDo.", usage=(80, 6, 20)),
	)
	result = run_agent_sync(agent, "Remind me to buy milk", now=True)

	assert result["status"] == "Success", result
	assert result["response"] == "Created the ToDo."
	run = frappe.get_doc("Agent Run", result["run"])
	assert (run.input_tokens, run.output_tokens, run.cached_tokens, run.total_tokens) == (130, 16, 20, 146)
	assert run.turns == 2 and run.user == "Administrator"
	assert frappe.db.exists("ToDo", {"description": "buy milk"})
	steps = [(m.role, m.kind) for m in messages_of(result["conversation"])]
	assert steps == [("user", "Message"), ("agent", "Tool Call"), ("tool", "Tool Result"), ("agent", "Message")]
	call = frappe.get_all("Agent Tool Call", filters={"agent_run": run.name}, fields=["status", "tool", "call_id"])
	assert call == [{"status": "Success", "tool": "huf_test_create_todo", "call_id": "call_1"}]
	assert frappe.db.get_value("Agent", agent, "total_run") >= 1


def test_history_is_sent_back_as_valid_tool_call_pairs(site, llm):
	fixtures.tool("huf_test_get_todo", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="History Agent", tools=("huf_test_get_todo",))
	llm.script(tool_calls([("call_a", "huf_test_get_todo", "{}")]), text("You have some ToDos."), text("Second answer"))
	first = run_agent_sync(agent, "What do I have to do?", now=True)
	run_agent_sync(agent, "And now?", conversation_id=first["conversation"], now=True)
	sent = llm.requests[-1]["body"]["messages"]
	roles = [m["role"] for m in sent]
	assert roles == ["system", "user", "assistant", "tool", "assistant", "user"]
	assert sent[2]["tool_calls"][0]["id"] == sent[3]["tool_call_id"] == "call_a"


@pytest.mark.parametrize("command", ["worker", "huf-worker"])
def test_queued_run_returns_at_once_and_a_worker_runs_it(site, llm, workers, command):
	agent = fixtures.agent(llm, name="Queue Agent")
	llm.respond_with(lambda body: text("from the worker " + body["messages"][-1]["content"]))
	user = make_user("queue@huf.test", ["Huf User"])
	with as_user(user):
		result = run_agent_sync(agent, "hello")
	assert result["status"] == "Queued" and set(result) == {"run", "conversation", "status"}
	frappe.db.commit()
	workers.start(1, command=command)
	wait_for(lambda: get_agent_run_status(result["run"])["status"] in ("Success", "Failed"), 60, message="run to end")
	final = get_agent_run_status(result["run"])
	assert final["status"] == "Success" and final["response"] == "from the worker hello"
	# the same process takes the next job too (huf-worker does not fork): it still runs as its user
	with as_user(user):
		second = run_agent_sync(agent, "again", conversation_id=result["conversation"])
	frappe.db.commit()
	wait_for(lambda: get_agent_run_status(second["run"])["status"] == "Success", 60, message="second run")
	assert frappe.db.get_value("Agent Message", {"agent_run": second["run"], "role": "agent"}, "owner") == user


def test_ten_concurrent_posts_run_in_posting_order_with_two_workers(site, llm, workers, web):
	agent = fixtures.agent(llm, name="Order Agent")
	llm.respond_with(lambda body: text("echo: " + body["messages"][-1]["content"]))
	first = run_agent_sync(agent, "prompt 0")
	frappe.db.commit()
	conversation = first["conversation"]
	headers = web.token_headers("Administrator")
	responses: list = []

	def post(i: int) -> None:
		data = {"agent_name": agent, "prompt": f"prompt {i}", "conversation_id": conversation}
		responses.append(web.post("/api/method/huf.ai.agent.integration.run_agent_sync", data, headers))

	threads = [threading.Thread(target=post, args=(i,)) for i in range(1, 10)]
	for t in threads:
		t.start()
	for t in threads:
		t.join()
	assert [r.status_code for r in responses] == [200] * 9, [r.text for r in responses]
	workers.start(2)
	wait_for(
		lambda: frappe.db.count("Agent Run", {"conversation": conversation, "status": "Success"}) == 10,
		120,
		message="ten runs",
	)
	runs = frappe.get_all(
		"Agent Run",
		filters={"conversation": conversation},
		fields=["sequence", "prompt", "response", "started_at"],
		order_by="sequence asc",
	)
	assert [r.sequence for r in runs] == list(range(1, 11))
	assert all(r.response == "echo: " + r.prompt for r in runs)
	assert [r.started_at for r in runs] == sorted(r.started_at for r in runs)
	users = [m.content for m in messages_of(conversation) if m.role == "user"]
	assert users == [r.prompt for r in runs]  # each run went in after the ones before it


def test_the_sweep_leaves_a_long_run_alone_while_its_worker_beats(site, llm, workers):
	agent = fixtures.agent(llm, name="Long Agent")
	llm.script(text("slow but alive", chunks=4, delay=2.5))  # ~10 s: over three lock lifetimes (3 s here)
	result = run_agent_sync(agent, "take your time")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: frappe.db.get_value("Agent Run", result["run"], "status") == "Started", 60, message="run to start")
	time.sleep(4)  # started more than a lock lifetime ago: only its heartbeat protects it now
	sweep_stale_runs()
	assert frappe.db.get_value("Agent Run", result["run"], "status") == "Started"
	wait_for(lambda: frappe.db.get_value("Agent Run", result["run"], "status") == "Success", 60, message="the run to finish")


@pytest.mark.parametrize(
	"reply, kind",
	[
		(error(404, {"error": {"message": "The model `scripted-model` does not exist", "code": "model_not_found", "type": "invalid_request_error"}}), "model_not_found"),
		(error(400, {"error": {"message": "This model's maximum context length is 8192 tokens", "code": "context_length_exceeded", "type": "invalid_request_error"}}), "context_too_long"),
		(empty(), "empty_response"),
		(error(401, {"error": {"message": "Incorrect API key provided", "code": "invalid_api_key", "type": "invalid_request_error"}}), "auth"),
	],
)
def test_provider_failures_end_as_failed_runs_with_a_reason_never_as_an_answer(site, llm, reply, kind):
	agent = fixtures.agent(llm, name="Failing Agent")
	llm.script(reply)
	result = run_agent_sync(agent, "hello", now=True)
	run = frappe.get_doc("Agent Run", result["run"])
	assert run.status == "Failed" and run.error_kind == kind, (run.status, run.error_kind, run.error_message)
	assert run.error_message and not run.response
	kinds = frappe.get_all("Agent Message", filters={"agent_run": run.name}, pluck="kind", order_by="sequence asc")
	assert kinds == ["Message", "Error"]  # the user's message, then the error the chat shows


def test_an_answer_over_the_size_limit_ends_failed_with_how_to_raise_it(site, llm):
	agent = fixtures.agent(llm, name="Wordy Agent")
	llm.script(text("abcdefghij" * 20, chunks=20))
	frappe.db.set_single_value("Agent Settings", "max_response_chars", 50)
	frappe.db.commit()
	try:
		result = run_agent_sync(agent, "write a lot", now=True)
	finally:
		frappe.db.set_single_value("Agent Settings", "max_response_chars", 0)  # empty: the default
		frappe.db.commit()
	assert result["status"] == "Failed" and result["error_kind"] == "response_too_long", result
	assert "longer than 50 characters" in result["error"] and "Max Response Characters in Agent Settings" in result["error"]
	assert result["response"] == "abcdefghij" * 5  # the text up to the limit is kept


def test_a_model_slower_than_the_time_limit_ends_failed_near_the_limit(site, llm):
	agent = fixtures.agent(llm, name="Slow Model Agent")
	llm.script(text("one two three four five six seven eight nine ten", chunks=10, delay=1.0))
	frappe.db.set_single_value("Agent Settings", "model_call_timeout", 2)
	frappe.db.commit()
	started = time.monotonic()
	try:
		result = run_agent_sync(agent, "count slowly", now=True)
	finally:
		frappe.db.set_single_value("Agent Settings", "model_call_timeout", 0)
		frappe.db.commit()
	assert result["status"] == "Failed" and result["error_kind"] == "timeout", result
	assert time.monotonic() - started < 7  # not the 10 s of the whole answer
	assert "took longer than 2 seconds" in result["error"] and "Model Call Time Limit in Agent Settings" in result["error"]


def test_run_limits_left_empty_in_agent_settings_fall_back_to_the_defaults(site):
	settings = frappe.get_doc("Agent Settings")
	settings.update({"max_prompt_chars": 100000, "max_response_chars": 0, "model_call_timeout": 0})
	settings.save()
	frappe.db.commit()
	assert (settings.max_response_chars, settings.model_call_timeout) == (200000, 600)


def test_bad_input_is_refused_before_any_row_is_written(site, llm):
	agent = fixtures.agent(llm, name="Input Agent")
	before = frappe.db.count("Agent Run")
	with pytest.raises(frappe.DoesNotExistError):
		run_agent_sync("No Such Agent", "hi")
	with pytest.raises(frappe.ValidationError, match="empty"):
		run_agent_sync(agent, "   ")
	frappe.db.set_single_value("Agent Settings", "max_prompt_chars", 100)
	try:
		with pytest.raises(frappe.ValidationError, match="the limit is 100"):
			run_agent_sync(agent, "x" * 101)
	finally:
		frappe.db.set_single_value("Agent Settings", "max_prompt_chars", 100000)
	frappe.db.set_value("Agent", agent, "disabled", 1)
	frappe.clear_document_cache("Agent", agent)
	with pytest.raises(frappe.ValidationError, match="disabled"):
		run_agent_sync(agent, "hi")
	frappe.db.set_value("Agent", agent, "disabled", 0)
	frappe.clear_document_cache("Agent", agent)
	fixtures.provider(None, name="Keyless", api_key=None)
	frappe.db.set_value("Agent", agent, {"provider": "Keyless", "model": fixtures.model("Keyless", name="keyless-model")})
	frappe.clear_document_cache("Agent", agent)
	with pytest.raises(frappe.ValidationError, match="has no API key"):
		run_agent_sync(agent, "hi")
	assert frappe.db.count("Agent Run") == before


def test_custom_prices_are_used_and_refreshed_when_the_model_is_saved(site, llm):
	agent = fixtures.agent(llm, name="Priced Agent")
	fixtures.model("Scripted", use_custom_pricing=1, input_cost_per_1m_tokens=2.0, output_cost_per_1m_tokens=10.0, cached_input_cost_per_1m_tokens=0.5)
	llm.script(text("one", usage=(1_000_000, 100_000, 200_000)), text("two", usage=(1_000_000, 100, 0)))
	first = frappe.get_doc("Agent Run", run_agent_sync(agent, "a", now=True)["run"])
	# 800k uncached input at $2 + 200k cached at $0.5 + 100k output at $10
	assert first.total_cost == pytest.approx(1.6 + 0.1 + 1.0)
	fixtures.model("Scripted", input_cost_per_1m_tokens=4.0)
	second = frappe.get_doc("Agent Run", run_agent_sync(agent, "b", now=True)["run"])
	assert second.total_cost == pytest.approx(4.0 + 0.001)


def test_a_queued_run_can_be_cancelled_and_is_then_never_run(site, llm, workers):
	from huf.ai.agent.integration import cancel_agent_run

	agent = fixtures.agent(llm, name="Cancel Agent")
	llm.script(text("first"))
	keep = run_agent_sync(agent, "keep me")
	drop = run_agent_sync(agent, "drop me", conversation_id=keep["conversation"])
	assert cancel_agent_run(drop["run"])["status"] == "Cancelled"
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: frappe.db.get_value("Agent Run", keep["run"], "status") == "Success", 60, message="first run")
	wait_for(lambda: not frappe.db.exists("Agent Run", {"conversation": keep["conversation"], "status": "Queued"}), 30)
	assert frappe.db.get_value("Agent Run", drop["run"], "status") == "Cancelled"
	assert len(llm.requests) == 1


def test_get_me_tells_the_app_what_the_user_may_do(site):
	from huf.capabilities import BUILTIN_ROLES, CAPABILITIES
	from huf.permissions import get_me
	from tests.site.conftest import as_user, make_user

	assert all(get_me()["capabilities"].values())  # Administrator: Huf Admin, everything
	with as_user(make_user("plain@huf.test", ["Huf User"])):
		me = get_me()
	held = BUILTIN_ROLES["Huf User"][2]
	assert me["user"] == "plain@huf.test" and me["capabilities"] == {name: name in held for name in CAPABILITIES}
	assert me["capabilities"]["knowledge.read"] and not me["capabilities"]["agent.write"] and not me["is_manager"]
	with as_user(make_user("no-roles@huf.test", [])):
		assert not any(get_me()["capabilities"].values())


def test_run_status_events_go_to_the_conversations_owner_only(site, llm):
	"""Listens on the Redis channel Frappe's socket.io server relays from."""
	from frappe.utils.background_jobs import get_redis_connection_without_auth

	from tests.site.conftest import as_user, make_user

	owner = make_user("owner@huf.test", ["Huf User"])
	agent = fixtures.agent(llm, name="Realtime Agent")
	llm.script(text("hi"), text("hi again"))
	with as_user(owner):  # the conversation's first inline run is never Queued (runs.queue_run): the second is
		run_agent_sync(agent, "hello", now=True)
		frappe.db.commit()
	pubsub = get_redis_connection_without_auth().pubsub()
	pubsub.subscribe("events")
	with as_user(owner):
		result = run_agent_sync(agent, "hello again", now=True)
		frappe.db.commit()
	seen = []
	while message := pubsub.get_message(timeout=1.0):
		if message["type"] == "message":
			event = json.loads(message["data"])
			if event["event"] == "agent_run_status" and event["message"]["run"] == result["run"]:
				seen.append((event["room"], event["message"]["status"]))
	pubsub.close()
	assert [status for _, status in seen] == ["Queued", "Started", "Success"]
	assert {room for room, _ in seen} == {f"user:{owner}"}
