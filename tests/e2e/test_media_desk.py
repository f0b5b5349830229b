"""The Agent Run form in the Desk shows the images and audio its tools made: the image loaded from
its private file for the conversation's owner, an audio player, and download links."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from huf.ai.agent.chat import send_agent_chat_message
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text, tool_calls

OWNER = "desk-media-owner@huf.test"


def test_the_run_form_shows_its_image_and_audio(site, web, llm, signed_in):
	make_user(OWNER, ["Huf User"])
	agent = fixtures.agent(
		llm, name="Desk Media Agent", tools=("generate_image", "generate_audio"), allow_chat=1, run_immediately=1, agent_users=[{"user": OWNER}]
	)
	llm.script(
		tool_calls([("i1", "generate_image", json.dumps({"prompt": "a lighthouse poster"})), ("a1", "generate_audio", json.dumps({"input": "Here it is"}))]),
		text("Here is your poster, and I said it aloud."),
	)
	with as_user(OWNER):
		run = send_agent_chat_message(agent, "Make a poster and tell me.", new_conversation=1)["run"]
	assert run

	page = signed_in(OWNER)
	page.goto(f"/app/agent-run/{run}")
	image = page.get_by_role("img", name="a lighthouse poster")
	expect(image).to_be_visible()
	page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())  # the private file loaded
	expect(page.locator("audio[controls]")).to_have_count(1)
	expect(page.get_by_role("link", name="Download image-")).to_have_count(1)
	expect(page.get_by_role("link", name="Download speech-")).to_have_count(1)
