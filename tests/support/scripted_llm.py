"""A real OpenAI-compatible HTTP server whose answers the test scripts.

It speaks the Chat Completions API (streamed as server-sent events, or as one JSON body), the
models list and embeddings, on 127.0.0.1 with a free port. Tests, site tests and benchmarks queue
replies with ``script(...)`` (consumed one per request) or set ``respond_with(fn)`` to answer from
the request. A request with nothing scripted gets HTTP 500 "nothing scripted", so a test notices
calls it did not expect.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Reply:
	content: str = ""
	chunks: list[str] | None = None
	tool_calls: list[tuple[str, str, str]] = field(default_factory=list)
	usage: tuple[int, int, int] = (10, 5, 0)
	delay: float = 0.0  # between chunks
	status: int = 200
	body: Any = None  # error body
	headers: dict = field(default_factory=dict)
	hang: float = 0.0  # before answering
	break_after: int | None = None  # drop the connection after this many chunks


def text(content: str, chunks: int | list[str] | None = None, usage=(10, 5, 0), delay: float = 0.0) -> Reply:
	if isinstance(chunks, int):
		size = max(1, -(-len(content) // chunks))
		chunks = [content[i : i + size] for i in range(0, len(content), size)]
	return Reply(content=content, chunks=chunks, usage=usage, delay=delay)


def tool_calls(calls: list[tuple[str, str, str]], content: str = "", usage=(10, 5, 0), delay: float = 0.0) -> Reply:
	"""calls: (id, name, arguments JSON text); streamed in fragments like OpenAI does."""
	return Reply(content=content, tool_calls=list(calls), usage=usage, delay=delay)


def error(status: int, body: Any, headers: dict | None = None) -> Reply:
	return Reply(status=status, body=body, headers=headers or {})


def empty() -> Reply:
	return Reply(content="", chunks=[])


def hang(seconds: float) -> Reply:
	return Reply(content="late", hang=seconds)


def broken(content: str, after: int = 1) -> Reply:
	"""Sends ``after`` text chunks, then drops the connection."""
	return Reply(content=content, chunks=list(content), break_after=after)


class ScriptedLLM:
	def __init__(self, embedding_dim: int = 8):
		self.embedding_dim = embedding_dim
		self.requests: list[dict] = []
		self._queue: list[Reply] = []
		self._responder: Callable[[dict], Reply] | None = None
		self._lock = threading.Lock()
		self._server: ThreadingHTTPServer | None = None

	# lifecycle
	def start(self) -> "ScriptedLLM":
		server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
		server.daemon_threads = True
		self._server = server
		threading.Thread(target=server.serve_forever, daemon=True).start()
		return self

	def stop(self) -> None:
		if self._server:
			self._server.shutdown()
			self._server.server_close()

	def __enter__(self) -> "ScriptedLLM":
		return self.start()

	def __exit__(self, *exc) -> None:
		self.stop()

	@property
	def base_url(self) -> str:
		return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

	# scripting
	def script(self, *replies: Reply) -> None:
		with self._lock:
			self._queue.extend(replies)

	def respond_with(self, responder: Callable[[dict], Reply] | None) -> None:
		self._responder = responder

	def reset(self) -> None:
		with self._lock:
			self._queue.clear()
			self.requests.clear()
			self._responder = None

	def next_reply(self, body: dict) -> Reply | None:
		with self._lock:
			if self._queue:
				return self._queue.pop(0)
		return self._responder(body) if self._responder else None


def _handler(llm: ScriptedLLM):
	class Handler(BaseHTTPRequestHandler):
		protocol_version = "HTTP/1.1"

		def log_message(self, *args) -> None:  # quiet
			pass

		def do_GET(self) -> None:
			if self.path.rstrip("/").endswith("/models"):
				self._json(200, {"object": "list", "data": [{"id": "scripted-model", "object": "model"}]})
			else:
				self._json(404, {"error": {"message": "not found"}})

		def do_POST(self) -> None:
			length = int(self.headers.get("Content-Length") or 0)
			body = json.loads(self.rfile.read(length) or b"{}")
			llm.requests.append({"path": self.path, "body": body, "headers": dict(self.headers)})
			if self.path.endswith("/embeddings"):
				return self._embeddings(body)
			reply = llm.next_reply(body)
			if reply is None:
				return self._json(500, {"error": {"message": "nothing scripted for this request", "type": "server_error"}})
			if reply.hang:
				time.sleep(reply.hang)
			if reply.status != 200:
				return self._json(reply.status, reply.body, reply.headers)
			if body.get("stream"):
				return self._stream(body, reply)
			return self._json(200, _completion(body, reply))

		def _json(self, status: int, payload: Any, headers: dict | None = None) -> None:
			data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
			self.send_response(status)
			self.send_header("Content-Type", "application/json")
			self.send_header("Content-Length", str(len(data)))
			for key, value in (headers or {}).items():
				self.send_header(key, str(value))
			self.end_headers()
			self.wfile.write(data)

		def _stream(self, body: dict, reply: Reply) -> None:
			self.send_response(200)
			self.send_header("Content-Type", "text/event-stream")
			self.send_header("Cache-Control", "no-cache")
			self.send_header("Connection", "close")
			self.end_headers()
			self.close_connection = True
			for index, chunk in enumerate(_chunks(body, reply)):
				if reply.break_after is not None and index >= reply.break_after + 1:
					self.wfile.flush()
					self.connection.shutdown(2)
					return
				self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
				self.wfile.flush()
				if reply.delay:
					time.sleep(reply.delay)
			self.wfile.write(b"data: [DONE]\n\n")
			self.wfile.flush()

		def _embeddings(self, body: dict) -> None:
			inputs = body.get("input")
			inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
			data = [{"object": "embedding", "index": i, "embedding": _vector(t, llm.embedding_dim)} for i, t in enumerate(inputs)]
			usage = {"prompt_tokens": sum(len(str(t).split()) for t in inputs), "total_tokens": 0}
			self._json(200, {"object": "list", "data": data, "model": body.get("model"), "usage": usage})

	return Handler


def _usage(reply: Reply) -> dict:
	prompt, completion, cached = reply.usage
	return {
		"prompt_tokens": prompt,
		"completion_tokens": completion,
		"total_tokens": prompt + completion,
		"prompt_tokens_details": {"cached_tokens": cached},
	}


def _base(body: dict) -> dict:
	return {"id": "chatcmpl-" + uuid.uuid4().hex[:12], "created": int(time.time()), "model": body.get("model", "scripted")}


def _chunks(body: dict, reply: Reply):
	base = dict(_base(body), object="chat.completion.chunk")

	def chunk(delta: dict, finish: str | None = None) -> dict:
		return dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": finish}])

	yield chunk({"role": "assistant", "content": ""})
	pieces = reply.chunks if reply.chunks is not None else ([reply.content] if reply.content else [])
	for piece in pieces:
		yield chunk({"content": piece})
	for index, (call_id, name, arguments) in enumerate(reply.tool_calls):
		half = len(arguments) // 2
		yield chunk({"tool_calls": [{"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": arguments[:half]}}]})
		yield chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments[half:]}}]})
	yield chunk({}, "tool_calls" if reply.tool_calls else "stop")
	if (body.get("stream_options") or {}).get("include_usage"):
		yield dict(base, choices=[], usage=_usage(reply))


def _completion(body: dict, reply: Reply) -> dict:
	message: dict = {"role": "assistant", "content": reply.content or None}
	if reply.tool_calls:
		message["tool_calls"] = [
			{"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in reply.tool_calls
		]
	finish = "tool_calls" if reply.tool_calls else "stop"
	return dict(_base(body), object="chat.completion", choices=[{"index": 0, "message": message, "finish_reason": finish}], usage=_usage(reply))


def _vector(text: Any, dim: int) -> list[float]:
	digest = hashlib.sha256(str(text).encode()).digest()
	return [round((digest[i % len(digest)] - 128) / 128, 6) for i in range(dim)]
