"""Processes that run agents import LiteLLM when they start, before their first job or request
(huf/ai/run/worker.py), and no other bench command does."""

from __future__ import annotations

import os
import subprocess
import time

import frappe

from tests.site import fixtures
from tests.site.conftest import Web, _tree, bench_command, wait_for


def imported_litellm(site: str, *args: str) -> bool:
	"""Runs a bench command to its end; True when it imported LiteLLM (``-X importtime`` lists every import)."""
	command = bench_command(site, *args)
	command.insert(1, "-X")
	command.insert(2, "importtime")
	result = subprocess.run(command, capture_output=True, text=True, cwd=os.getcwd(), timeout=300)
	assert result.returncode == 0, result.stderr[-2000:]
	return any(line.rstrip().endswith("| litellm") for line in result.stderr.splitlines())


def answers(web: Web, llm, agent: str) -> None:
	"""A run through the web server answers with the scripted model's reply."""
	from tests.support.scripted_llm import text

	llm.respond_with(lambda body: text("warm"))
	response = web.post(
		"/api/method/huf.ai.agent.integration.run_agent_sync",
		{"agent_name": agent, "prompt": "hello", "now": 1, "channel_id": f"warm-{time.time_ns()}"},
		web.token_headers("Administrator"),
	)
	assert response.ok, response.text
	assert response.json()["message"]["status"] == "Success" and response.json()["message"]["response"] == "warm"


def test_frappes_worker_imports_litellm_before_its_first_job(site):
	assert imported_litellm(site, "worker", "--queue", "short", "--burst")


def test_other_commands_do_not_import_litellm_even_with_the_word_worker_in_them(site):
	assert not imported_litellm(site, "execute", "frappe.utils.cstr", "--args", "worker")


def test_web_workers_served_by_huf_wsgi_start_with_litellm_imported(site, llm):
	agent = fixtures.agent(llm, name="Warm Web Agent")
	web = Web(site, app="huf.wsgi:application", preload=True)
	try:
		def forked():  # the server answers once its first worker is up; the second may still be forking
			found = [p.pid for p in _tree(web.proc.pid) if p.pid != web.proc.pid]
			return found if len(found) == 2 else None

		workers = wait_for(forked, 30, 0.2, "both web workers")
		for pid in workers:  # LiteLLM's tokenizer library is mapped in before any run was asked for
			with open(f"/proc/{pid}/maps") as maps:
				assert "_tiktoken" in maps.read(), pid
		answers(web, llm, agent)
	finally:
		web.stop()
		frappe.db.rollback()


def test_a_stock_web_worker_warms_up_after_its_first_request_before_any_run(site, llm):
	"""Frappe's own app module, as ``bench setup supervisor`` and ``bench start`` serve it, without any
	configuration: the readiness ping (``/api/method/ping``) is the worker's only request, and then
	LiteLLM's tokenizer library is mapped into the worker although no run has asked for it."""
	agent = fixtures.agent(llm, name="Warm Stock Web Agent")
	runs_before = frappe.db.count("Agent Run")
	web = Web(site, workers=1, threads=1, app="frappe.app:application", preload=True)
	try:
		(worker,) = wait_for(lambda: [p.pid for p in _tree(web.proc.pid) if p.pid != web.proc.pid] or None, 30, 0.2, "the web worker")

		def mapped() -> bool:
			with open(f"/proc/{worker}/maps") as maps:
				return "_tiktoken" in maps.read()

		wait_for(mapped, 120, 0.2, "LiteLLM in the web worker")  # no run asked for it: the first request did
		frappe.db.rollback()
		assert frappe.db.count("Agent Run") == runs_before
		answers(web, llm, agent)
	finally:
		web.stop()
		frappe.db.rollback()



def test_frappes_worker_runs_huf_run_jobs_in_its_own_process_and_forks_every_other_job(site, llm, workers):
	"""Stock ``bench worker``: a run's job runs in the worker's warm process (its in-flight entry
	names the worker's pid), while any other job still gets a forked work horse of its own."""
	import json

	from huf.ai.agent.integration import get_agent_run_status, run_agent_sync
	from huf.ai.run.inflight import INFLIGHT
	from tests.support.scripted_llm import hang, text

	agent = fixtures.agent(llm, name="In Place Agent")
	llm.script(hang(2, then=text("done")))
	run = run_agent_sync(agent, "hello")
	frappe.db.commit()
	workers.start(1, "worker")
	worker = workers.procs[0].pid
	field = f"{site}|conversation|{run['conversation']}"
	entry = wait_for(lambda: frappe.cache.execute_command("HGET", INFLIGHT, field), 120, 0.05, "the run's in-flight entry")
	assert json.loads(entry)["pid"] == worker
	assert [p.pid for p in _tree(worker)] == [worker]  # no work horse: the worker runs it itself

	wait_for(lambda: get_agent_run_status(run["run"])["status"] in ("Success", "Failed"), 60, 0.1, "the run to end")
	final = get_agent_run_status(run["run"])
	assert final["status"] == "Success" and final["response"] == "done"

	frappe.enqueue("frappe.utils.background_jobs.test_job", queue="long", s=3)
	horses = wait_for(lambda: [p.pid for p in _tree(worker) if p.pid != worker] or None, 30, 0.05, "a work horse")
	assert len(horses) == 1


def test_a_run_that_comes_while_a_stock_web_worker_warms_up_is_run_by_a_warm_worker(site, llm, workers):
	"""A fresh ``frappe.app`` web worker whose first requests are the readiness ping and at once an
	inline run: the web worker is still loading the AI libraries, so the run goes to the warm stock
	``bench worker`` (its in-flight entry names the worker's pid), and the request answers with it."""
	import json
	import threading

	from huf.ai.run.inflight import INFLIGHT
	from tests.support.scripted_llm import hang, text

	agent = fixtures.agent(llm, name="Handed Over Agent")
	llm.script(hang(1, then=text("from a warm worker")))
	workers.start(1, "worker")
	worker = workers.procs[0].pid
	wait_for(lambda: any(w.pid == worker for w in _rq_workers()), 120, 0.2, "the worker")
	web = Web(site, workers=1, threads=1, app="frappe.app:application", preload=True)
	answered: list = []
	try:
		headers = web.token_headers("Administrator")
		channel = f"cold-{time.time_ns()}"
		data = {"agent_name": agent, "prompt": "hello", "now": 1, "channel_id": channel}
		post = threading.Thread(
			target=lambda: answered.append(web.post("/api/method/huf.ai.agent.integration.run_agent_sync", data, headers))
		)
		post.start()
		conversation = wait_for(lambda: frappe.db.get_value("Agent Conversation", {"channel": channel}), 60, 0.05, "the conversation")
		field = f"{site}|conversation|{conversation}"
		entry = wait_for(lambda: frappe.cache.execute_command("HGET", INFLIGHT, field), 60, 0.02, "the run's in-flight entry")
		assert json.loads(entry)["pid"] == worker
		post.join(60)
		assert answered and answered[0].ok, answered and answered[0].text
		message = answered[0].json()["message"]
		assert message["status"] == "Success" and message["response"] == "from a warm worker"
	finally:
		web.stop()
		frappe.db.rollback()


def _rq_workers():
	from frappe.utils.background_jobs import get_redis_conn
	from rq import Worker

	return Worker.all(connection=get_redis_conn())
