"""The scripted server's media routes (see ``scripted_llm.py``), answered with real bytes.

- ``POST /v1/images/generations``: ``n`` real PNGs as ``b64_json`` (``llm.image_reply = "b64"``,
  the default), or as URLs this server also serves (``"url"``), or no data at all (``"empty"``),
  or an error ``(status, body)``, e.g. ``CONTENT_POLICY``.
- ``POST /v1/audio/speech``: real audio: a WAV written with ``wave`` when ``response_format`` is
  wav, else silent MPEG frames (an MP3 a browser plays); ``llm.speech_failure`` answers instead.
- ``POST /v1/audio/transcriptions`` (multipart): ``{"text": llm.transcript}``; an empty upload is a
  400, as the real API answers; ``llm.transcription_failure`` answers instead.
- ``POST .../v1/text-to-speech/<voice>``: ElevenLabs' speech route, an MP3.

Each is recorded in ``llm.requests`` with its form fields (multipart) and ``file`` (name, size,
content type, bytes) so tests can assert the model, voice and key used."""

from __future__ import annotations

import base64
import email.parser
import email.policy
import io
import json
import struct
import time
import wave
import zlib

CONTENT_POLICY = (
	400,
	{
		"error": {
			"message": "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.",
			"type": "image_generation_user_error",
			"code": "content_policy_violation",
		}
	},
)


def png(width: int = 8, height: int = 8, rgb: tuple[int, int, int] = (200, 40, 90)) -> bytes:
	"""A real PNG of one colour."""

	def chunk(kind: bytes, data: bytes) -> bytes:
		return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

	row = b"\x00" + bytes(rgb) * width
	header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
	return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b"")


def wav(seconds: float = 0.5, rate: int = 8000) -> bytes:
	"""A real mono 16-bit WAV: a square tone."""
	out = io.BytesIO()
	with wave.open(out, "wb") as writer:
		writer.setnchannels(1)
		writer.setsampwidth(2)
		writer.setframerate(rate)
		frames = int(seconds * rate)
		writer.writeframes(b"".join(struct.pack("<h", 8000 if (i // 20) % 2 else -8000) for i in range(frames)))
	return out.getvalue()


def mp3(frames: int = 20) -> bytes:
	"""Silent MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz: 417 bytes each)."""
	return (b"\xff\xfb\x90\x64" + bytes(413)) * frames


def multipart(raw: bytes, content_type: str) -> tuple[dict, dict | None]:
	"""(form fields, the uploaded file as {name, field, content_type, size, data}) of a multipart body."""
	message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
		f"Content-Type: {content_type}\r\n\r\n".encode() + raw
	)
	fields, upload = {}, None
	for part in message.iter_parts():
		name = part.get_param("name", header="content-disposition")
		filename = part.get_filename()
		data = part.get_payload(decode=True) or b""
		if filename is not None:
			upload = {"name": filename, "field": name, "content_type": part.get_content_type(), "size": len(data), "data": data}
		else:
			fields[name] = data.decode()
	return fields, upload


def handle_post(llm, handler, path: str, raw: bytes, headers: dict) -> bool:
	"""Answer a media route; False for any other path."""
	path = path.split("?", 1)[0].rstrip("/")
	if path.endswith("/audio/transcriptions"):
		fields, upload = multipart(raw, headers.get("content-type", ""))
		llm.requests.append({"path": path, "body": fields, "headers": headers, "file": upload})
		if llm.transcription_failure:
			handler._json(*llm.transcription_failure)
		elif not upload or not upload["size"]:
			handler._json(400, {"error": {"message": "The audio file is empty or missing.", "type": "invalid_request_error"}})
		else:
			handler._json(200, {"text": llm.transcript})
		return True
	if "/text-to-speech/" in path:  # ElevenLabs
		body = json.loads(raw or b"{}")
		llm.requests.append({"path": path, "body": body, "headers": headers, "voice": path.rsplit("/", 1)[-1]})
		_bytes(handler, 200, mp3(), "audio/mpeg")
		return True
	if not path.endswith(("/images/generations", "/audio/speech")):
		return False
	body = json.loads(raw or b"{}")
	llm.requests.append({"path": path, "body": body, "headers": headers})
	if path.endswith("/audio/speech"):
		if llm.speech_failure:
			handler._json(*llm.speech_failure)
		elif body.get("response_format") == "wav":
			_bytes(handler, 200, wav(), "audio/wav")
		else:
			_bytes(handler, 200, mp3(), "audio/mpeg")
		return True
	reply = llm.image_reply
	if isinstance(reply, tuple):
		handler._json(*reply)
		return True
	count = int(body.get("n") or 1)
	if reply == "empty":
		data = []
	elif reply == "url":
		base = f"http://127.0.0.1:{handler.server.server_address[1]}/v1/files"
		data = [{"url": f"{base}/image-{i}.png", "revised_prompt": f"revised: {body.get('prompt')}"} for i in range(count)]
	else:
		picture = base64.b64encode(png()).decode()
		data = [{"b64_json": picture, "revised_prompt": f"revised: {body.get('prompt')}"} for _ in range(count)]
	handler._json(200, {"created": int(time.time()), "data": data})
	return True


def handle_get(handler, path: str) -> bool:
	"""The images a "url" reply points at."""
	if "/v1/files/image-" in path:
		_bytes(handler, 200, png(), "image/png")
		return True
	return False


def _bytes(handler, status: int, data: bytes, content_type: str) -> None:
	handler.send_response(status)
	handler.send_header("Content-Type", content_type)
	handler.send_header("Content-Length", str(len(data)))
	handler.end_headers()
	handler.wfile.write(data)
