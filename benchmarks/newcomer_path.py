"""A newcomer's first flow, timed in headless Chromium against the real site (issue 27): open the
builder of a new, empty flow, start it from the palette, add three steps with the "+" on each way
out, run the draft and see the last step's output on the test run's canvas.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed and
the web app built (`npm --prefix frontend run build`):
    ../env/bin/python /path/to/huf/benchmarks/newcomer_path.py --site <site> [--rounds 5] [--realtime]

The path, each stage timed from its first input to what it waits for on screen:
  open     the new flow opened -> the palette and "Start with what starts the flow" shown
  trigger  "Schedule" clicked in the palette -> the step on the canvas
  agent    "+" after it, "agent" typed in the picker, Enter -> "Ask an agent" added and connected;
           its agent chosen and its instructions typed
  reshape  "+" after the agent, "reshape", Enter -> "Reshape data"; "Fill in a text", the agent's
           answer inserted by its step's name, the name to keep it as typed
  finish   "+" after it, "finish", Enter -> "Finish"; its result inserted by name
  start    Run, "Start test run" (this draft, preselected) -> the test run's canvas on screen
  output   -> the Finish step's "Out:" on that canvas shows the agent's answer (a worker runs it, the
           model is the scripted server). Without --realtime no realtime server runs, and the page
           learns of the run's steps by asking for its state (frontend/src/features/flows/poll.ts);
           with it, Frappe's realtime server (apps/frappe/socketio.js) runs and the web server
           points the page at it, as `bench start` does. Also printed: the run's own time on the
           site, its creation to its completed_at.
Text is typed a key at a time (no pause between keys), so every keypress goes through the page as a
person's would; the wall times are the page's and the site's, not a person's thinking. Clicks and
keypresses are counted as a person needs them (choosing from a list: two clicks, open and pick).
Each round starts on a new tab of one signed-in browser (its cache warm) with a new empty flow; a
first round, not counted, warms the web server, the worker and the cache. Prints medians with the
middle half and range of the rounds.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))
sys.path.append(str(ROOT / "benchmarks"))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import frappe  # noqa: E402

from timing import spread  # noqa: E402

FLOW = "bench-newcomer-path"
USER = "newcomer-bench@huf.test"
PASSWORD = "huf-Bench-pw-1"
AGENT = "Newcomer Bench Greeter"
ANSWER = "Good morning, Ada! Have a lovely day."
INSTRUCTIONS = "Write a one-line greeting for Ada."
KEY = "greeting"
STAGES = ("open", "trigger", "agent", "reshape", "finish", "start", "output")


class Hands:
	"""What a person does, done on the page and counted."""

	def __init__(self, page):
		self.page = page
		self.clicks = 0
		self.keys = 0

	def click(self, locator) -> None:
		locator.click()
		self.clicks += 1

	def choose(self, locator, value: str) -> None:
		locator.select_option(value)
		self.clicks += 2  # open the list, pick

	def type(self, locator, text: str) -> None:
		locator.press_sequentially(text)
		self.keys += len(text)

	def press(self, key: str) -> None:
		self.page.keyboard.press(key)
		self.keys += 1


def add_after(hands: Hands, expect, after: str, search: str, title: str) -> None:
	"""The way out's "+", a few letters in the step picker, Enter: the step is added and connected."""
	page = hands.page
	hands.click(page.get_by_role("button", name=f"Add a step after {after}", exact=True))
	picker = page.get_by_role("dialog")
	hands.type(picker.get_by_role("combobox", name="Find a step"), search)
	expect(picker.get_by_role("option").first).to_contain_text(title)
	hands.press("Enter")
	expect(picker).to_have_count(0)


def newcomer(page, expect) -> tuple[dict[str, float], Hands]:
	"""One pass of the path on a new tab; the seconds of each stage, and the inputs it took."""
	hands = Hands(page)
	steps, links = page.get_by_test_id("canvas-step"), page.get_by_test_id("canvas-link")
	settings = page.get_by_role("region", name="Settings")
	took: dict[str, float] = {}
	started = time.perf_counter()

	def done(stage: str) -> None:
		nonlocal started
		now = time.perf_counter()
		took[stage] = now - started
		started = now

	page.goto(f"/huf/flows/{FLOW}")
	hands.clicks += 1  # the new flow, in the list of flows
	expect(page.get_by_text("Start with what starts the flow")).to_be_visible()
	palette = page.get_by_role("navigation", name="Steps you can add")
	expect(palette).to_be_visible()
	done("open")

	hands.click(palette.get_by_role("button", name=re.compile("^Add step: Schedule")))
	expect(steps).to_have_count(1)
	done("trigger")

	add_after(hands, expect, "Schedule", "agent", "Ask an agent")
	expect(steps).to_have_count(2)
	expect(links).to_have_count(1)
	hands.choose(settings.get_by_label("Agent", exact=True), AGENT)
	hands.type(settings.get_by_label("Instructions", exact=True), INSTRUCTIONS)
	done("agent")

	add_after(hands, expect, "Ask an agent", "reshape", "Reshape data")
	expect(steps).to_have_count(3)
	hands.choose(settings.get_by_label("How", exact=True), "template")
	hands.click(settings.get_by_role("button", name="Insert Ask an agent", exact=True).first)
	expect(settings.get_by_label("Text", exact=True)).to_have_value(re.compile(r"\{\{.+\}\}"))
	hands.type(settings.get_by_label("Keep it as", exact=True), KEY)
	done("reshape")

	add_after(hands, expect, "Reshape data", "finish", "Finish")
	expect(steps).to_have_count(4)
	expect(links).to_have_count(3)
	hands.click(settings.get_by_role("button", name=f"Insert {KEY} (Reshape data)", exact=True).first)
	expect(settings.get_by_label("Result (optional)")).to_have_value(re.compile(KEY))
	done("finish")

	hands.click(page.get_by_role("button", name="Run", exact=True))
	dialog = page.get_by_role("dialog")
	expect(dialog.get_by_role("radio", name="Run this draft")).to_be_checked()
	hands.click(dialog.get_by_role("button", name="Start test run"))
	test_run = page.get_by_test_id("test-run")
	expect(test_run).to_be_visible()
	done("start")
	out = test_run.locator('.react-flow__node[data-id="end_1"]').get_by_test_id("peek-out")
	expect(out).to_contain_text(ANSWER, timeout=60_000)
	done("output")
	return took, hands


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--rounds", type=int, default=5)
	parser.add_argument("--realtime", action="store_true", help="run Frappe's realtime server, as a bench does")
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")

	from frappe.utils.password import update_password
	from playwright.sync_api import expect, sync_playwright

	from huf.ai.flow import api
	from tests.e2e.conftest import CHROMIUM, FLAGS, realtime_server
	from tests.e2e.test_flows_spa import forget
	from tests.site import fixtures
	from tests.site.conftest import Web, Workers, make_user
	from tests.support.scripted_llm import ScriptedLLM, text

	expect.set_options(timeout=30_000)
	# A fresh site sends everyone to the setup wizard first (as tests/e2e's browser fixture says).
	frappe.db.set_value("Installed Application", {"has_setup_wizard": 1}, "is_setup_complete", 1)
	frappe.db.set_single_value("System Settings", "setup_complete", 1)
	fixtures.allowed_hosts(*fixtures.LOCAL_HOSTS)  # the scripted model server listens on 127.0.0.1
	make_user(USER, ["Huf User", "Huf Manager"])
	update_password(USER, PASSWORD)
	frappe.db.commit()
	frappe.clear_cache()

	live = contextlib.ExitStack()
	if args.realtime:
		live.enter_context(realtime_server(args.site))
	llm = ScriptedLLM().start()
	fixtures.agent(llm, name=AGENT)
	web = Web(args.site, workers=2, dev_server=args.realtime)
	workers = Workers(args.site)
	workers.start(1)
	times: dict[str, list[float]] = {stage: [] for stage in (*STAGES, "total", "on the site")}
	hands = None
	try:
		with sync_playwright() as playwright:
			browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
			context = browser.new_context(base_url=web.base, extra_http_headers={"X-Frappe-Site-Name": web.site}, viewport={"width": 1440, "height": 900})
			context.set_default_timeout(30_000)
			assert context.request.post("/api/method/login", data={"usr": USER, "pwd": PASSWORD}).ok
			for round_ in range(args.rounds + 1):
				forget(FLOW)
				api.save_flow_definition(FLOW, {"id": FLOW, "nodes": [], "edges": []}, flow_name="My first flow", status="Draft")
				frappe.db.commit()
				llm.reset()
				llm.script(text(ANSWER))
				page = context.new_page()
				took, hands = newcomer(page, expect)
				page.close()
				if round_:  # the first round warms the web server, the worker and the browser's cache
					for stage, seconds in took.items():
						times[stage].append(seconds)
					times["total"].append(sum(took.values()))
					frappe.db.rollback()  # what the worker committed
					run = frappe.get_all("Flow Run", {"flow_definition": FLOW}, ["creation", "completed_at"])[0]
					times["on the site"].append((run.completed_at - run.creation).total_seconds())
			browser.close()
	finally:
		workers.stop()
		web.stop()
		llm.stop()
		live.close()
		forget(FLOW)
	realtime = "with" if args.realtime else "without"
	print(f"a newcomer's first flow, {args.rounds} rounds (headless Chromium 1440x900, gunicorn 2 workers, 1 worker, scripted model, {realtime} the realtime server):")
	for stage in (*STAGES, "total", "on the site"):
		print(f"  {stage:<11} {spread(times[stage])}")
	print(f"  inputs: {hands.clicks} clicks, {hands.keys} keypresses ({hands.clicks + hands.keys} in all)")


if __name__ == "__main__":
	main()
