"""What a node executor is given (``Hop``) and what it gives back (``Outcome``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from huf.ai.engine.flow.graph import Graph
from huf.ai.engine.flow.ports import Ports


@dataclass
class Hop:
	graph: Graph
	context: dict  # the run's context; executors read it and never change it in place
	ports: Ports
	loop: dict  # loop cursors by node id (a copy the loop executor may change)
	mode: str = "Normal"
	key: str = ""  # this piece of work's Idempotency-Key: the same when a dead worker's hop is run again


@dataclass
class Outcome:
	ok: bool
	output: Any = None
	error: str | None = None  # why the node failed, in words
	branch: str | None = None  # the outcome edges may be labelled with (true/false, approved/rejected)
	success_path: bool = True  # unlabelled edges are taken as after a success (False: as after a failure)
	fallback: bool = True  # unlabelled edges may be taken when no labelled one matches the branch
	edge: str | None = None  # an edge the node chose itself (router.llm)
	next_node_id: str | None = None  # loop: body or done node
	finished: bool = False  # end, or a loop done with no done node: the run succeeds
	waiting: dict | None = None  # human.approval
	agent_run: str | None = None
	updates: dict = field(default_factory=dict)  # keys the node sets at the top of the context


def failed(error: str, output: Any = None) -> Outcome:
	return Outcome(ok=False, output=output, error=error)
