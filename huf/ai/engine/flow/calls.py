"""Executors of the nodes that reach outside through the ports: ``agent.run``, ``tool.call``,
``http_request``. A port that raises is a node failure (``step`` catches everything).

- ``agent.run``: ``config.agent`` runs ``config.prompt`` rendered from the context; its output is
  the agent's answer (parsed as JSON when ``config.output_format`` is ``json``).
- ``tool.call``: ``config.tool`` with ``config.arguments`` interpolated (``"{{ trigger.lead }}"``
  alone keeps the record; text around placeholders is rendered).
- ``http_request``: ``config.method``, ``config.url``, ``config.headers`` and ``config.body``
  rendered from the context, sent with ``safe_http.request`` under the port's ``HttpPolicy``; a
  method that is not idempotent (POST, PATCH) carries ``Idempotency-Key: <the hop's key>`` unless the
  step sets that header itself;
  the output is ``http_tool.shape`` (success, status_code, headers, data, final_url; the body
  parsed when JSON, text cut at ``http_tool.BODY_CHARS``). A 4xx/5xx answer fails the node, its
  answer kept as the output. Header values are treated as secrets: dropped on a redirect to
  another host and hidden where a server echoes them."""

from __future__ import annotations

import json
import re

from huf.ai.engine import http_tool, safe_http
from huf.ai.engine.effects import IDEMPOTENCY_HEADER, IDEMPOTENT_METHODS
from huf.ai.engine.flow.expr import ExpressionError, interpolate, render
from huf.ai.engine.flow.graph import Node
from huf.ai.engine.flow.outcome import Hop, Outcome, failed
from huf.ai.engine.flow.ports import HttpPolicy

HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")
SECRET_HEADER = re.compile(r"auth|key|token|secret|cookie|password", re.IGNORECASE)


def agent_run(node: Node, hop: Hop) -> Outcome:
	try:
		prompt = render(node.config.get("prompt") or "", hop.context)
	except ExpressionError as error:
		return failed(f"Its prompt could not be filled in: {error}")
	result = hop.ports.run_agent(node.config.get("agent") or "", prompt, node.id)
	if not result.ok:
		return Outcome(ok=False, error=result.error or "The agent run failed.", agent_run=result.run)
	output = result.output
	if node.config.get("output_format") == "json":
		try:
			output = json.loads(output)
		except (TypeError, ValueError):
			return Outcome(ok=False, output=result.output, error="The agent was asked for JSON but its answer is not JSON.", agent_run=result.run)
	return Outcome(ok=True, output=output, agent_run=result.run)


def tool_call(node: Node, hop: Hop) -> Outcome:
	try:
		arguments = interpolate(node.config.get("arguments") or {}, hop.context)
	except ExpressionError as error:
		return failed(f"Its arguments could not be filled in: {error}")
	return Outcome(ok=True, output=hop.ports.call_tool(node.config.get("tool") or "", arguments))


def http_request(node: Node, hop: Hop) -> Outcome:
	config, policy = node.config, hop.ports.http() or HttpPolicy()
	method = str(config.get("method") or "GET").upper()
	try:
		url = render(config.get("url") or "", hop.context).strip()
		headers = {str(name): render(str(value), hop.context) for name, value in (config.get("headers") or {}).items()}
		body = interpolate(config.get("body"), hop.context)
	except ExpressionError as error:
		return failed(f"The request could not be filled in: {error}")
	payload = {"content": body.encode()} if isinstance(body, str) else {} if body is None else {"json": body}
	sent = dict(headers)
	if hop.key and method not in IDEMPOTENT_METHODS and not any(name.lower() == IDEMPOTENCY_HEADER.lower() for name in headers):
		sent[IDEMPOTENCY_HEADER] = hop.key  # a repeat of this step sends the same key (engine/effects.py)
	try:
		response = safe_http.request(
			method, url, allow=policy.allow, max_bytes=policy.max_bytes, headers=sent, sensitive=headers.keys(),
			timeout=policy.timeout, deadline=policy.deadline, **payload,
		)  # fmt: skip
	except safe_http.SafeHTTPError as error:
		return failed(str(error))
	secrets = http_tool._secrets(value for name, value in headers.items() if SECRET_HEADER.search(name))
	answer = http_tool.shape(response, secrets)
	if not answer["success"]:
		return failed(http_tool.failure(method, answer), output=answer)
	return Outcome(ok=True, output=answer)
