"""Images, speech and transcription through real LiteLLM against the scripted server's media routes,
with real bytes: PNGs it makes, audio it writes, a WAV this test writes with ``wave``."""

from __future__ import annotations

import pytest

from huf.ai.engine import audio, media
from huf.ai.engine.audio import Endpoint, check_audio, transcribe, transcribe_at
from huf.ai.engine.llm_types import ModelSpec
from huf.ai.engine.media import MediaError, check_image_options, generate_images, speak
from tests.support.scripted_media import CONTENT_POLICY, wav

LOCAL = frozenset({"127.0.0.1"})


def spec(llm, model: str, provider: str = "OpenAI", key: str = "sk-media-secret", pinned: bool = True) -> ModelSpec:
	return ModelSpec(model=model, provider=provider, api_key=key, api_base=llm.base_url, allowed_hosts=LOCAL if pinned else None)


# --- images ----------------------------------------------------------------------------------------


def test_an_image_comes_back_as_png_bytes_with_the_revised_prompt(llm):
	(image,) = generate_images(spec(llm, "dall-e-3"), "a red fox", size="1792x1024", quality="hd")
	assert image.data.startswith(b"\x89PNG\r\n\x1a\n") and (image.content_type, image.extension) == ("image/png", "png")
	assert image.revised_prompt == "revised: a red fox"
	(request,) = llm.requests
	assert request["path"] == "/v1/images/generations" and request["headers"]["authorization"] == "Bearer sk-media-secret"
	body = request["body"]
	assert (body["model"], body["size"], body["quality"], body["response_format"]) == ("dall-e-3", "1792x1024", "hd", "b64_json")


def test_several_images_and_images_left_at_a_url_are_fetched(llm):
	llm.image_reply = "url"
	images = generate_images(spec(llm, "dall-e-2"), "three cats", size="256x256", n=3)
	assert len(images) == 3 and all(i.data.startswith(b"\x89PNG") for i in images)
	assert llm.requests[0]["body"]["n"] == 3


def test_gpt_image_takes_its_own_sizes_and_no_response_format(llm):
	generate_images(spec(llm, "gpt-image-1", pinned=False), "a logo", size="1536x1024", quality="high")
	assert "response_format" not in llm.requests[0]["body"]


@pytest.mark.parametrize(
	("model", "options", "said"),
	[
		("dall-e-3", {"n": 2}, "dall-e-3 makes 1 image per call; got n=2"),
		("dall-e-3", {"size": "512x512"}, "sizes only: 1024x1024, 1792x1024, 1024x1792; got 512x512"),
		("dall-e-3", {"quality": "high"}, "qualities standard, hd only; got high"),
		("dall-e-2", {"n": 11}, "1 to 10 images per call"),
		("dall-e-2", {"size": "1792x1024"}, "256x256, 512x512, 1024x1024"),
		("gpt-image-1", {"quality": "hd"}, "low, medium, high, auto"),
		("openai/gpt-image-1", {"size": "1792x1024"}, "1024x1024, 1536x1024, 1024x1536, auto"),
		("some-new-model", {"n": 0}, "at least 1"),
	],
)
def test_options_the_model_does_not_take_are_refused_naming_the_allowed_ones(model, options, said):
	with pytest.raises(MediaError) as refused:
		check_image_options(model, options.get("size"), options.get("quality"), options.get("n"))
	assert refused.value.kind == "invalid" and said in str(refused.value)


def test_an_unknown_image_model_is_asked_as_is(llm):
	(image,) = generate_images(spec(llm, "flux-pro"), "a boat", size="999x999", quality="ultra")
	assert image.data.startswith(b"\x89PNG") and llm.requests[0]["body"]["size"] == "999x999"


def test_a_content_policy_refusal_says_so_in_words(llm):
	llm.image_reply = CONTENT_POLICY
	with pytest.raises(MediaError) as refused:
		generate_images(spec(llm, "dall-e-3"), "something forbidden")
	assert refused.value.kind == "refused" and "content policy" in str(refused.value) and "Rephrase" in str(refused.value)
	assert "sk-media-secret" not in str(refused.value)


def test_a_provider_that_returns_no_image_is_an_error(llm):
	llm.image_reply = "empty"
	with pytest.raises(MediaError) as none:
		generate_images(spec(llm, "dall-e-3"), "a cloud")
	assert none.value.kind == "no_image" and "returned no image" in str(none.value)


@pytest.mark.parametrize(("status", "kind"), [(401, "auth"), (429, "rate_limit")])
def test_auth_and_rate_limit_failures_are_classified(llm, status, kind):
	llm.image_reply = (status, {"error": {"message": "Incorrect API key provided: sk-media-secret", "type": "invalid_request_error"}})
	with pytest.raises(MediaError) as failed:
		generate_images(spec(llm, "dall-e-3"), "a tree")
	assert failed.value.kind == kind and "sk-media-secret" not in str(failed.value)


# --- speech ------------------------------------------------------------------------------------------


def test_speech_is_real_audio_with_the_voice_and_key_asked_for(llm):
	spoken = speak(spec(llm, "tts-1"), "Hello there", voice="nova", speed=1.25)
	assert spoken.data[:2] == b"\xff\xfb" and (spoken.content_type, spoken.extension) == ("audio/mpeg", "mp3")
	(request,) = llm.requests
	assert request["path"] == "/v1/audio/speech" and request["headers"]["authorization"] == "Bearer sk-media-secret"
	assert (request["body"]["voice"], request["body"]["input"], request["body"]["speed"]) == ("nova", "Hello there", 1.25)


def test_speech_as_wav_and_with_the_providers_default_voice(llm):
	spoken = speak(spec(llm, "tts-1", pinned=False), "Hi", response_format="wav")
	assert spoken.data[:4] == b"RIFF" and spoken.extension == "wav"
	assert llm.requests[0]["body"]["voice"] == "alloy"


def test_elevenlabs_speaks_through_its_own_route_with_its_own_key(llm):
	spoken = speak(spec(llm, "eleven_multilingual_v2", provider="ElevenLabs", key="el-key-123", pinned=False), "Hola", voice="voice-9")
	assert spoken.data[:2] == b"\xff\xfb"
	(request,) = llm.requests
	assert request["voice"] == "voice-9" and request["headers"]["xi-api-key"] == "el-key-123"


@pytest.mark.parametrize(
	("text", "options", "said"),
	[("", {}, "no text to speak"), ("x" * 5000, {}, "at most 4096"), ("hi", {"response_format": "mp4"}, "one of mp3"), ("hi", {"speed": 9}, "between 0.25 and 4.0")],
)
def test_bad_speech_requests_are_refused_before_any_call(llm, text, options, said):
	with pytest.raises(MediaError, match=said):
		speak(spec(llm, "tts-1"), text, **options)
	assert not llm.requests


def test_a_speech_failure_is_classified(llm):
	llm.speech_failure = (401, {"error": {"message": "bad key", "type": "invalid_request_error"}})
	with pytest.raises(MediaError) as failed:
		speak(spec(llm, "tts-1"), "Hello")
	assert failed.value.kind == "auth"


# --- transcription ----------------------------------------------------------------------------------


def test_a_wav_is_transcribed_with_the_model_and_language(llm):
	llm.transcript = "Please call me back about invoice 42."
	recording = wav(seconds=0.3)
	assert transcribe(spec(llm, "whisper-1"), "note.wav", recording, language="en") == "Please call me back about invoice 42."
	(request,) = llm.requests
	assert request["path"] == "/v1/audio/transcriptions" and request["headers"]["authorization"] == "Bearer sk-media-secret"
	assert request["body"]["model"] == "whisper-1" and request["body"]["language"] == "en"
	assert request["file"]["data"] == recording and request["file"]["name"] == "note.wav"


def test_groq_is_a_transcription_provider_of_its_own(llm):
	assert audio.default_model("Groq") == "whisper-large-v3" and audio.default_model("OpenAI") == "whisper-1"
	assert audio.default_model("Anything", "http://127.0.0.1/v1") == "whisper-1"
	assert audio.default_model("Anthropic") is None and media.default_model("tts", "Anthropic") is None
	assert media.default_model("tts", "ElevenLabs") == "eleven_multilingual_v2" and media.default_model("image", "OpenAI") == "dall-e-3"


@pytest.mark.parametrize(
	("name", "data", "said"),
	[
		("note.wav", b"", "is empty (0 bytes)"),
		("note.wav", b"RIFF\x00\x00\x00\x00WAVEjunkjunk", "not a readable wav file"),
		("note.mp3", b"hello, not audio", "not a readable mp3 file"),
		("note.aiff", b"FORM....AIFF", "Use one of: flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm"),
		("note", b"data", "Use one of"),
	],
)
def test_empty_corrupt_and_unsupported_audio_is_refused_in_words_before_any_call(llm, name, data, said):
	with pytest.raises(MediaError, match=said.replace("(", r"\(").replace(")", r"\)")):
		transcribe(spec(llm, "whisper-1"), name, data)
	assert not llm.requests


def test_a_file_over_the_providers_limit_is_refused_with_the_limit():
	big = b"\x1a\x45\xdf\xa3" + bytes(26 * 1024 * 1024)
	with pytest.raises(MediaError, match="up to 25 MB"):
		check_audio("long.webm", big, "groq")
	assert check_audio("short.webm", big[:1000]) == "webm"


def test_a_configured_endpoint_gets_a_multipart_upload_and_its_answer_is_read_at_the_path(llm):
	llm.transcript = "from the endpoint"
	endpoint = Endpoint(api_url=llm.base_url + "/audio/transcriptions", api_key="gsk-endpoint", model="whisper-large-v3", allowed_hosts=LOCAL)
	assert transcribe_at(endpoint, "memo.wav", wav(), language="de") == "from the endpoint"
	(request,) = llm.requests
	assert request["headers"]["authorization"] == "Bearer gsk-endpoint"
	assert request["body"] == {"model": "whisper-large-v3", "language": "de"} and request["file"]["field"] == "file"


def test_a_configured_endpoint_off_the_allow_list_is_refused(llm):
	endpoint = Endpoint(api_url=llm.base_url + "/audio/transcriptions", api_key="k")
	with pytest.raises(MediaError) as refused:
		transcribe_at(endpoint, "memo.wav", wav())
	assert refused.value.kind == "blocked" and not llm.requests


def test_a_wrong_response_path_says_which(llm):
	endpoint = Endpoint(api_url=llm.base_url + "/audio/transcriptions", response_path="results.0.text", allowed_hosts=LOCAL)
	with pytest.raises(MediaError, match="nothing at results.0.text"):
		transcribe_at(endpoint, "memo.wav", wav())


def test_media_calls_to_an_api_base_connect_through_the_safe_client(llm):
	"""An API Base off the allow-list given with the spec is refused as each call connects (pinned.py):
	no request, no key sent, and the error says so."""
	closed = ModelSpec(model="x", provider="Local", api_key="sk-media-secret", api_base=llm.base_url, allowed_hosts=frozenset())
	calls = [
		lambda: generate_images(closed, "a fox"),
		lambda: speak(closed, "hello"),
		lambda: transcribe(closed, "note.wav", wav()),
	]
	for call in calls:
		with pytest.raises(MediaError) as refused:
			call()
		assert refused.value.kind == "blocked" and "sk-media-secret" not in str(refused.value)
	assert not llm.requests
