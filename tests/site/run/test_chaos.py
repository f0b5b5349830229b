"""Chaos: workers SIGKILLed at 30 random moments while flows run, a second worker always alive.

Each run loops over its items; per item it creates a ToDo (a document tool: its insert is rolled
back with a dead worker's transaction, so the step simply runs again) and POSTs to a receiver that
honours Idempotency-Key (the step is marked so: it runs again with the same key); then an agent
answers (a model call, resumed; one Agent Run per flow however often its step is repeated, and
never killed a fourth time, which fails it by design: see ``at_resume_limit``). Every run must end Success, with every ToDo there exactly once and
every POST applied exactly once at the receiver; the figures are printed."""

from __future__ import annotations

import random
import time

import frappe

from huf.ai.run.resume import MAX_RESUMES
from tests.site import fixtures
from tests.site.flow_helpers import OWNER, edge, holder, node, save, settle, start, users
from tests.support.idempotent_http import IdempotentReceiver
from tests.support.scripted_llm import text

RUNS, ITEMS, KILLS = 4, 5, 30
ANSWER = "All items are done."


def chaos_flow(todo: str, agent: str, receiver: IdempotentReceiver) -> str:
	return save(
		"huf-test-chaos",
		[node("each", "loop", items="trigger.items", max_iterations=ITEMS),
		 node("todo", "tool.call", tool=todo, arguments={"data": {"description": "chaos {{ trigger.tag }} {{ item }}", "allocated_to": OWNER}}),
		 node("post", "http_request", method="POST", url=receiver.url(), body={"tag": "{{ trigger.tag }}", "item": "{{ item }}"}, idempotent=True),
		 node("answer", "agent.run", agent=agent, prompt="Sum up {{ trigger.tag }}"),
		 node("done", "end")],
		[edge("each", "todo", meta={"outcome": "body"}), edge("todo", "post"), edge("post", "each"),
		 edge("each", "answer", meta={"outcome": "done"}), edge("answer", "done")],
	)  # fmt: skip


def wait_until_ended(names: list[str], timeout: float) -> None:
	"""Until every run has ended. Nothing sweeps here: the workers' watchers alone hand on every
	step whose holder died and every hop job killed before it took its run's lock."""
	deadline = time.monotonic() + timeout
	while time.monotonic() < deadline:
		frappe.db.commit()
		if not frappe.db.count("Flow Run", {"name": ["in", names], "status": ["in", ("Queued", "Running")]}):
			return
		time.sleep(0.5)
	raise AssertionError("the runs did not end: a dead worker's work was not handed on")


def at_resume_limit(names: list[str]) -> bool:
	"""Whether more kills could end an agent run by design: a run whose worker died MAX_RESUMES + 1
	times is failed (it might be what kills them; test_resume.py shows that). The kills wait while a
	run has been resumed MAX_RESUMES - 1 times: one below the limit, because a kill can still land
	on it once after this check (its last death not yet handed on when checked, then resumed on the
	worker that is killed), and a kill that does leaves it at MAX_RESUMES, still going on."""
	frappe.db.commit()
	return bool(
		frappe.db.exists(
			"Agent Run", {"flow_run": ["in", names], "status": ["in", ("Queued", "Started")], "resumed_count": [">=", MAX_RESUMES - 1]}
		)
	)


def test_workers_killed_at_random_moments_lose_nothing_and_repeat_nothing(site, workers, llm, capsys):
	users()
	fixtures.allowed_hosts("127.0.0.1")
	todo = fixtures.tool("chaos_make_todo", "Create Document", "ToDo")
	agent = fixtures.agent(llm, name="Chaos Agent")
	llm.respond_with(lambda body: text(ANSWER, chunks=8, delay=0.1))  # an answer streamed over 0.8 s
	tags = [f"chaos-{frappe.generate_hash(length=6)}" for _ in range(RUNS)]
	frappe.db.delete("ToDo", {"description": ["like", "chaos %"]})
	frappe.db.commit()
	with IdempotentReceiver(work=(0.1, 0.4)) as receiver:
		flow = chaos_flow(todo, agent, receiver)
		workers.start(2)
		names = [start(flow, {"tag": tag, "items": list(range(ITEMS))}) for tag in tags]
		kills, deadline = 0, time.monotonic() + 300
		while kills < KILLS and time.monotonic() < deadline:
			frappe.db.commit()
			if not frappe.db.count("Flow Run", {"name": ["in", names], "status": ["in", ("Queued", "Running")]}):
				names.append(start(flow, {"tag": (tag := f"chaos-{frappe.generate_hash(length=6)}"), "items": list(range(ITEMS))}))
				tags.append(tag)  # more work for the kills still to come
				continue
			busy = holder(workers, names)
			if busy is None or at_resume_limit(names):
				time.sleep(0.02)
				continue
			time.sleep(random.uniform(0, 0.25))  # a random moment of the step (or just after it)
			workers.kill(busy)
			kills += 1
			workers.start(1)
			time.sleep(random.uniform(0, 1.5))
		wait_until_ended(names, timeout=120)
		runs = [settle(name, timeout=5, statuses=("Success", "Failed", "Needs Attention", "Cancelled")) for name in names]
	repeats = sum(frappe.get_all("Flow Run Step", {"parent": ["in", names]}, pluck="repeats"))
	agent_runs = frappe.get_all("Agent Run", {"flow_run": ["in", names]}, ["name", "status", "resumed_count"])
	resumed_agents = sum(row.resumed_count or 0 for row in agent_runs)
	attention = sum(run.status == "Needs Attention" for run in runs)
	with capsys.disabled():  # the figures, in every run's output
		print(
			f"\nchaos: {len(names)} runs, {kills} kills, {repeats} steps run again, {resumed_agents} agent runs resumed, "
			f"{attention} needed attention; receiver: {len(receiver.received)} requests, {len(receiver.applied)} applied"
		)
	assert kills == KILLS
	assert [(run.name, run.status) for run in runs] == [(run.name, "Success") for run in runs], [run.last_error for run in runs]
	for tag in tags:
		made = frappe.get_all("ToDo", {"description": ["like", f"chaos {tag} %"]}, pluck="description")
		assert sorted(made) == sorted(f"chaos {tag} {item}" for item in range(ITEMS)), tag  # each exactly once
		applied = sorted(body["item"] for body in receiver.applied.values() if body["tag"] == tag)
		assert applied == [str(item) for item in range(ITEMS)] or applied == list(range(ITEMS)), tag
	assert len(receiver.applied) == len(tags) * ITEMS  # one effect per key, however often it was sent
	assert [row.status for row in agent_runs if row.status != "Success"] == [] and len(agent_runs) == len(tags)
	for row in agent_runs:  # its conversation holds the question and the answer once each
		said = frappe.get_all("Agent Message", {"agent_run": row.name}, ["role", "content"])
		assert [m.role for m in said].count("user") == 1 and [m.content for m in said].count(ANSWER) == 1, said
