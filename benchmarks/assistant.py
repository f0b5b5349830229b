"""The builder assistant: what it sends the model for a large canvas, how soon the first progress
step comes, and how many model calls an accepted proposal takes on the scripted scenarios.

Engine figures (no site): run from the repository with any Python that has the requirements:
    python benchmarks/assistant.py [--runs 30]
Site figures too (the first progress step through the site: POST propose_flow on gunicorn while
the web app's stream reads /huf/stream/assistant/<turn>), from the bench's sites folder:
    ../env/bin/python /path/to/huf/benchmarks/assistant.py --site <site> [--runs 30]

Sizes are counted with LiteLLM's tokenizer for gpt-4o-mini (tiktoken's o200k), on a canvas of steps
of every kind with real-looking names and prompts. The scripted model answers at once, so the
times are Huf's own: a real model adds its first token on top.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.timing import spread
from huf.ai.engine.assistant import canvas, prompts, proposal
from huf.ai.engine.assistant.turn import run_turn
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm import LLMRequest, ModelSpec
from tests.engine.flow_helpers import Known
from tests.support.scripted_llm import ScriptedLLM, text, tool_calls

MICROSECONDS = lambda seconds: f"{seconds * 1e6:.0f} µs"  # noqa: E731
REQUEST = "When a lead comes in from the website, have the Qualifier agent score it; above 70 ask a sales manager, then create a ToDo for the owner and post to the sales channel."
KINDS = [
	("agent.run", {"agent": "Qualifier", "prompt": "Score the lead {{ trigger.lead }} from 0 to 100 and say why in one sentence."}),
	("condition", {"expression": "nodes.score.output.score > 70"}),
	("human.approval", {"approval_type": "role", "roles": ["Sales Manager"], "message": "Approve {{ trigger.lead.name }}?"}),
	("tool.call", {"tool": "create_todo", "arguments": {"description": "Call {{ trigger.lead.name }}", "owner": "{{ trigger.lead.owner }}"}}),
	("http_request", {"method": "POST", "url": "https://hooks.example.com/sales", "body": {"text": "New lead {{ trigger.lead.name }}"}}),
]


def big_canvas(steps: int) -> dict:
	nodes = [{"id": "hook", "type": "trigger.webhook", "data": {"label": "Lead from the website", "config": {}}}]
	for number in range(1, steps):
		kind, config = KINDS[number % len(KINDS)]
		nodes.append({"id": f"{kind.replace('.', '_')}_{number}", "type": kind, "position": {"x": number * 300, "y": 0}, "data": {"label": f"Step {number}: handle the lead", "config": config}})
	edges = [{"id": f"e{n}", "source": a["id"], "target": b["id"], "type": "on_success"} for n, (a, b) in enumerate(itertools.pairwise(nodes))]
	return {"id": "bench", "nodes": nodes, "edges": edges}


def sizes() -> None:
	litellm = load_litellm()
	print(f"what is sent for one request (canvas summary capped at {canvas.MAX_CANVAS_CHARS:,} characters):")
	for steps in (20, 200, 500):
		messages = prompts.flow_messages(REQUEST, big_canvas(steps))
		shown = len(messages[1]["content"])
		tokens = litellm.token_counter(model="gpt-4o-mini", messages=messages)
		print(f"  {steps:>3}-step canvas: {tokens:>6,} tokens ({shown:,} characters of canvas and request; system prompt {len(messages[0]['content']):,} characters)")


START = {"id": "bench", "nodes": [{"id": "hook", "type": "trigger.webhook", "data": {"label": "New lead", "config": {}}}], "edges": []}


def answer(prompt: str | None = "Score {{ trigger.lead }}", kind: str = "agent.run") -> str:
	config = {"agent": "Qualifier", **({"prompt": prompt} if prompt else {})}
	return json.dumps({"add_steps": [{"id": "agent_run_1", "type": kind, "label": "Score", "config": config}], "add_edges": [{"source": "hook", "target": "agent_run_1"}]})


SCENARIOS = {
	"right the first time": [text(answer())],
	"reads the tools, then right": [tool_calls([("c1", "list_tools", "{}")]), text(answer())],
	"a problem fed back, then right": [text(answer(prompt=None)), text(answer())],
	"malformed JSON, unknown step type, then right": [text("{oops"), text(answer(kind="code")), text(answer())],
	"three with problems (not accepted)": [text(answer(prompt=None)), text(answer(prompt=None)), text(answer(prompt=None))],
}


def engine(runs: int) -> None:
	from huf.ai.engine.tools import Tool

	list_tools = Tool("list_tools", "tools", {"type": "object", "properties": {}}, lambda _args: [{"name": "create_todo"}])
	with ScriptedLLM() as llm:
		spec = ModelSpec(model="scripted-model", provider="Local", api_key="sk-bench", api_base=llm.base_url)
		request = LLMRequest(model=spec, messages=prompts.flow_messages(REQUEST, START), max_retries=0)
		calls_accepted = []
		print("model calls per scenario (scripted model):")
		for name, replies in SCENARIOS.items():
			llm.reset()
			llm.script(*replies)
			found = run_turn(request, [list_tools], lambda reply: proposal.check_flow(reply, START, Known()), lambda _step: None)
			print(f"  {name:<48} {found.model_calls} calls, {found.attempts} attempt(s), {found.status}")
			if found.status == "ok":
				calls_accepted.append(found.model_calls)
		print(f"  model calls per accepted proposal: {sum(calls_accepted) / len(calls_accepted):.2f} (mean of {len(calls_accepted)} accepted scenarios)")

		first_step, first_token = [], []
		for _ in range(runs + 3):
			llm.reset()
			llm.script(text(answer()))
			started = time.perf_counter()
			marks = {}

			def heard(step, marks=marks, started=started):
				marks.setdefault(step.step, time.perf_counter() - started)

			run_turn(request, [], lambda reply: proposal.check_flow(reply, START, Known()), heard)
			first_step.append(marks["reading"])
			first_token.append(marks["checking"])
		print(f"engine, {runs} turns: request -> first progress step {spread(first_step[3:], MICROSECONDS)}")
		print(f"                  request -> whole answer checked {spread(first_token[3:])}")


def site(site_name: str, runs: int) -> None:
	import frappe
	import requests

	frappe.init(site=site_name, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")
	from huf.ai.assistant import site_tools
	from tests.site import fixtures
	from tests.site.conftest import Web

	litellm = load_litellm()
	specs = [tool.spec() for tool in site_tools.tools()]
	tokens = litellm.token_counter(model="gpt-4o-mini", messages=prompts.flow_messages(REQUEST, big_canvas(200)), tools=specs)
	print(f"site: a 200-step canvas with the assistant's {len(specs)} tool definitions: {tokens:,} tokens")

	flow = "bench-assistant"
	with ScriptedLLM() as llm:
		llm.respond_with(lambda body: text(answer()))
		frappe.db.set_single_value("Agent Settings", "assistant_model", fixtures.model(fixtures.provider(llm)))
		if not frappe.db.exists("Flow Definition", flow):
			frappe.get_doc({"doctype": "Flow Definition", "flow_id": flow, "flow_name": "Assistant bench", "definition_json": json.dumps({**START, "id": flow})}).insert()
		frappe.db.commit()
		web = Web(site_name, workers=2)
		headers = web.token_headers("Administrator")
		firsts, wholes = [], []
		try:
			for number in range(runs + 3):
				turn = f"bench-{number}-{int(time.time() * 1000)}"
				seen = {}
				started = time.perf_counter()

				def follow(turn=turn, seen=seen, started=started):
					with requests.get(f"{web.base}/huf/stream/assistant/{turn}", headers=headers, stream=True, timeout=60) as stream:
						for line in stream.iter_lines():
							if line.startswith(b"event: progress"):
								seen.setdefault("first", time.perf_counter() - started)
							if line.startswith(b"event: status"):
								return

				reader = threading.Thread(target=follow)
				reader.start()
				posted = requests.post(f"{web.base}/api/method/huf.ai.assistant.api.propose_flow", json={"flow": flow, "request": REQUEST, "turn": turn}, headers=headers, timeout=60)
				wholes.append(time.perf_counter() - started)
				reader.join(30)
				assert posted.ok and "first" in seen, posted.text
				firsts.append(seen["first"])
		finally:
			web.stop()
			frappe.db.set_single_value("Agent Settings", "assistant_model", None)
			frappe.delete_doc("Flow Definition", flow, force=True)
			frappe.db.commit()
	print(f"site, {runs} turns (gunicorn 2 workers): POST -> first progress step on the stream {spread(firsts[3:])}")
	print(f"                                      POST -> answer {spread(wholes[3:])}")


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--runs", type=int, default=30)
	parser.add_argument("--site")
	args = parser.parse_args()
	sizes()
	engine(args.runs)
	if args.site:
		site(args.site, args.runs)


if __name__ == "__main__":
	main()
