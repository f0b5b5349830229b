"""Images and speech through LiteLLM (``image_generation``, ``speech``), without Frappe.

- The key and base URL go to LiteLLM on every call, never through the environment (as in
  ``llm.py``); an OpenAI-compatible API Base is reached through ``safe_http`` (``pinned.py``).
- Size, quality and count are checked against what the image model takes before any call
  (``check_image_options``), naming the allowed values; a model not listed here is asked as is.
- Every failure is a ``MediaError`` whose ``kind`` says what happened (refused: the provider's
  content policy; no_image; auth; rate_limit; and the other kinds of ``llm_errors.classify``) and
  whose message a person or a model can act on. The key never appears in it.

Transcription is in ``audio.py``. The site saves what comes back as Files (``huf/ai/media.py``)."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from huf.ai.engine import pinned, safe_http
from huf.ai.engine.litellm_import import load_litellm
from huf.ai.engine.llm import normalize_model_name
from huf.ai.engine.llm_errors import classify, scrub
from huf.ai.engine.llm_types import ModelSpec

IMAGE_TIMEOUT = 180.0
SPEECH_TIMEOUT = 90.0
MAX_DOWNLOAD = 25 * 1024 * 1024  # an image the provider returns as a URL
MAX_SPEECH_CHARS = 4096  # OpenAI's limit on the text of one speech request
SPEECH_FORMATS = {"mp3": "audio/mpeg", "opus": "audio/ogg", "aac": "audio/aac", "flac": "audio/flac", "wav": "audio/wav", "pcm": "audio/L16"}


@dataclass(frozen=True)
class ImageRules:
	sizes: tuple[str, ...]
	qualities: tuple[str, ...]
	max_n: int


# What each image model takes (OpenAI's documentation); matched on the model's own name.
IMAGE_RULES = {
	"dall-e-3": ImageRules(("1024x1024", "1792x1024", "1024x1792"), ("standard", "hd"), 1),
	"dall-e-2": ImageRules(("256x256", "512x512", "1024x1024"), ("standard",), 10),
	"gpt-image-1": ImageRules(("1024x1024", "1536x1024", "1024x1536", "auto"), ("low", "medium", "high", "auto"), 10),
}
# A provider's model for a media call when the agent names none (by LiteLLM prefix).
DEFAULT_IMAGE_MODELS = {"openai": "dall-e-3", "gemini": "imagen-3.0-generate-002", "xai": "grok-2-image"}
DEFAULT_TTS_MODELS = {"openai": "tts-1", "elevenlabs": "eleven_multilingual_v2", "gemini": "gemini-2.5-flash-preview-tts"}
DEFAULT_VOICES = {"openai": "alloy", "elevenlabs": "21m00Tcm4TlvDq8ikWAM", "gemini": "Kore"}
MEDIA_PREFIXES = {"elevenlabs": "elevenlabs", "eleven labs": "elevenlabs"}  # providers only media calls know


class MediaError(Exception):
	"""A media call that failed: ``kind`` (invalid, refused, no_image, auth, rate_limit, network,
	server, bad_request, blocked, ...) and a message to act on."""

	def __init__(self, kind: str, message: str):
		super().__init__(message)
		self.kind = kind
		self.message = message

	def __str__(self) -> str:
		return self.message


@dataclass(frozen=True)
class Media:
	data: bytes
	content_type: str
	extension: str
	revised_prompt: str = ""


def route(spec: ModelSpec) -> str:
	"""LiteLLM's provider prefix for ``spec`` ("openai", "elevenlabs", "gemini", ...)."""
	return model_name(spec).split("/", 1)[0]


def model_name(spec: ModelSpec) -> str:
	"""LiteLLM's name for the model: as for chat, and ``elevenlabs/`` for an ElevenLabs provider."""
	prefix = MEDIA_PREFIXES.get((spec.provider or "").strip().lower())
	if prefix:
		return spec.model if spec.model.startswith(prefix + "/") else f"{prefix}/{spec.model}"
	return normalize_model_name(spec.model, spec.provider, spec.api_base)


def default_model(kind: str, provider: str | None, api_base: str | None = None) -> str | None:
	"""The model a provider uses for ``kind`` ("image", "tts") when none is set, by its LiteLLM route
	(an OpenAI-compatible server is OpenAI's); None for a provider without one Huf knows."""
	prefix = route(ModelSpec(model="x", provider=provider, api_base=api_base))
	return (DEFAULT_IMAGE_MODELS if kind == "image" else DEFAULT_TTS_MODELS).get(prefix)


def default_voice(spec: ModelSpec) -> str:
	return DEFAULT_VOICES.get(route(spec), DEFAULT_VOICES["openai"])


def _rules(model: str) -> ImageRules | None:
	bare = model.rsplit("/", 1)[-1].lower()
	return next((rules for name, rules in IMAGE_RULES.items() if bare == name or bare.startswith(name + "-")), None)


def check_image_options(model: str, size: str | None, quality: str | None, n: int | None) -> None:
	"""Refuse what the model does not take, naming what it does. Unknown models: the provider says."""
	if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
		raise MediaError("invalid", f"n must be a whole number of images, at least 1; got {n!r}.")
	rules = _rules(model)
	if rules is None:
		return
	if size and size not in rules.sizes:
		raise MediaError("invalid", f"{model} makes images of these sizes only: {', '.join(rules.sizes)}; got {size}.")
	if quality and quality not in rules.qualities:
		raise MediaError("invalid", f"{model} takes the qualities {', '.join(rules.qualities)} only; got {quality}.")
	if n is not None and n > rules.max_n:
		allowed = "1 image per call" if rules.max_n == 1 else f"1 to {rules.max_n} images per call"
		raise MediaError("invalid", f"{model} makes {allowed}; got n={n}. Call the tool again for more.")


def generate_images(
	spec: ModelSpec, prompt: str, *, size: str | None = None, quality: str | None = None, n: int | None = None
) -> list[Media]:
	"""The images ``spec``'s model makes for ``prompt`` (at least one, else MediaError no_image)."""
	if not (prompt or "").strip():
		raise MediaError("invalid", "Describe the image to make: prompt is empty.")
	check_image_options(spec.model, size, quality, n)
	name = model_name(spec)
	options: dict = {k: v for k, v in {"size": size, "quality": quality, "n": n}.items() if v}
	if spec.model.rsplit("/", 1)[-1].lower().startswith("dall-e"):
		options["response_format"] = "b64_json"  # DALL-E answers with URLs otherwise; gpt-image-1 takes no such option
	try:
		response = load_litellm().image_generation(
			prompt=prompt, model=name, api_key=spec.api_key, api_base=spec.api_base, timeout=IMAGE_TIMEOUT,
			client=pinned.client_for(name, spec.api_base, spec.api_key, spec.allowed_hosts, IMAGE_TIMEOUT),
			max_retries=0, **options,
		)  # fmt: skip
	except Exception as error:  # noqa: BLE001 - every provider failure becomes words
		raise failure(error, name, spec, "image") from None
	images = [_image(item, spec) for item in (_get(response, "data") or [])]
	images = [image for image in images if image is not None]
	if not images:
		raise MediaError("no_image", f"{spec.provider or 'The provider'} returned no image for this prompt. Try again, or describe the image differently.")
	return images


def _get(item, key: str):
	return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def _image(item, spec: ModelSpec) -> Media | None:
	revised = _get(item, "revised_prompt") or ""
	if _get(item, "b64_json"):
		try:
			data = base64.b64decode(_get(item, "b64_json"), validate=True)
		except ValueError:
			return None
	elif _get(item, "url"):
		data = _download(_get(item, "url"), spec)
	else:
		return None
	kind = image_type(data)
	return Media(data, *kind, revised_prompt=revised) if kind else None


def _download(url: str, spec: ModelSpec) -> bytes:
	"""An image the provider left at a URL (DALL-E's default), fetched through the safe client."""
	try:
		answer = safe_http.request("GET", url, allow=spec.allowed_hosts or frozenset(), max_bytes=MAX_DOWNLOAD, timeout=60, deadline=120)
	except safe_http.SafeHTTPError as error:
		raise MediaError("network", f"The image could not be fetched from the provider: {error}") from None
	if answer.status != 200:
		raise MediaError("no_image", f"The provider's image link answered {answer.status}; no image was saved. Try again.")
	return answer.body


def image_type(data: bytes) -> tuple[str, str] | None:
	"""(content type, extension) of PNG, JPEG or WebP bytes; None for anything else."""
	if data.startswith(b"\x89PNG\r\n\x1a\n"):
		return "image/png", "png"
	if data.startswith(b"\xff\xd8\xff"):
		return "image/jpeg", "jpg"
	if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
		return "image/webp", "webp"
	return None


def speak(spec: ModelSpec, text: str, *, voice: str | None = None, speed: float | None = None, response_format: str | None = None) -> Media:
	"""``text`` spoken by ``spec``'s TTS model, as audio bytes."""
	text = (text or "").strip()
	if not text:
		raise MediaError("invalid", "There is no text to speak: input is empty.")
	if len(text) > MAX_SPEECH_CHARS:
		raise MediaError("invalid", f"The text is {len(text)} characters; speak at most {MAX_SPEECH_CHARS} at a time (split it).")
	fmt = (response_format or "mp3").lower()
	if fmt not in SPEECH_FORMATS:
		raise MediaError("invalid", f"response_format must be one of {', '.join(SPEECH_FORMATS)}; got {response_format}.")
	if speed is not None and not 0.25 <= float(speed) <= 4.0:
		raise MediaError("invalid", f"speed must be between 0.25 and 4.0; got {speed}.")
	name = model_name(spec)
	options = {"speed": float(speed)} if speed is not None else {}
	try:
		response = load_litellm().speech(
			model=name, input=text, voice=voice or default_voice(spec), api_key=spec.api_key, api_base=spec.api_base,
			response_format=fmt, timeout=SPEECH_TIMEOUT, max_retries=0,
			client=pinned.client_for(name, spec.api_base, spec.api_key, spec.allowed_hosts, SPEECH_TIMEOUT), **options,
		)  # fmt: skip
		data = response.content
	except Exception as error:  # noqa: BLE001 - every provider failure becomes words
		raise failure(error, name, spec, "speech") from None
	if not data:
		raise MediaError("no_audio", f"{spec.provider or 'The provider'} returned no audio for this text. Try again.")
	return Media(data, SPEECH_FORMATS[fmt], fmt)


POLICY_MARKERS = ("content_policy", "content policy", "safety system", "moderation", "safety_violation")


def failure(error: Exception, model: str, spec: ModelSpec, what: str) -> MediaError:
	"""A provider failure as a MediaError: a content-policy refusal said as one, else the chat
	gateway's classification (auth, rate_limit, network, ...)."""
	classified = classify(error, model, spec)
	cause = (classified.cause or "").lower()
	if type(error).__name__ == "ContentPolicyViolationError" or any(marker in cause for marker in POLICY_MARKERS):
		said = scrub(classified.cause or "", spec.api_key)[:300]
		return MediaError("refused", f"{spec.provider or 'The provider'} refused this {what} request under its content policy ({said}). Rephrase the request.")
	return MediaError(classified.kind, classified.message)
