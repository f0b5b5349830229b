"""HTTP tools (the GET and POST tool types): where a model may aim one, what is sent, what it reads.

Where a model may aim a tool (``target``):

- With a Base URL, the model's ``url`` is a path put after it (``/users/1`` under
  ``https://api.example.com/v1`` is ``https://api.example.com/v1/users/1``), or a full URL on the
  same scheme, host and port and under the same path. Anything else is refused as a tool error.
- Without a Base URL, any full http(s) URL; the SSRF-safe client (``safe_http``) then refuses
  every non-public address that is not on the site's allow-list, on every redirect hop too.
- Never: ``.`` or ``..`` path segments (also percent-encoded), a user name or password in the URL,
  another scheme.

Headers: the tool's own headers (their values are secrets) go only to its Base URL's origin. A
tool without a Base URL sends none (its form refuses them), and ``safe_http`` drops them on a
redirect to another host (they are passed as ``sensitive``). A header without a value (cleared when
the Base URL changed, or never stored) is not sent at all, not even its name. The model cannot set
headers. Secret values are replaced by ``[hidden]`` wherever a server echoes them back into what the
model reads. A request whose method is not idempotent (POST) carries an ``Idempotency-Key``
(``request_key``: ``huf-<run>-<call>``, the same when a call is repeated after a dead worker),
unless the tool's own headers set one.

What the model reads, which is also the "Try this request" answer (``send``): ``{success,
status_code, headers, data, final_url}`` — a few useful response headers, the body parsed when it
is JSON, text otherwise (at most ``BODY_CHARS`` characters), a description when it is binary.
Refusals, DNS, TLS, timeouts and bodies over ``READ_LIMIT`` raise ``ToolError`` in words; so does
a 4xx/5xx answer when the model called (``run``)."""

from __future__ import annotations

import hashlib
import http
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlencode, urlsplit

from huf.ai.engine import safe_http
from huf.ai.engine.effects import IDEMPOTENCY_HEADER, IDEMPOTENT_METHODS, idempotency_key
from huf.ai.engine.tools import ToolError

READ_LIMIT = 2 * 1024 * 1024  # bytes read from a server; a larger answer is a tool error
BODY_CHARS = 20_000  # characters of the body the model reads
TIMEOUT, DEADLINE = 30.0, 60.0  # seconds the server may stay silent / the whole request may take
SHOWN_HEADERS = ("content-type", "content-length", "content-disposition", "location", "retry-after", "etag", "last-modified", "link")
HIDDEN = "[hidden]"
_ABSOLUTE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
_JSON_TYPE = re.compile(r"^application/([\w.+-]+\+)?json$")
_TEXT_TYPES = ("text/", "application/xml", "application/javascript", "application/x-www-form-urlencoded")


@dataclass(frozen=True)
class HttpTool:
	name: str
	method: str  # "GET" or "POST"
	base_url: str | None = None
	headers: tuple[tuple[str, str], ...] = ()  # (name, secret value)


def parameters(method: str, base_url: str | None, fields: dict | None = None) -> dict:
	"""The JSON schema of a tool's arguments. ``fields`` (from the tool's Parameters rows) is the
	shape of the query parameters (GET) or of the JSON body (POST); free-form objects without it."""
	if base_url:
		url = {"type": "string", "description": f"Path after {base_url}, e.g. /items/42 (a full URL under it works too). Empty: {base_url} itself."}
	else:
		url = {"type": "string", "description": "The full web address, e.g. https://api.example.com/items/42."}
	query = {"type": "object", "description": 'Query string parameters, e.g. {"q": "shoes", "page": 2}.'}
	properties = {"url": url, "params": query}
	if method == "POST":
		properties["body"] = {"type": "object", "description": "The request body, sent as JSON (or as form fields, see body_format)."}
		properties["body_format"] = {"type": "string", "enum": ["json", "form"], "description": "json (the default) or form."}
	filled = "body" if method == "POST" else "params"
	if fields is not None:
		properties[filled] = dict(fields, description=properties[filled]["description"])
	required = [name for name, needed in (("url", not base_url), (filled, bool(fields and fields.get("required")))) if needed]
	return {"type": "object", "properties": properties, **({"required": required} if required else {})}


def base_problem(base_url: str) -> str | None:
	"""What is wrong with a Base URL (in words), or None."""
	parts = urlsplit(base_url)
	if parts.scheme not in ("http", "https") or not parts.hostname:
		return "must be a full address that starts with http:// or https://, e.g. https://api.example.com/v1."
	if parts.username is not None or parts.password is not None:
		return "must not hold a user name or password; put credentials in the HTTP Headers table instead."
	if parts.query or parts.fragment:
		return "must not have a query (?...) or fragment (#...); the model adds query parameters itself."
	if _dot_segments(parts.path):
		return "must not contain . or .. path segments."
	return None


def target(base_url: str | None, url: str | None) -> str:
	"""The address a call goes to; ToolError when the model aims it where this tool may not go."""
	url = (url or "").strip()
	if _ABSOLUTE.match(url):
		parts = urlsplit(url)
		if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
			raise ToolError(f"{url} is not a web address; use one that starts with https:// or http://.")
		if parts.username is not None or parts.password is not None:
			raise ToolError("A URL with a user name or password is not accepted; leave credentials out of the URL.")
		if base_url and not _under(base_url, url):
			raise ToolError(f"This tool only reaches addresses under {base_url}; give a path such as /items/42.")
		full = url
	elif base_url:
		full = base_url.rstrip("/") + ("/" + url.lstrip("/") if url else "")
	else:
		raise ToolError("Give the full web address, starting with https:// (this tool has no base address).")
	if _dot_segments(urlsplit(full).path):
		raise ToolError("The path must not contain . or .. segments; give the address as it is.")
	return full.split("#", 1)[0]


def _under(base_url: str, url: str) -> bool:
	base, aimed = urlsplit(base_url), urlsplit(url)
	if _origin(base) != _origin(aimed):
		return False
	prefix = base.path.rstrip("/")
	return not prefix or aimed.path == prefix or aimed.path.startswith(prefix + "/")


def _origin(parts) -> tuple[str, str, int]:
	scheme = parts.scheme.lower()
	return scheme, (parts.hostname or "").lower(), parts.port or (443 if scheme == "https" else 80)


def _dot_segments(path: str) -> bool:
	return any(segment in (".", "..") for segment in re.split(r"[/\\]", unquote(path)))


def request_key(run: str, call_id: str, args: dict) -> str:
	"""The ``Idempotency-Key`` of a call: ``huf-<run>-<call>``; without a call id, the run and a hash
	of the arguments (the same call repeated has the same arguments)."""
	if not call_id:
		call_id = hashlib.sha256(json.dumps(args, sort_keys=True, default=str).encode()).hexdigest()[:16]
	return idempotency_key(*(part for part in (run, call_id) if part))


def send(
	tool: HttpTool, args: dict, allow: frozenset[str], *, key: str = "", timeout: float = TIMEOUT, deadline: float = DEADLINE
) -> dict:
	"""Make the call ``args`` asks for and shape the answer; ToolError when it cannot be made.
	``key``: the ``Idempotency-Key`` a POST carries (a header of the tool's own by that name wins)."""
	url = target(tool.base_url, args.get("url"))
	query = _query(args.get("params"))
	if query:  # added to a query the URL has (httpx's params= would replace it)
		url += ("&" if urlsplit(url).query else "?") + urlencode(query, doseq=True)
	headers = present(tool.headers) if tool.base_url and _origin(urlsplit(url)) == _origin(urlsplit(tool.base_url)) else {}
	secrets = _secrets(headers.values())
	sensitive = tuple(headers)
	own_key = any(name.lower() == IDEMPOTENCY_HEADER.lower() for name in headers)
	if key and tool.method.upper() not in IDEMPOTENT_METHODS and not own_key:
		headers[IDEMPOTENCY_HEADER] = key  # not a secret: it follows redirects
	body: dict = {}
	if tool.method == "POST" and args.get("body") is not None:
		form = args.get("body_format") == "form"
		if form and not isinstance(args["body"], dict):
			raise ToolError("A form body must be an object of field names and values.")
		body = {"data": {name: _text(value) for name, value in args["body"].items()}} if form else {"json": args["body"]}
	try:
		response = safe_http.request(
			tool.method, url, allow=allow, max_bytes=READ_LIMIT, headers=headers, sensitive=sensitive,
			timeout=timeout, deadline=deadline, **body,
		)  # fmt: skip
	except safe_http.SafeHTTPError as error:
		raise ToolError(_redact(_advice(error), secrets)) from None
	return shape(response, secrets)


def present(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
	"""The headers that have a value: one whose value is empty is left out whole, name and all."""
	return {name: value for name, value in headers if (value or "").strip()}


def run(tool: HttpTool, args: dict, allow: frozenset[str], **options) -> dict:
	"""``send`` for a model: an answer with an error status is a tool error that shows the body."""
	answer = send(tool, args, allow, **options)
	if not answer["success"]:
		raise ToolError(failure(tool.method, answer))
	return answer


def shape(response: safe_http.Response, secrets: Iterable[str] = ()) -> dict:
	"""The reference's answer: success (status below 400), status_code, headers, data, final_url."""
	secrets = tuple(secrets)
	headers = {name: _redact(response.headers[name], secrets) for name in SHOWN_HEADERS if name in response.headers}
	headers.update({k: _redact(v, secrets) for k, v in response.headers.items() if "ratelimit" in k})
	return {
		"success": response.status < 400,
		"status_code": response.status,
		"headers": headers,
		"data": _data(response, secrets),
		"final_url": _redact(response.url, secrets),
	}


def _data(response: safe_http.Response, secrets: tuple[str, ...]):
	kind, raw = response.content_type, response.body
	if not raw:
		return ""
	charset = re.search(r"charset=([\w-]+)", response.headers.get("content-type", ""))
	textual = _JSON_TYPE.match(kind) or kind.startswith(_TEXT_TYPES)
	try:
		text = raw.decode(charset.group(1) if charset else "utf-8", errors="replace" if textual else "strict")
	except (UnicodeDecodeError, LookupError):
		text = None
	if text is None or (not textual and "\x00" in text):
		return f"[binary content: {len(raw):,} bytes of {kind or 'unknown type'}; not shown]"
	text = _redact(text, secrets)
	if len(text) > BODY_CHARS:
		return text[:BODY_CHARS] + f"\n[cut: the body has {len(text):,} characters; only the first {BODY_CHARS:,} are shown]"
	if _JSON_TYPE.match(kind):
		try:
			return json.loads(text)
		except ValueError:
			pass
	return text


def failure(method: str, answer: dict) -> str:
	"""An error answer in words: what the server said, and what to try."""
	status = answer["status_code"]
	try:
		phrase = http.HTTPStatus(status).phrase
	except ValueError:
		phrase = ""
	data = answer["data"] if isinstance(answer["data"], str) else json.dumps(answer["data"], ensure_ascii=False)
	hint = {
		401: "The server did not accept the credentials; an administrator should check the tool's HTTP Headers.",
		403: "The server refused access; an administrator should check the tool's HTTP Headers.",
		404: "Nothing was found at that address; check the path.",
		429: f"Too many requests; wait before trying again (Retry-After: {answer['headers'].get('retry-after', 'not given')}).",
	}.get(status, "The server failed; try again later." if status >= 500 else "Check the address and the parameters.")
	return f"{method} {answer['final_url']} answered {status} {phrase}. {hint} The server said: {data[:2000] or '(nothing)'}"


def _advice(error: safe_http.SafeHTTPError) -> str:
	more = {
		"too_large": f" Ask for less at once (a filter or a smaller page); at most {READ_LIMIT // (1024 * 1024)} MB is read.",
		"timeout": " Try again later, or ask for less at once.",
	}
	return str(error) + more.get(error.kind, "")


def _query(params) -> dict:
	if not params:
		return {}
	if not isinstance(params, dict):
		raise ToolError("params must be an object of names and values.")
	return {key: [_text(v) for v in value] if isinstance(value, list) else _text(value) for key, value in params.items() if value is not None}


def _text(value) -> str:
	if isinstance(value, bool):
		return "true" if value else "false"
	return value if isinstance(value, str) else json.dumps(value) if isinstance(value, (dict, list)) else str(value)


def _secrets(values: Iterable[str]) -> tuple[str, ...]:
	"""A header value, and its long parts (a token after "Bearer"): what a server may echo back."""
	found = set()
	for value in values:
		found.add(value)
		found.update(part for part in value.split() if len(part) >= 8)
	return tuple(sorted((s for s in found if len(s) >= 4), key=len, reverse=True))


def _redact(text: str, secrets: Iterable[str]) -> str:
	for secret in secrets:
		text = text.replace(secret, HIDDEN)
	return text
