"""Voice and images on a site: how long a voice note takes from upload to its run starting, and what a
made image costs the next turn's prompt.

Run from the bench's sites folder with the bench's Python:
    ../env/bin/python /path/to/huf/benchmarks/media.py --site <site> [--rounds 20]

1. Voice note -> run started, as the web app's chat does it, over HTTP to gunicorn (token auth, one
   worker): upload the recording (``/api/method/upload_file``, private), ``transcribe_audio``, then
   ``send_agent_chat_message`` with the transcript (an agent that runs at once). Each round: the
   upload, the transcription request, and the send until the Agent Run's ``started_at``; and the
   transcription's own time, the same WAV sent straight to the scripted server through LiteLLM in
   this process. Printed: each part's median with its spread, and upload -> run started without the
   transcription's own time (target: under 300 ms).
2. Prompt tokens of the turn after an image was made (generate_image, then an answer) against the
   turn after a plain answer, in the same kind of conversation (the scripted server counts about 4
   characters a token). Target: within 200 tokens.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import frappe  # noqa: E402

from benchmarks.timing import spread  # noqa: E402


def voice_rounds(web, llm, agent: str, user: str, rounds: int) -> dict[str, list[float]]:
	import requests

	from huf.ai.engine import audio
	from huf.ai.engine.llm_types import ModelSpec
	from tests.support.scripted_media import wav

	recording = wav(seconds=2.0)
	headers = web.token_headers(user)
	direct = ModelSpec(model="whisper-1", provider="OpenAI", api_key="sk-bench", api_base=llm.base_url)
	parts: dict[str, list[float]] = {"upload": [], "transcribe": [], "own": [], "send": [], "total": []}
	for i in range(rounds + 1):
		started = time.perf_counter()
		begun = frappe.utils.now_datetime()
		upload = requests.post(
			f"{web.base}/api/method/upload_file", headers=headers, timeout=60,
			files={"file": (f"bench-note-{i}.wav", recording, "audio/wav")}, data={"is_private": "1"},
		)  # fmt: skip
		upload.raise_for_status()
		uploaded = time.perf_counter()
		url = upload.json()["message"]["file_url"]
		heard = web.post("/api/method/huf.ai.media.speech_to_text.transcribe_audio", {"audio_file_url": url, "agent": agent}, headers)
		heard.raise_for_status()
		transcribed = time.perf_counter()
		sent = web.post("/api/method/huf.ai.agent.chat.send_agent_chat_message", {"agent_name": agent, "message": heard.json()["message"]["text"], "new_conversation": 1}, headers)
		sent.raise_for_status()
		frappe.db.commit()
		run_started = frappe.db.get_value("Agent Run", sent.json()["message"]["run"], "started_at")
		own_started = time.perf_counter()
		audio.transcribe(direct, "note.wav", recording, "en")
		own = time.perf_counter() - own_started
		if i == 0:
			continue  # warm-up: the web worker's first transcription imports LiteLLM's audio code
		to_start = (run_started - begun).total_seconds()
		parts["upload"].append(uploaded - started)
		parts["transcribe"].append(transcribed - uploaded)
		parts["own"].append(own)
		parts["send"].append(to_start - (transcribed - started))
		parts["total"].append(to_start - own)
	return parts


def token_rounds(llm, agent: str, rounds: int) -> dict[str, list[int]]:
	from huf.ai.agent.integration import run_agent_sync
	from tests.support.scripted_llm import prompt_tokens, text, tool_calls

	counts: dict[str, list[int]] = {"image": [], "plain": []}
	for round_ in range(rounds):
		for kind in counts:
			llm.reset()
			if kind == "image":
				llm.script(tool_calls([("i1", "generate_image", json.dumps({"prompt": "a lighthouse at dawn, poster style"}))]), text("Here is your poster."))
			else:
				llm.script(text("Here is your poster."))
			fresh = f"bench-{kind}-{round_}-{time.time()}"  # a new conversation each time
			first = run_agent_sync(agent, "Make me a poster of a lighthouse.", channel_id="chat", external_id=fresh, now=True)
			llm.script(text("Glad you like it."))
			run_agent_sync(agent, "Thanks, what next?", conversation_id=first["conversation"], channel_id="chat", external_id=fresh, now=True)
			counts[kind].append(prompt_tokens(llm.chat_requests[-1]["body"]))
	return counts


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--rounds", type=int, default=20)
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")

	from tests.site import fixtures
	from tests.site.conftest import Web, make_user
	from tests.support.scripted_llm import ScriptedLLM, text

	with ScriptedLLM() as llm:
		llm.transcript = "My printer in room 4 is out of toner."
		user = make_user("bench-media@huf.test", ["Huf User"])
		voice = fixtures.agent(llm, name="Bench Voice Agent", allow_chat=1, run_immediately=1, agent_users=[{"user": user}])
		image = fixtures.agent(llm, name="Bench Image Agent", tools=("generate_image",))
		llm.respond_with(lambda body: text("Noted."))
		web = Web(args.site, workers=1)
		try:
			parts = voice_rounds(web, llm, voice, user, args.rounds)
		finally:
			web.stop()
		llm.respond_with(None)
		tokens = token_rounds(llm, image, max(3, args.rounds // 4))

	import statistics

	print(f"voice note -> run started, {args.rounds} rounds (gunicorn, 1 worker; medians, middle half, range):")
	print(f"  upload (upload_file, private):          {spread(parts['upload'])}")
	print(f"  transcribe_audio request:               {spread(parts['transcribe'])}")
	print(f"    of which the transcription's own:     {spread(parts['own'])}")
	print(f"  send -> run started_at:                 {spread(parts['send'])}")
	print(f"  upload -> run started, less the transcription's own time: {spread(parts['total'])}  (target: under 300 ms)")
	image_tokens, plain_tokens = statistics.median(tokens["image"]), statistics.median(tokens["plain"])
	print(f"prompt tokens of the next turn: after an image {image_tokens:.0f}, after a plain answer {plain_tokens:.0f}, "
		f"difference {image_tokens - plain_tokens:.0f} (target: within 200; {len(tokens['image'])} pairs)")


if __name__ == "__main__":
	main()
