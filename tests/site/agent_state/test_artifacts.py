"""Agent Context Artifacts on a real site: a 1 MB tool result kept as a private file, read back by the
model in pages, refused to another person, and removed by the daily sweep when it expires."""

from __future__ import annotations

import json

import frappe

from huf.ai.agent.integration import run_agent_sync
from huf.ai.agent_state.artifacts import DOCTYPE, sweep_expired
from huf.ai.engine.artifacts import PAGE_HEADER
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import prompt_tokens, text, tool_calls

LINE = "Order {n:06d}: 12 chairs, 3 tables, delivered to hall B on time.\n"
BIG = "".join(LINE.format(n=n) for n in range(16000))  # about 1 MB
PAGE = 20000 - PAGE_HEADER


def reading(pages: int):
	"""The model: read the file; then page through the artifact the result names; then answer."""

	def respond(body: dict):
		messages = body["messages"]
		last = messages[-1]
		if last["role"] == "user":
			return tool_calls([("ocr", "ocr_document", json.dumps({"file_id": file_id(messages)}))])
		reference = next(json.loads(m["content"]) for m in messages if m["role"] == "tool" and m["content"].startswith('{"artifact"'))
		done = sum(1 for m in messages if m["role"] == "tool") - 1
		if done < pages:
			args = {"id": reference["artifact"], "offset": done * PAGE, "limit": PAGE}
			return tool_calls([(f"page{done}", "read_artifact", json.dumps(args))])
		return text("Read it.")

	return respond


def file_id(messages) -> str:
	return messages[-1]["content"].split()[-1]


def upload(user: str) -> str:
	with as_user(user):
		doc = frappe.get_doc({"doctype": "File", "file_name": "orders.txt", "content": BIG.encode(), "is_private": 1}).insert()
	frappe.db.commit()
	return doc.name


def test_a_1_mb_result_becomes_an_artifact_the_model_reads_in_pages_and_others_cannot(site, llm, web):
	alice = make_user("artifact-alice@huf.test", ["Huf User"])
	bob = make_user("artifact-bob@huf.test", ["Huf User"])
	agent = fixtures.agent(llm, name="Artifact Agent", tools=("ocr_document",), max_context_chars=20000)
	llm.respond_with(reading(pages=3))
	with as_user(alice):
		run = run_agent_sync(agent, f"Read the file {upload(alice)}", now=True)
	frappe.db.commit()
	assert run["status"] == "Success", run
	artifact = frappe.get_doc(DOCTYPE, {"agent_run": run["run"]})
	assert artifact.conversation == run["conversation"] and artifact.tool_name == "ocr_document"
	assert artifact.payload_file and not artifact.payload_json and artifact.characters > 1_000_000
	assert artifact.token_estimate == -(-artifact.characters // 4) and artifact.expires_on > frappe.utils.now_datetime()
	whole = frappe.get_doc("File", {"attached_to_name": artifact.name}).get_content()
	whole = whole.decode() if isinstance(whole, bytes) else whole
	assert BIG[:5000] in json.loads(whole)["text"]
	bodies = [request["body"] for request in llm.chat_requests]
	assert prompt_tokens(bodies[1]) < prompt_tokens(bodies[0]) + 2000  # the reference, not the megabyte
	pages = [m["content"] for m in bodies[-1]["messages"] if m["role"] == "tool"][1:]
	assert "".join(page.partition("\n")[2] for page in pages) == whole[: 3 * PAGE]

	llm.respond_with(lambda body: text("done") if body["messages"][-1]["role"] == "tool" else tool_calls([("steal", "read_artifact", json.dumps({"id": artifact.name}))]))
	with as_user(bob):
		theft = run_agent_sync(agent, "read someone else's", now=True)
	frappe.db.commit()
	result = json.dumps(frappe.get_all("Agent Tool Call", {"agent_run": theft["run"]}, pluck="tool_result"))
	answer = [m for m in llm.chat_requests[-1]["body"]["messages"] if m["role"] == "tool"][0]["content"]
	assert "There is no artifact" in answer and "Order 000001" not in answer and "Order 000001" not in result
	for user, allowed in ((alice, True), (bob, False)):
		response = web.get(f"/api/resource/{DOCTYPE}/{artifact.name}", web.token_headers(user))
		assert (response.status_code == 200) is allowed, response.text
		if not allowed:
			assert "Order 000001" not in response.text


def test_the_daily_sweep_removes_expired_artifacts_and_their_files(site, llm):
	alice = make_user("artifact-alice@huf.test", ["Huf User"])
	agent = fixtures.agent(llm, name="Artifact Agent", tools=("ocr_document",), max_context_chars=20000)
	llm.respond_with(reading(pages=0))
	with as_user(alice):
		run = run_agent_sync(agent, f"Read the file {upload(alice)}", now=True)
	frappe.db.commit()
	name = frappe.db.get_value(DOCTYPE, {"agent_run": run["run"]})
	files = frappe.get_all("File", {"attached_to_doctype": DOCTYPE, "attached_to_name": name}, pluck="name")
	assert name and files
	frappe.db.set_value(DOCTYPE, name, "expires_on", frappe.utils.add_to_date(None, days=-1))
	frappe.db.commit()
	sweep_expired()
	assert not frappe.db.exists(DOCTYPE, name) and not frappe.db.exists("File", files[0])
