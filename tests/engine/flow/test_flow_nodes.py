"""Each node executor through ``step`` (engine/flow/): http_request against a real local server
(tests/support/local_http.py) through the SSRF guard; the others with fake agent/tool ports."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from huf.ai.engine.flow.ports import AgentResult
from tests.engine.flow_helpers import FakePorts, definition, edge, node, run
from tests.support.local_http import LocalServer


@pytest.fixture
def server():
	with LocalServer() as running:
		yield running


def one(type_: str, trigger: dict | None = None, ports: FakePorts | None = None, **config):
	"""The result of running a flow holding only this node."""
	return run(definition([node("n", type_, "The node", **config)], []), ports or FakePorts(), trigger)[0][-1]


def test_http_request_sends_what_it_renders_and_keeps_the_answer(server):
	ports = FakePorts(allow={"localhost"})
	config = {
		"method": "post", "url": server.url("/echo?lead={{ trigger.id }}", host="localhost"),
		"headers": {"X-Api-Key": "secret-{{ trigger.id }}-value", "Accept": "application/json"},
		"body": {"lead": "{{ trigger }}", "note": "id {{ trigger.id }}"},
	}  # fmt: skip
	result = one("http_request", {"id": 7}, ports, **config)
	assert result.status == "success", result.error
	seen = server.seen[-1]
	assert (seen.method, seen.path) == ("POST", "/echo?lead=7")
	assert seen.headers["x-api-key"] == "secret-7-value" and seen.headers["accept"] == "application/json"
	assert seen.body == b'{"lead":{"id":7},"note":"id 7"}'
	answer = result.output
	assert answer["success"] and answer["status_code"] == 200 and answer["data"]["method"] == "POST"
	assert answer["data"]["headers"]["x-api-key"] == "[hidden]"  # a secret header echoed back is hidden


def test_http_request_error_status_fails_the_node_with_the_answer_kept(server):
	url = server.url("/reply?status=404&type=text/plain&body=" + quote("no such lead"), host="localhost")
	defn = definition([node("n", "http_request", "Fetch", method="GET", url=url), node("f", "end", output="{{ nodes.n }}")], [edge("n", "f", "on_failure")])
	results, _ = run(defn, FakePorts(allow={"localhost"}))
	assert results[0].next_node_id == "f" and "404" in results[0].output["error"]
	last = run(definition([node("n", "http_request", "Fetch", method="GET", url=url)], []), FakePorts(allow={"localhost"}))[0][-1]
	assert last.status == "failed" and last.output["status_code"] == 404 and last.output["data"] == "no such lead"


def test_http_request_to_a_private_address_is_refused_by_the_guard(server):
	result = one("http_request", ports=FakePorts(), method="GET", url=server.url("/echo"))
	assert result.status == "failed" and "private address" in result.error and server.seen == []


def test_http_request_redirect_to_127_0_0_1_is_refused_when_only_localhost_is_allowed(server):
	to = server.url("/echo", host="127.0.0.1")
	url = server.url("/redirect?status=302&to=" + quote(to, safe=""), host="localhost")
	result = one("http_request", ports=FakePorts(allow={"localhost"}), method="GET", url=url)
	assert result.status == "failed" and "127.0.0.1" in result.error and "private address" in result.error
	assert [seen.path.split("?")[0] for seen in server.seen] == ["/redirect"]  # the target was never reached


def test_triggers_pass_the_payload_through_and_end_gives_its_output():
	for kind in ("trigger.webhook", "trigger.schedule", "trigger.doc-event"):
		result = run(definition([node("t", kind), node("e", "end", output={"who": "{{ trigger.name }}"})], [edge("t", "e")]), FakePorts(), {"name": "Ann"})[0]
		assert result[0].output == {"name": "Ann"} and result[-1].output == {"who": "Ann"} and result[-1].status == "success"


def test_transform_copy_map_and_template():
	trigger = {"lead": {"email": "a@x.com", "score": 7}}
	copied = one("transform", trigger, mode="copy", mappings={"email": "trigger.lead.email"})
	assert copied.context["email"] == "a@x.com" and copied.output == {"email": "a@x.com"}
	mapped = one("transform", trigger, mode="map", mappings={"double": "trigger.lead.score * 2", "hot": "trigger.lead.score > 5"})
	assert mapped.context["double"] == 14 and mapped.context["hot"] is True
	templated = one("transform", trigger, mode="template", template="Mail {{ trigger.lead.email }}", key="subject")
	assert templated.context["subject"] == "Mail a@x.com"
	broken = one("transform", trigger, mode="map", mappings={"x": "trigger.nope"})
	assert broken.status == "failed" and "'The node' (n)" in broken.error and "no key 'nope'" in broken.error


def test_agent_run_json_output_and_a_failed_agent_run():
	good = FakePorts(agents={"A": AgentResult('{"score": 3}', run="R1")})
	assert one("agent.run", ports=good, agent="A", prompt="x", output_format="json").output == {"score": 3}
	bad_json = one("agent.run", ports=FakePorts(agents={"A": AgentResult("three", run="R2")}), agent="A", prompt="x", output_format="json")
	assert bad_json.status == "failed" and "not JSON" in bad_json.error and bad_json.agent_run == "R2"
	failed = one("agent.run", ports=FakePorts(agents={"A": AgentResult("", run="R3", ok=False, error="The model is overloaded")}), agent="A", prompt="x")
	assert failed.status == "failed" and failed.error.endswith("The model is overloaded") and failed.agent_run == "R3"


def test_approval_by_roles_waits_with_its_approvers():
	result = one("human.approval", {"n": 1}, approval_type="role", roles=["Sales Manager"], message="Order {{ trigger.n }}")
	assert result.status == "waiting"
	assert result.waiting["approvers"] == {"users": [], "roles": ["Sales Manager"]} and result.waiting["message"] == "Order 1"


def test_an_unknown_node_type_fails_in_words():
	result = one("code")
	assert result.status == "failed" and "type 'code' is not one Huf knows" in result.error


def keyed_run(server, method: str, retries: int = 0, **config):
	"""Step an http_request flow named run-1 from hop 4, as its hop jobs would, with a server that
	answers 503 the first time: (the results, the Idempotency-Key each request carried)."""
	from huf.ai.engine.flow.graph import parse
	from huf.ai.engine.flow.step import RunState, step

	url = server.url("/reply?status=503", host="localhost") if retries else server.url("/echo", host="localhost")
	graph = parse(definition([node("n", "http_request", "Post", method=method, url=url, retries=retries, **config)], []))
	state = RunState("n", {"trigger": {}, "nodes": {}}, 4, 100, run="run-1")
	results = [step(graph, state, FakePorts(allow={"localhost"}))]
	if retries:  # the retry of a failed attempt: the next hop, attempt 1
		results.append(step(graph, RunState("n", state.context, 5, 100, attempt=1, run="run-1"), FakePorts(allow={"localhost"})))
	return results, [seen.headers.get("idempotency-key") for seen in server.seen]


def test_a_post_step_sends_an_idempotency_key_of_its_run_and_first_attempt_and_a_get_sends_none(server):
	results, keys = keyed_run(server, "POST")
	assert results[0].status == "success" and keys == ["huf-run-1-4"]
	_, keys = keyed_run(server, "GET")
	assert keys[-1] is None
	_, keys = keyed_run(server, "PATCH", retries=1)  # a retry is the same piece of work: the same key
	assert keys[-2:] == ["huf-run-1-4", "huf-run-1-4"]


def test_a_key_the_step_sets_itself_is_the_one_sent(server):
	_, keys = keyed_run(server, "POST", headers={"idempotency-key": "order-77"})
	assert keys == ["order-77"]
