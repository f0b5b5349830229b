"""Shared by the flow run site tests: a graph from short node/edge lists, saving it Active, running
it as a user and waiting for it to settle."""

from __future__ import annotations

import time

import frappe

from huf.ai.flow import api, approvals
from tests.site.conftest import as_user, make_user, wait_for

OWNER = "flow-owner@example.com"
OTHER = "flow-other@example.com"
APPROVER = "flow-approver@example.com"
SETTLED = ("Success", "Failed", "Waiting Approval")


def node(id: str, type: str, **config) -> dict:
	return {"id": id, "type": type, "data": {"label": id.title(), "config": config}}


def edge(source: str, target: str, type: str = "always", **extra) -> dict:
	return {"id": f"{source}-{target}", "source": source, "target": target, "type": type, **extra}


def save(flow_id: str, nodes: list[dict], edges: list[dict], **extra) -> str:
	if frappe.db.exists("Flow Definition", flow_id):
		frappe.db.delete("Flow Run Step", {"parent": ["in", frappe.get_all("Flow Run", {"flow_definition": flow_id}, pluck="name")]})
		frappe.db.delete("Flow Run", {"flow_definition": flow_id})
		frappe.db.delete("Flow Definition Version", {"flow_definition": flow_id})
		frappe.delete_doc("Flow Definition", flow_id, force=True)
	api.save_flow_definition(flow_id, {"schema_version": 1, "nodes": nodes, "edges": edges, **extra}, status="Active")
	frappe.db.commit()
	return flow_id


def users() -> None:
	make_user(OWNER, ["Huf User"])
	make_user(OTHER, ["Huf User"])
	make_user(APPROVER, ["Huf User"])


def start(flow_id: str, payload: dict | None = None, user: str = OWNER) -> str:
	with as_user(user):
		name = api.run_flow(flow_id, payload)["flow_run"]
	frappe.db.commit()
	return name


def settle(flow_run: str, timeout: float = 40.0, statuses=SETTLED) -> frappe._dict:
	wait_for(lambda: frappe.db.get_value("Flow Run", flow_run, "status") in statuses, timeout, 0.1, f"flow run {flow_run} to settle")
	return frappe.get_doc("Flow Run", flow_run)


def steps(flow_run: str) -> list[tuple[str, str]]:
	return [tuple(row) for row in frappe.get_all("Flow Run Step", {"parent": flow_run}, ["node_id", "status"], order_by="hop asc", as_list=True)]


def holder(workers, names: list[str]) -> int | None:
	"""The index of the worker whose process holds a step of one of ``names`` now (its in-flight
	entry names the process), if any."""
	import json

	import psutil

	from huf.ai.run import inflight
	held = set()
	for name in names:
		for kind, key in (("flow", name), ("conversation", frappe.db.get_value("Flow Run", name, "conversation"))):
			value = frappe.cache.execute_command("HGET", inflight.INFLIGHT, f"{frappe.local.site}|{kind}|{key}") if key else None
			if value and json.loads(value).get("pid"):
				held.add(json.loads(value)["pid"])
	for index, proc in enumerate(workers.procs):
		try:
			tree = {proc.pid, *(child.pid for child in psutil.Process(proc.pid).children(recursive=True))}
		except psutil.NoSuchProcess:
			continue
		if tree & held:
			return index
	return None


def killed_and_swept(workers, flow_run: str, seconds: float = 40) -> frappe._dict:
	"""SIGKILL the worker in the middle of ``flow_run``'s step, start another and do what the minute
	job does, every second, until the run moves on; then the settled run."""
	workers.kill(0)
	assert frappe.db.get_value("Flow Run", flow_run, "status") == "Running"
	workers.start(1)
	deadline = time.monotonic() + seconds
	while frappe.db.get_value("Flow Run", flow_run, "status") == "Running" and time.monotonic() < deadline:
		approvals.sweep()
		time.sleep(1)
	return settle(flow_run)
