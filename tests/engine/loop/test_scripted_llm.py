"""The scripted server speaks the OpenAI wire format, checked with a plain HTTP client."""

import http.client
import json
import math
from urllib.parse import urlparse

from tests.support.scripted_llm import NOTHING_SCRIPTED, embed, error, text, tool_calls


def call(server, method: str, path: str, body: dict | None = None) -> tuple[int, dict, str]:
	url = urlparse(server.base_url)
	connection = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
	connection.request(method, url.path + path, json.dumps(body) if body is not None else None, {"Content-Type": "application/json"})
	response = connection.getresponse()
	payload = response.read().decode()
	connection.close()
	return response.status, {k.lower(): v for k, v in response.getheaders()}, payload


def events(payload: str) -> list:
	lines = [line[len("data: ") :] for line in payload.split("\n\n") if line.startswith("data: ")]
	assert lines[-1] == "[DONE]"
	return [json.loads(line) for line in lines[:-1]]


def test_a_streamed_answer_is_sse_with_a_final_usage_chunk_when_asked(llm):
	llm.script(text("Hello world", chunks=2, usage=(7, 3, 2)), text("again"))
	status, headers, payload = call(llm, "POST", "/chat/completions", {"model": "m", "stream": True, "stream_options": {"include_usage": True}})
	chunks = events(payload)
	assert status == 200 and headers["content-type"] == "text/event-stream"
	assert "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks[:-1]) == "Hello world"
	assert chunks[-2]["choices"][0]["finish_reason"] == "stop"
	assert chunks[-1]["choices"] == [] and chunks[-1]["usage"] == {
		"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10, "prompt_tokens_details": {"cached_tokens": 2},
	}
	_, _, payload = call(llm, "POST", "/chat/completions", {"model": "m", "stream": True})
	assert all("usage" not in c for c in events(payload))  # not asked for, not sent


def test_streamed_tool_calls_come_in_fragments_like_openai(llm):
	args = json.dumps({"doctype": "ToDo", "limit": 20})
	llm.script(tool_calls([("call_1", "get_list", args), ("call_2", "get_doc", "{}")]))
	_, _, payload = call(llm, "POST", "/chat/completions", {"model": "m", "stream": True})
	fragments = [c["choices"][0]["delta"]["tool_calls"][0] for c in events(payload) if c["choices"][0]["delta"].get("tool_calls")]
	first = [f for f in fragments if f["index"] == 0]
	assert first[0]["id"] == "call_1" and first[0]["function"]["name"] == "get_list" and first[0]["type"] == "function"
	assert len(first) > 1 and all(set(f) == {"index", "function"} and set(f["function"]) == {"arguments"} for f in first[1:])
	assert "".join(f["function"]["arguments"] for f in first) == args
	assert [f["id"] for f in fragments if "id" in f] == ["call_1", "call_2"]


def test_a_non_streamed_answer_is_one_chat_completion(llm):
	llm.script(tool_calls([("call_1", "get_doc", '{"name": "x"}')], usage=(4, 2, 0)))
	status, _, payload = call(llm, "POST", "/chat/completions", {"model": "m"})
	body = json.loads(payload)
	assert status == 200 and body["object"] == "chat.completion" and body["usage"]["total_tokens"] == 6
	assert body["choices"][0]["finish_reason"] == "tool_calls"
	assert body["choices"][0]["message"]["tool_calls"][0]["function"] == {"name": "get_doc", "arguments": '{"name": "x"}'}


def test_errors_carry_their_status_body_and_headers(llm):
	llm.script(error(429, {"error": {"message": "slow down"}}, {"Retry-After": "3"}))
	status, headers, payload = call(llm, "POST", "/chat/completions", {"model": "m", "stream": True})
	assert status == 429 and headers["retry-after"] == "3" and json.loads(payload)["error"]["message"] == "slow down"


def test_an_unscripted_request_is_a_loud_500_and_still_recorded(llm):
	status, _, payload = call(llm, "POST", "/chat/completions", {"model": "m", "messages": []})
	assert status == 500 and json.loads(payload)["error"]["message"] == NOTHING_SCRIPTED
	assert llm.requests[-1]["body"] == {"model": "m", "messages": []}


def test_replies_can_depend_on_the_request(llm):
	llm.script(lambda body: text("you said " + body["messages"][-1]["content"]))
	llm.respond_with(lambda body: text("default for " + body["model"]))
	_, _, first = call(llm, "POST", "/chat/completions", {"model": "m", "messages": [{"role": "user", "content": "hi"}]})
	_, _, second = call(llm, "POST", "/chat/completions", {"model": "m2", "messages": []})
	assert json.loads(first)["choices"][0]["message"]["content"] == "you said hi"
	assert json.loads(second)["choices"][0]["message"]["content"] == "default for m2"


def test_models_list_and_deterministic_embeddings(llm):
	status, _, payload = call(llm, "GET", "/models")
	assert status == 200 and [m["id"] for m in json.loads(payload)["data"]] == ["scripted-model"]
	texts = ["invoice overdue payment", "overdue invoice reminder", "holiday calendar"]
	_, _, payload = call(llm, "POST", "/embeddings", {"model": "e", "input": texts})
	vectors = [d["embedding"] for d in json.loads(payload)["data"]]
	assert all(len(v) == 8 and math.isclose(math.hypot(*v), 1.0, abs_tol=1e-5) for v in vectors)
	assert vectors[0] == embed(texts[0], 8) and vectors[0] != vectors[2]

	def cosine(a, b):
		return sum(x * y for x, y in zip(a, b))

	assert cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2])  # shared words point the same way


def test_a_transcription_is_a_multipart_upload_answered_with_the_transcript(llm):
	"""Whisper's wire format through the OpenAI SDK (what LiteLLM's transcription uses): a real WAV."""
	import io
	import wave

	from openai import OpenAI

	audio = io.BytesIO()
	with wave.open(audio, "wb") as out:
		out.setnchannels(1)
		out.setsampwidth(2)
		out.setframerate(8000)
		out.writeframes(b"\x00\x00" * 800)
	llm.transcript = "hello from the test"
	client = OpenAI(api_key="sk-test", base_url=llm.base_url, max_retries=0)
	heard = client.audio.transcriptions.create(model="whisper-1", file=("note.wav", audio.getvalue(), "audio/wav"), language="de")
	assert heard.text == "hello from the test"
	sent = llm.requests[-1]
	assert sent["path"].endswith("/audio/transcriptions")
	assert sent["body"] == {"model": "whisper-1", "language": "de"}
	upload = sent["file"]
	assert (upload["name"], upload["field"], upload["content_type"]) == ("note.wav", "file", "audio/wav")
	assert upload["data"] == audio.getvalue()
	status, _, payload = call(llm, "POST", "/audio/transcriptions", {"model": "whisper-1"})  # no file: refused like the API
	assert status == 400 and "empty or missing" in payload
