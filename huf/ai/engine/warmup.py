"""One real streamed completion through LiteLLM against a throwaway loopback server.

A process that forks a child per job (an RQ worker) calls this once, so every child inherits what a
first completion would otherwise do lazily, in each child again: import the HTTP transport, build
the pydantic schemas of the OpenAI and LiteLLM response types, fill Python's subclass caches. That
is about 0.25 s per job (measured in benchmarks/README.md). The server answers one text chunk, one
tool-call chunk and the usage, then stops; nothing leaves the machine.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNKS = [
	{"choices": [{"index": 0, "delta": {"role": "assistant", "content": "ok"}, "finish_reason": None}]},
	{
		"choices": [
			{
				"index": 0,
				"delta": {"tool_calls": [{"index": 0, "id": "w", "type": "function", "function": {"name": "w", "arguments": "{}"}}]},
				"finish_reason": "tool_calls",
			}
		]
	},
	{"choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}},
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
	server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
	thread = threading.Thread(target=server.serve_forever, daemon=True)
	thread.start()
	try:
		stream = litellm.completion(
			model="openai/warm-up",
			api_base=f"http://127.0.0.1:{server.server_address[1]}/v1",
			api_key="warm-up",
			messages=[{"role": "user", "content": "hi"}],
			tools=[{"type": "function", "function": {"name": "w", "parameters": {"type": "object", "properties": {}}}}],
			stream=True,
			stream_options={"include_usage": True},
		)
		for _chunk in stream:
			pass
	finally:
		server.shutdown()
		server.server_close()
