"""Real streamed completions through LiteLLM against a throwaway loopback server.

A process that forks a child per job (an RQ worker) calls this once, so every child inherits what a
first completion would otherwise do lazily, in each child again: import the HTTP transport, build
the pydantic schemas of the OpenAI and LiteLLM response types, fill Python's subclass caches. That
is about 0.25 s per job (measured in benchmarks/README.md). The server answers the chunk shapes
of ``CHUNKS``, then stops; nothing leaves the machine.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

def _choice(delta: dict, finish: str | None = None) -> dict:
	return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


# The shapes providers stream, each once: an empty first delta, text, a tool call in two pieces, an
# empty last delta with its finish reason, the usage with its details. Each shape the OpenAI SDK or
# LiteLLM parses for the first time costs a process time (a pydantic schema built, a subclass check
# over every pydantic model, 15-60 ms each).
CHUNKS = [
	_choice({"role": "assistant", "content": ""}),
	_choice({"content": "ok"}),
	_choice({"tool_calls": [{"index": 0, "id": "w", "type": "function", "function": {"name": "w", "arguments": "{"}}]}),
	_choice({"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}),
	_choice({}, "tool_calls"),
	{
		"choices": [],
		"usage": {
			"prompt_tokens": 1,
			"completion_tokens": 1,
			"total_tokens": 2,
			"prompt_tokens_details": {"cached_tokens": 0},
			"completion_tokens_details": {"reasoning_tokens": 0},
		},
	},
]


class _Handler(BaseHTTPRequestHandler):
	def log_message(self, *args) -> None:
		pass

	def do_POST(self) -> None:
		self.rfile.read(int(self.headers.get("Content-Length") or 0))
		self.send_response(200)
		self.send_header("Content-Type", "text/event-stream")
		self.end_headers()
		for chunk in CHUNKS:
			payload = {"id": "warm", "object": "chat.completion.chunk", "created": 0, "model": "warm-up", **chunk}
			self.wfile.write(f"data: {json.dumps(payload)}\n\n".encode())
		self.wfile.write(b"data: [DONE]\n\n")


def warm_up(litellm) -> None:
	"""Two streamed completions against the loopback server: one on LiteLLM's own HTTP client (a
	provider without an API Base) and one on a ``safe_http`` client, as ``pinned.py`` sends a call to a
	provider's own server (the OpenAI SDK's response parsing and Python's subclass caches on that path,
	and the certificate store, cost a forked job about 0.1 s more otherwise)."""
	from huf.ai.engine import safe_http

	server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
	thread = threading.Thread(target=server.serve_forever, daemon=True)
	thread.start()
	pinned = None
	try:
		from openai import OpenAI

		base = f"http://127.0.0.1:{server.server_address[1]}/v1"
		http = safe_http.client(frozenset({"127.0.0.1"}))  # not pinned's pool: no connection is left to a forked child
		pinned = OpenAI(api_key="warm-up", base_url=base, http_client=http, max_retries=0)
		for client in (None, pinned):
			stream = litellm.completion(
				model="openai/warm-up",
				api_base=base,
				api_key="warm-up",
				client=client,
				messages=[{"role": "user", "content": "hi"}],
				tools=[{"type": "function", "function": {"name": "w", "parameters": {"type": "object", "properties": {}}}}],
				stream=True,
				stream_options={"include_usage": True},
			)
			for _chunk in stream:
				pass
	finally:
		if pinned is not None:
			pinned.close()
		server.shutdown()
		server.server_close()
