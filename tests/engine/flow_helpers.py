"""Helpers for the flow engine's tests: definitions in a few lines, fake model/agent/tool ports (the
HTTP policy is real), and driving ``step`` until a run stops."""

from __future__ import annotations

from huf.ai.engine.flow.graph import parse
from huf.ai.engine.flow.ports import AgentResult, HttpPolicy
from huf.ai.engine.flow.step import RunState, StepResult, step


def node(node_id: str, type_: str, label: str | None = None, **config) -> dict:
	return {"id": node_id, "type": type_, "position": {"x": 0, "y": 0}, "data": {"label": label or node_id, "config": config}}


def edge(source: str, target: str, type_: str = "always", edge_id: str | None = None, **extra) -> dict:
	return {"id": edge_id or f"{source}-{target}", "source": source, "target": target, "type": type_, **extra}


def definition(nodes: list[dict], edges: list[dict], **extra) -> dict:
	return {"id": "flow", "schema_version": 1, "name": "Test flow", "nodes": nodes, "edges": edges, **extra}


class FakePorts:
	"""Agents, tools and the model answer from scripts; every call is recorded."""

	def __init__(self, answers: list[str] | None = None, agents: dict | None = None, tools: dict | None = None, allow=frozenset()):
		self.answers, self.agents, self.tools = list(answers or []), agents or {}, tools or {}
		self.policy = HttpPolicy(allow=frozenset(allow), timeout=5, deadline=10)
		self.calls: list[tuple] = []

	def run_agent(self, agent: str, prompt: str, node_id: str) -> AgentResult:
		self.calls.append(("agent", agent, prompt, node_id))
		answer = self.agents[agent]
		return answer(prompt) if callable(answer) else answer

	def call_tool(self, tool: str, arguments: dict):
		self.calls.append(("tool", tool, arguments))
		return self.tools[tool](arguments)

	def complete(self, prompt: str, model: str | None) -> str:
		self.calls.append(("complete", prompt, model))
		return self.answers.pop(0)

	def http(self) -> HttpPolicy:
		return self.policy


def run(defn: dict, ports: FakePorts, trigger: dict | None = None, mode: str = "Normal", limit: int = 10_000, **context) -> tuple[list[StepResult], RunState]:
	"""Step a run from its entry until it stops (success, failed or waiting), as the hop jobs would."""
	graph = parse(defn)
	state = RunState(graph.entry, {"trigger": trigger or {}, "nodes": {}, **context}, 0, graph.max_hops, mode)
	results = []
	for _ in range(limit):
		result = step(graph, state, ports)
		results.append(result)
		if result.status != "continue":
			return results, state
		retrying = result.retry_in is not None
		state = RunState(result.next_node_id, result.context, state.hop_count + 1, state.max_hops, mode, state.attempt + 1 if retrying else 0, result.loop)
	raise AssertionError("the run did not stop")


class Known:
	"""What the builder assistant's checks ask of a site (``proposal.check_flow``): one agent
	(Qualifier) and one tool (create_todo) exist, and no tool asks before it runs."""

	def agent(self, name: str) -> bool:
		return name == "Qualifier"

	def tool(self, name: str) -> bool:
		return name == "create_todo"

	def asks_first(self, name: str) -> bool:
		return False
