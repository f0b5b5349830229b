"""Speech to text, without Frappe: the audio checked before any call, then LiteLLM's
``transcription`` or a configured endpoint (the OpenAI Settings / Groq Settings shape).

Checked first, in words: an empty file, a format the provider does not take (naming the ones it
does: nothing here converts audio), bytes that are not the audio their name says (a corrupt
file), and a file over the provider's limit (naming the limit)."""

from __future__ import annotations

import io
import json
import uuid
import wave
from dataclasses import dataclass

from huf.ai.engine import pinned, safe_http
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm_types import ModelSpec
from huf.ai.engine.media import MediaError, failure, model_name, route

TRANSCRIBE_TIMEOUT = 300.0
MB = 1024 * 1024
# What OpenAI's and Groq's transcription APIs take (an OpenAI-compatible server is held to the same).
OPENAI_FORMATS = ("flac", "mp3", "mp4", "mpeg", "mpga", "m4a", "ogg", "wav", "webm")
LIMITS = {"openai": 25 * MB, "groq": 25 * MB}
DEFAULT_LIMIT = 25 * MB
DEFAULT_STT_MODELS = {"openai": "whisper-1", "groq": "whisper-large-v3"}
MIME = {
	"flac": "audio/flac", "mp3": "audio/mpeg", "mp4": "audio/mp4", "mpeg": "audio/mpeg", "mpga": "audio/mpeg",
	"m4a": "audio/mp4", "ogg": "audio/ogg", "wav": "audio/wav", "webm": "audio/webm",
}  # fmt: skip


def default_model(provider: str | None, api_base: str | None = None) -> str | None:
	"""The provider's speech-to-text model when none is set (whisper-1 for OpenAI and any
	OpenAI-compatible server); None for a provider without one."""
	return DEFAULT_STT_MODELS.get(route(ModelSpec(model="x", provider=provider, api_base=api_base)))


def limit_for(provider_route: str) -> int:
	return LIMITS.get(provider_route, DEFAULT_LIMIT)


def _extension(file_name: str) -> str:
	return file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""


def _looks_like(kind: str, data: bytes) -> bool:
	"""Do the bytes start the way a ``kind`` file does? (A WAV must also hold frames.)"""
	if kind == "wav":
		if not (data[:4] == b"RIFF" and data[8:12] == b"WAVE"):
			return False
		try:
			with wave.open(io.BytesIO(data)) as reader:
				return reader.getnframes() > 0
		except (wave.Error, EOFError):
			return False
	if kind in ("mp3", "mpeg", "mpga"):
		return data[:3] == b"ID3" or (len(data) > 1 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0)
	if kind == "ogg":
		return data[:4] == b"OggS"
	if kind == "flac":
		return data[:4] == b"fLaC"
	if kind == "webm":
		return data[:4] == b"\x1a\x45\xdf\xa3"
	if kind in ("mp4", "m4a"):
		return data[4:8] == b"ftyp"
	return True


def check_audio(file_name: str, data: bytes, provider_route: str = "openai") -> str:
	"""The file's format, when the provider can transcribe it; MediaError ("invalid") otherwise."""
	if not data:
		raise MediaError("invalid", f"{file_name} is empty (0 bytes): there is no audio to transcribe. Record or attach it again.")
	kind = _extension(file_name)
	if kind not in OPENAI_FORMATS:
		raise MediaError(
			"invalid",
			f"{file_name} is not in a format the speech-to-text model takes. Use one of: {', '.join(OPENAI_FORMATS)}."
			" Convert the recording (for example to mp3 or wav) and try again.",
		)
	limit = limit_for(provider_route)
	if len(data) > limit:
		raise MediaError(
			"invalid",
			f"{file_name} is {len(data) / MB:.1f} MB; the speech-to-text provider takes files of up to {limit // MB} MB. "
			"Send a shorter recording or split it.",
		)
	if not _looks_like(kind, data):
		raise MediaError("invalid", f"{file_name} is not a readable {kind} file (it may be damaged or cut short). Record or attach it again.")
	return kind


def transcribe(spec: ModelSpec, file_name: str, data: bytes, language: str | None = None) -> str:
	"""The words spoken in the audio, by ``spec``'s speech-to-text model."""
	check_audio(file_name, data, route(spec))
	name = model_name(spec)
	try:
		response = load_litellm().transcription(
			model=name, file=(file_name, data, MIME[_extension(file_name)]), language=language or None,
			api_key=spec.api_key, api_base=spec.api_base, timeout=TRANSCRIBE_TIMEOUT, max_retries=0,
			client=pinned.client_for(name, spec.api_base, spec.api_key, spec.allowed_hosts, TRANSCRIBE_TIMEOUT),
		)  # fmt: skip
	except Exception as error:  # noqa: BLE001 - every provider failure becomes words
		raise failure(error, name, spec, "transcription") from None
	text = response.get("text") if isinstance(response, dict) else getattr(response, "text", None)
	return (text or "").strip()


@dataclass(frozen=True)
class Endpoint:
	"""A configured transcription endpoint (OpenAI Settings / Groq Settings)."""

	api_url: str
	api_key: str | None = None
	model: str | None = None
	method: str = "POST"
	auth_type: str = "Bearer"  # Bearer | API Key Header | None
	file_param: str = "file"
	response_path: str = "text"
	allowed_hosts: frozenset[str] = frozenset()
	provider: str = "openai"  # the LiteLLM route whose limits apply


def transcribe_at(endpoint: Endpoint, file_name: str, data: bytes, language: str | None = None) -> str:
	"""The words spoken in the audio, from a configured endpoint, through ``safe_http``: a multipart
	upload (the file in ``file_param``, ``model`` and ``language`` beside it), the text read at
	``response_path`` (dotted keys, e.g. "text" or "results.0.transcript")."""
	kind = check_audio(file_name, data, endpoint.provider)
	fields = {k: v for k, v in {"model": endpoint.model, "language": language}.items() if v}
	body, content_type = multipart(fields, endpoint.file_param or "file", file_name, data, MIME[kind])
	headers = {"Content-Type": content_type}
	sensitive: tuple[str, ...] = ()
	if endpoint.api_key and endpoint.auth_type == "Bearer":
		headers["Authorization"] = f"Bearer {endpoint.api_key}"
	elif endpoint.api_key and endpoint.auth_type == "API Key Header":
		headers["x-api-key"], sensitive = endpoint.api_key, ("x-api-key",)
	try:
		answer = safe_http.request(
			endpoint.method or "POST", endpoint.api_url, allow=endpoint.allowed_hosts, max_bytes=MB, headers=headers,
			sensitive=sensitive, content=body, timeout=120, deadline=TRANSCRIBE_TIMEOUT,
		)  # fmt: skip
	except safe_http.SafeHTTPError as error:
		raise MediaError("blocked" if error.kind == "refused" else "network", f"The transcription endpoint could not be reached: {error}") from None
	if answer.status in (401, 403):
		raise MediaError("auth", f"The transcription endpoint refused the API key ({answer.status}). Check the key in its settings.")
	if answer.status == 429:
		raise MediaError("rate_limit", "The transcription endpoint is rate limiting requests. Wait a moment and try again.")
	if answer.status >= 400:
		said = answer.body[:300].decode("utf-8", "replace")
		raise MediaError("bad_request" if answer.status < 500 else "server", f"The transcription endpoint answered {answer.status}: {said}")
	return _at_path(answer.body, endpoint.response_path or "text")


def _at_path(body: bytes, path: str) -> str:
	try:
		value = json.loads(body)
	except ValueError:
		return body.decode("utf-8", "replace").strip()  # a plain-text answer
	for key in [part for part in path.split(".") if part]:
		if isinstance(value, list) and key.isdigit() and int(key) < len(value):
			value = value[int(key)]
		elif isinstance(value, dict) and key in value:
			value = value[key]
		else:
			raise MediaError("bad_request", f"The transcription endpoint's answer has nothing at {path}; check the Response Path in its settings.")
	if not isinstance(value, str):
		raise MediaError("bad_request", f"The transcription endpoint's answer at {path} is not text; check the Response Path in its settings.")
	return value.strip()


def multipart(fields: dict, file_param: str, file_name: str, data: bytes, content_type: str) -> tuple[bytes, str]:
	"""A multipart/form-data body and its Content-Type."""
	boundary = uuid.uuid4().hex
	parts = [
		f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode() for name, value in fields.items()
	]
	safe_name = file_name.replace('"', "")
	parts.append(
		f'--{boundary}\r\nContent-Disposition: form-data; name="{file_param}"; filename="{safe_name}"\r\n'
		f"Content-Type: {content_type}\r\n\r\n".encode() + data + b"\r\n"
	)
	return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"
