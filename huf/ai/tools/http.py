"""GET and POST tools: an Agent Tool Function as the engine's ``HttpTool`` (engine/http_tool.py says
where a model may aim it and what it reads). Header values are read from their Password field on
every call and go nowhere but the request to the tool's Base URL. A POST carries the call's
``Idempotency-Key`` (from its run and tool call), the same when the call is repeated."""

from __future__ import annotations

import json
import uuid

from huf.ai.engine import http_tool
from huf.ai.engine.effects import idempotency_key
from huf.ai.engine.tools import Tool
from huf.ai.outbound import allowed_hosts
from huf.ai.tools.context import RunContext


def http_tool_of(doc) -> http_tool.HttpTool:
	headers = tuple((row.key, row.get_password("value", raise_exception=False) or "") for row in doc.get("http_headers") or ())
	return http_tool.HttpTool(doc.tool_name, doc.types, doc.base_url or None, headers)


def call(doc, args: dict, ctx: RunContext) -> dict:
	"""The model's call: the answer, or a ToolError (also for a 4xx/5xx answer)."""
	key = http_tool.request_key(ctx.run, ctx.tool_call_id, args)
	return http_tool.run(http_tool_of(doc), args, allowed_hosts(), key=key)


def try_request(doc, args: dict) -> dict:
	"""The same request for the "Try this request" button: always an answer, ``error`` in words when it
	failed. Each press is a request of its own: a POST carries a new ``Idempotency-Key``."""
	try:
		definition = doc.function_definition or "{}"
		definition = json.loads(definition) if isinstance(definition, str) else definition
		Tool(doc.tool_name, "", definition.get("parameters") or {}, None).validate(args)  # as a model's arguments are
		answer = http_tool.send(http_tool_of(doc), args, allowed_hosts(), key=idempotency_key("try", uuid.uuid4().hex[:12]))
	except http_tool.ToolError as error:
		return {"success": False, "status_code": None, "headers": {}, "data": None, "final_url": None, "error": str(error)}
	if not answer["success"]:
		answer["error"] = http_tool.failure(doc.types, answer)
	return answer
