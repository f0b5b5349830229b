"""A real OpenAI-compatible HTTP server whose answers the test scripts.

Why: the engine is tested through real LiteLLM speaking real HTTP, so the only thing faked is the
paid model behind the API. The server speaks Chat Completions (streamed as server-sent events in
chunked transfer encoding like the real providers, or as one JSON body), ``GET /v1/models`` and
``POST /v1/embeddings`` and ``POST /v1/ocr`` (Mistral's OCR API, answered with
``ocr_pages``), and images, speech and transcription (``scripted_media.py``), on 127.0.0.1 with a free port. Stdlib only, so site tests and benchmarks
can use it too.

Usage::

	with ScriptedLLM() as llm:
		llm.script(text("Hello", chunks=2), tool_calls([("call_1", "get_doc", '{"name": "x"}')]))
		... point a client at llm.base_url ...
		assert llm.requests[0]["headers"]["authorization"] == "Bearer sk-test"

Replies are consumed one per chat request, in order. A queued reply may also be a callable that
receives the request body and returns a reply; ``respond_with(fn)`` answers every request that
finds the queue empty. A chat request with nothing scripted gets HTTP 500 "ScriptedLLM: nothing
scripted for this request" (and is still recorded), so a test notices calls it did not expect
instead of passing on a silent default.

Prompt caching: a chat request carrying a cache marker (Anthropic's ``cache_control``, on a message
or one of its content blocks) is answered as a caching provider would. Each marked prefix of the
request (the tools and the messages up to a marker) is written to the server's cache; what the
request reads is the longest prefix already there, looked for at every message boundary up to 20
back from its last marker (Anthropic's look-back). Its usage then reports those tokens as
``prompt_tokens_details.cached_tokens``, what it wrote beyond them up to its last marker as
``cache_creation_input_tokens`` (when it wrote any), and at least the request's own token count
(``prompt_tokens``, about 4 characters a token) as prompt tokens, unless the reply scripts a
cached count of its own. ``requests[i]["usage"]`` is then (prompt, completion, cached, written). A request without a marker gets the usage scripted, as always.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator, Union

from tests.support import scripted_media

NOTHING_SCRIPTED = "ScriptedLLM: nothing scripted for this request"
LOOK_BACK = 20  # message boundaries searched for a cached prefix before a marker, as Anthropic does


@dataclass
class Reply:
	"""One scripted answer. Build it with the functions below rather than by hand."""

	content: str = ""
	chunks: list[str] | None = None  # text pieces as streamed; None: the whole content in one piece
	tool_calls: list[tuple[str, str, str]] = field(default_factory=list)  # (id, name, arguments JSON)
	usage: tuple[int, ...] | None = (10, 5, 0)  # (prompt, completion, cached[, cache writes]); None: send none
	delay: float = 0.0  # seconds between streamed chunks
	trickle: float = 0.0  # seconds between single bytes of the stream: never silent, never done
	status: int = 200
	body: Any = None  # error body: JSON-able, or text sent as is
	headers: dict = field(default_factory=dict)
	hang: float = 0.0  # seconds to wait before answering
	break_after: int | None = None  # drop the connection after this many text chunks
	finish_reason: str | None = None  # None: "tool_calls" when there are tool calls, else "stop"


Responder = Callable[[dict], Reply]
Scripted = Union[Reply, Responder]


def text(
	content: str,
	chunks: int | list[str] | None = None,
	usage: tuple[int, int, int] | None = (10, 5, 0),
	delay: float = 0.0,
) -> Reply:
	"""A text answer, streamed in ``chunks`` (a count, or the exact pieces)."""
	if isinstance(chunks, int):
		size = max(1, -(-len(content) // chunks))
		chunks = [content[i : i + size] for i in range(0, len(content), size)]
	elif chunks is not None and "".join(chunks) != content:
		content = "".join(chunks)
	return Reply(content=content, chunks=chunks, usage=usage, delay=delay)


def tool_calls(
	calls: list[tuple[str, str, str]],
	content: str = "",
	usage: tuple[int, int, int] | None = (10, 5, 0),
	delay: float = 0.0,
) -> Reply:
	"""Tool calls ``(id, name, arguments JSON text)`` in one assistant message, streamed as OpenAI does:
	per call, a first fragment with index, id, type, name and the start of the arguments, then
	fragments carrying only more of the arguments."""
	return Reply(content=content, tool_calls=list(calls), usage=usage, delay=delay)


def error(status: int, body: Any = None, headers: dict | None = None) -> Reply:
	"""An HTTP error: e.g. ``error(429, {...}, {"Retry-After": "2"})`` or ``error(401, MODEL_NOT_FOUND)``."""
	if body is None:
		body = {"error": {"message": f"Scripted error {status}", "type": "server_error" if status >= 500 else "invalid_request_error"}}
	return Reply(status=status, body=body, headers=dict(headers or {}))


def empty(usage: tuple[int, int, int] | None = (10, 0, 0)) -> Reply:
	"""A well-formed answer with no text and no tool calls."""
	return Reply(content="", chunks=[], usage=usage)


def hang(seconds: float, then: Reply | None = None) -> Reply:
	"""Wait ``seconds`` before answering (with ``then``, default the text "late"): for timeouts."""
	reply = then or text("late")
	reply.hang = seconds
	return reply


def trickled(content: str, seconds_per_byte: float) -> Reply:
	"""Stream ``content`` one byte at a time, headers at once: a server no read timeout catches."""
	return Reply(content=content, chunks=[content], trickle=seconds_per_byte)


def broken(content: str, after: int = 1) -> Reply:
	"""Stream ``content`` one character per chunk, drop the connection after ``after`` chunks."""
	return Reply(content=content, chunks=list(content), break_after=after)


# Common provider error bodies, as OpenAI sends them.
MODEL_NOT_FOUND = {
	"error": {"message": "The model `x` does not exist", "type": "invalid_request_error", "code": "model_not_found"}
}
CONTEXT_TOO_LONG = {
	"error": {
		"message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
		"type": "invalid_request_error",
		"code": "context_length_exceeded",
	}
}


class ScriptedLLM:
	"""The server. ``requests`` holds every POST as {"path", "body", "headers" (lower-case names)}."""

	def __init__(self, embedding_dim: int = 8, models: tuple[str, ...] = ("scripted-model",)):
		self.embedding_dim = embedding_dim
		self.embedding_failure: tuple[int, dict] | None = None  # (status, body) every embeddings call answers with
		self.ocr_pages: list[str] = []  # the Markdown of each page of the document the OCR route reads
		self.ocr_failure: tuple[int, dict] | None = None  # (status, body) every OCR call answers with
		self.models = models
		self.image_reply: str | tuple[int, dict] = "b64"  # "b64", "url", "empty" or (status, body): see scripted_media
		self.transcript = "scripted transcript"  # what every transcription answers
		self.transcription_failure: tuple[int, dict] | None = None
		self.speech_failure: tuple[int, dict] | None = None
		self.requests: list[dict] = []  # a marked chat request also gets "usage": the usage reported
		self.prompt_cache: set[str] = set()  # the prefixes marked requests wrote (see the module's doc)
		self._queue: list[Scripted] = []
		self._responder: Responder | None = None
		self._lock = threading.Lock()
		self._server: ThreadingHTTPServer | None = None
		self._thread: threading.Thread | None = None

	# lifecycle -----------------------------------------------------------------------------------

	def start(self) -> "ScriptedLLM":
		if self._server is None:
			self._server = _Server(("127.0.0.1", 0), _handler(self))
			self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-llm", daemon=True)
			self._thread.start()
		return self

	def stop(self) -> None:
		if self._server is not None:
			self._server.shutdown()
			self._server.server_close()
			self._server = None

	def __enter__(self) -> "ScriptedLLM":
		return self.start()

	def __exit__(self, *exc) -> None:
		self.stop()

	@property
	def base_url(self) -> str:
		if self._server is None:
			raise RuntimeError("ScriptedLLM is not started")
		return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

	# scripting -----------------------------------------------------------------------------------

	def script(self, *replies: Scripted) -> None:
		"""Queue replies (or callables body -> Reply), consumed one per chat request."""
		with self._lock:
			self._queue.extend(replies)

	def respond_with(self, responder: Responder | None) -> None:
		"""Answer requests that find the queue empty with ``responder(body)``."""
		self._responder = responder

	def reset(self) -> None:
		with self._lock:
			self._queue.clear()
			self.requests.clear()
			self._responder = None
			self.prompt_cache.clear()
			self.embedding_failure = None
			self.ocr_pages, self.ocr_failure = [], None
			self.image_reply, self.transcript = "b64", "scripted transcript"
			self.transcription_failure = self.speech_failure = None

	@property
	def pending(self) -> int:
		"""Replies scripted but not consumed yet."""
		return len(self._queue)

	@property
	def chat_requests(self) -> list[dict]:
		return [r for r in self.requests if r["path"].endswith("/chat/completions")]

	def _cached(self, body: dict, reply: Reply, entry: dict) -> Reply:
		"""``reply`` with the usage of a marked request (see the module's doc); others unchanged."""
		messages = body.get("messages") or []
		marks = [i for i, message in enumerate(messages) if _is_marked(message)]
		if not marks:
			return reply
		keys = [_prefix_key(body, end) for end in range(len(messages))]
		with self._lock:
			hit = next((end for end in range(marks[-1], max(-1, marks[-1] - LOOK_BACK), -1) if keys[end] in self.prompt_cache), None)
			self.prompt_cache.update(keys[end] for end in marks)
		if reply.usage is not None and not reply.usage[2]:
			prompt, completion = reply.usage[:2]
			cached = 0 if hit is None else prompt_tokens(body, hit + 1)
			written = 0 if hit == marks[-1] else prompt_tokens(body, marks[-1] + 1) - cached  # the new part, to the last marker
			reply = dataclasses.replace(reply, usage=(max(prompt, prompt_tokens(body)), completion, cached, written))
		entry["usage"] = reply.usage
		return reply

	def _next_reply(self, body: dict) -> Reply | None:
		with self._lock:
			scripted = self._queue.pop(0) if self._queue else self._responder
		if scripted is None:
			return None
		return scripted(body) if callable(scripted) else scripted


class _Server(ThreadingHTTPServer):
	daemon_threads = True

	def handle_error(self, request, client_address) -> None:
		"""A client that hung up (a timeout or cancel test) is expected here, not a failure."""
		import sys

		if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)):
			super().handle_error(request, client_address)


def _handler(llm: ScriptedLLM) -> type[BaseHTTPRequestHandler]:
	class Handler(BaseHTTPRequestHandler):
		protocol_version = "HTTP/1.1"

		def log_message(self, *args) -> None:
			pass

		def do_GET(self) -> None:
			if scripted_media.handle_get(self, self.path):
				return
			if self.path.rstrip("/").endswith("/models"):
				data = [{"id": m, "object": "model", "created": 0, "owned_by": "scripted"} for m in llm.models]
				return self._json(200, {"object": "list", "data": data})
			self._json(404, {"error": {"message": f"No route {self.path}", "type": "invalid_request_error"}})

		def do_POST(self) -> None:
			length = int(self.headers.get("Content-Length") or 0)
			raw = self.rfile.read(length) if length else b""
			headers = {k.lower(): v for k, v in self.headers.items()}
			if scripted_media.handle_post(llm, self, self.path, raw, headers):
				return
			try:
				body = json.loads(raw or b"{}")
			except ValueError:
				return self._json(400, {"error": {"message": "Body is not JSON", "type": "invalid_request_error"}})
			entry = {"path": self.path, "body": body, "headers": headers}
			llm.requests.append(entry)
			if self.path.rstrip("/").endswith("/embeddings"):
				if llm.embedding_failure:
					return self._json(*llm.embedding_failure)
				return self._json(200, _embeddings(body, llm.embedding_dim))
			if self.path.rstrip("/").endswith("/ocr"):
				return self._json(*(llm.ocr_failure or (200, _ocr(body, llm.ocr_pages))))
			if not self.path.rstrip("/").endswith("/chat/completions"):
				return self._json(404, {"error": {"message": f"No route {self.path}", "type": "invalid_request_error"}})
			reply = llm._next_reply(body)
			if reply is None:
				return self._json(500, {"error": {"message": NOTHING_SCRIPTED, "type": "server_error"}})
			if reply.hang:
				time.sleep(reply.hang)
			if reply.status != 200:
				return self._json(reply.status, reply.body, reply.headers)
			reply = llm._cached(body, reply, entry)
			if body.get("stream"):
				return self._stream(body, reply)
			self._json(200, _completion(body, reply), reply.headers)

		def _json(self, status: int, payload: Any, headers: dict | None = None) -> None:
			is_text = isinstance(payload, str)
			data = (payload if is_text else json.dumps(payload)).encode()
			self.send_response(status)
			self.send_header("Content-Type", "text/plain" if is_text else "application/json")
			self.send_header("Content-Length", str(len(data)))
			for key, value in (headers or {}).items():
				self.send_header(key, str(value))
			self.end_headers()
			self.wfile.write(data)

		def _stream(self, body: dict, reply: Reply) -> None:
			"""Server-sent events in chunked transfer encoding, as the real APIs send them."""
			self.send_response(200)
			self.send_header("Content-Type", "text/event-stream")
			self.send_header("Cache-Control", "no-cache")
			self.send_header("Transfer-Encoding", "chunked")
			self.send_header("Connection", "close")
			for key, value in reply.headers.items():
				self.send_header(key, str(value))
			self.end_headers()
			self.close_connection = True
			text_chunks = 0
			for event in _events(body, reply):
				if reply.break_after is not None and text_chunks >= reply.break_after and _has_text(event):
					# Mid-message, mid-chunk: the client sees a truncated body, as with a dropped link.
					self.wfile.write(b"40\r\ndata: {")
					self.wfile.flush()
					self.connection.shutdown(2)
					return
				text_chunks += _has_text(event)
				self._chunk(f"data: {json.dumps(event)}\n\n".encode(), reply.trickle)
				if reply.delay:
					time.sleep(reply.delay)
			self._chunk(b"data: [DONE]\n\n")
			self.wfile.write(b"0\r\n\r\n")
			self.wfile.flush()

		def _chunk(self, data: bytes, trickle: float = 0.0) -> None:
			frame = b"%x\r\n%s\r\n" % (len(data), data)
			for piece in [frame[i : i + 1] for i in range(len(frame))] if trickle else [frame]:
				self.wfile.write(piece)
				self.wfile.flush()
				if trickle:
					time.sleep(trickle)

	return Handler


# --- prompt caching ---------------------------------------------------------------------------


def _is_marked(message: dict) -> bool:
	if isinstance(message.get("cache_control"), dict):
		return True
	content = message.get("content")
	return isinstance(content, list) and any(isinstance(b, dict) and isinstance(b.get("cache_control"), dict) for b in content)


def _plain(message: dict) -> dict:
	"""A message as its prefix is compared: markers left out, text blocks as one text."""
	content = message.get("content")
	if isinstance(content, list):
		content = [{k: v for k, v in b.items() if k != "cache_control"} if isinstance(b, dict) else b for b in content]
		if all(isinstance(b, dict) and b.get("type") == "text" for b in content):
			content = "".join(b.get("text") or "" for b in content)
	return {k: v for k, v in dict(message, content=content).items() if k != "cache_control"}


def _prefix_key(body: dict, end: int) -> str:
	"""The tools and the messages up to ``end`` (inclusive), as one hash."""
	prefix = {"model": body.get("model"), "tools": body.get("tools"), "messages": [_plain(m) for m in body["messages"][: end + 1]]}
	return hashlib.sha256(json.dumps(prefix, sort_keys=True).encode()).hexdigest()


def prompt_tokens(body: dict, messages: int | None = None) -> int:
	"""The tokens of the tools and the first ``messages`` messages (all: None), about 4 characters
	a token plus 4 a message: a stand-in for a tokenizer, the same for the same text."""
	text = json.dumps(body.get("tools") or "") if body.get("tools") else ""
	chosen = body.get("messages", [])[:messages]
	count = 0
	for message in chosen:
		plain = _plain(message)
		content = plain.get("content")
		count += 4 + -(-len(content if isinstance(content, str) else json.dumps(content or "")) // 4)
		if plain.get("tool_calls"):
			count += -(-len(json.dumps(plain["tool_calls"])) // 4)
	return count + -(-len(text) // 4)


# --- OpenAI wire shapes ------------------------------------------------------------------------


def _usage(reply: Reply) -> dict | None:
	if reply.usage is None:
		return None
	prompt, completion, cached, *written = reply.usage
	usage = {
		"prompt_tokens": prompt,
		"completion_tokens": completion,
		"total_tokens": prompt + completion,
		"prompt_tokens_details": {"cached_tokens": cached},
	}
	if written and written[0]:  # as Anthropic's usage (and LiteLLM's for it) says what was written to the cache
		usage["cache_creation_input_tokens"] = written[0]
	return usage


def _finish_reason(reply: Reply) -> str:
	return reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")


def _header(body: dict, kind: str) -> dict:
	return {"id": "chatcmpl-" + uuid.uuid4().hex[:12], "object": kind, "created": int(time.time()), "model": body.get("model", "scripted")}


def _has_text(event: dict) -> bool:
	return any(c.get("delta", {}).get("content") for c in event.get("choices", []))


def _fragments(arguments: str, parts: int = 3) -> list[str]:
	size = max(1, -(-len(arguments) // parts))
	return [arguments[i : i + size] for i in range(0, len(arguments), size)] or [""]


def _events(body: dict, reply: Reply) -> Iterator[dict]:
	"""The chunk objects of one streamed answer, final usage chunk included when asked for."""
	head = _header(body, "chat.completion.chunk")

	def chunk(delta: dict, finish: str | None = None) -> dict:
		return dict(head, choices=[{"index": 0, "delta": delta, "finish_reason": finish}])

	yield chunk({"role": "assistant", "content": ""})
	pieces = reply.chunks if reply.chunks is not None else ([reply.content] if reply.content else [])
	for piece in pieces:
		yield chunk({"content": piece})
	for index, (call_id, name, arguments) in enumerate(reply.tool_calls):
		first, *rest = _fragments(arguments)
		function = {"name": name, "arguments": first}
		yield chunk({"tool_calls": [{"index": index, "id": call_id, "type": "function", "function": function}]})
		for fragment in rest:
			yield chunk({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]})
	yield chunk({}, _finish_reason(reply))
	usage = _usage(reply)
	if usage and (body.get("stream_options") or {}).get("include_usage"):
		yield dict(head, choices=[], usage=usage)


def _completion(body: dict, reply: Reply) -> dict:
	message: dict = {"role": "assistant", "content": reply.content or None}
	if reply.tool_calls:
		message["tool_calls"] = [{"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in reply.tool_calls]
	result = dict(_header(body, "chat.completion"), choices=[{"index": 0, "message": message, "finish_reason": _finish_reason(reply)}])
	usage = _usage(reply)
	if usage:
		result["usage"] = usage
	return result


def _embeddings(body: dict, dim: int) -> dict:
	inputs = body.get("input")
	inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
	data = [{"object": "embedding", "index": i, "embedding": embed(str(t), dim)} for i, t in enumerate(inputs)]
	tokens = sum(len(_words(str(t))) for t in inputs)
	return {"object": "list", "data": data, "model": body.get("model"), "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}


def _ocr(body: dict, pages: list[str]) -> dict:
	"""Mistral's OCR response: the pages asked for (0-based), or all of them."""
	wanted = body.get("pages") or range(len(pages))
	found = [{"index": i, "markdown": pages[i], "images": [], "dimensions": None} for i in wanted if i < len(pages)]
	return {"pages": found, "model": body.get("model"), "usage_info": {"pages_processed": len(found)}}


def _words(text: str) -> list[str]:
	return re.findall(r"\w+", text.lower())


def embed(text: str, dim: int = 8) -> list[float]:
	"""Deterministic unit vector: the sum of one hash-seeded vector per word, normalised.

	Texts that share words point the same way, so retrieval tests can expect the overlapping
	document to rank first; the same text always gives the same vector."""
	total = [0.0] * dim
	for word in _words(text) or [""]:
		digest = b""
		counter = 0
		while len(digest) < dim:
			digest += hashlib.sha256(f"{counter}:{word}".encode()).digest()
			counter += 1
		for i in range(dim):
			total[i] += (digest[i] - 127.5) / 127.5
	norm = math.sqrt(sum(v * v for v in total)) or 1.0
	return [round(v / norm, 6) for v in total]
