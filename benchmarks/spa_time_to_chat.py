"""Time from opening /huf/chat/<agent> to a usable chat (the message box on screen, the agent's
conversations listed), in headless Chromium against the real site under gunicorn.

Run from the bench's sites folder with the bench's Python, on a throwaway site with Huf installed and
the web app built (`bench build --app huf`):
    ../env/bin/python /path/to/huf/benchmarks/spa_time_to_chat.py --site <site> [--runs 15]

Cold: a new browser profile each time (nothing cached). Warm: the same tab opening the page again
(scripts cached, session known). Prints medians of the page's own clock (navigation start -> ready).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))

import frappe  # noqa: E402

READY = "#chat-composer"


def time_to_chat(page, path: str) -> float:
	page.goto(path, wait_until="commit")
	page.wait_for_selector(READY)
	page.get_by_role("navigation", name="Your conversations").wait_for()
	return page.evaluate("performance.now()")


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--site", required=True)
	parser.add_argument("--runs", type=int, default=15)
	args = parser.parse_args()
	frappe.init(site=args.site, sites_path=os.getcwd())
	frappe.connect()
	frappe.set_user("Administrator")

	from playwright.sync_api import sync_playwright

	from tests.e2e.conftest import CHROMIUM, FLAGS
	from tests.site import fixtures
	from tests.site.conftest import Web, make_user
	from frappe.utils.password import update_password

	agent = fixtures.agent(None, name="Chat Load Bench Agent", allow_chat=1)
	user = make_user("chat-bench@huf.test", ["Huf User"])
	update_password(user, "huf-Bench-pw-1")
	frappe.db.commit()
	web = Web(args.site, workers=2)
	path = f"/huf/chat/{agent.replace(' ', '%20')}"
	cold, warm = [], []
	try:
		with sync_playwright() as playwright:
			browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
			for i in range(args.runs + 1):
				context = browser.new_context(base_url=web.base, extra_http_headers={"X-Frappe-Site-Name": web.site})
				page = context.new_page()
				page.request.post("/api/method/login", data={"usr": user, "pwd": "huf-Bench-pw-1"})
				first, again = time_to_chat(page, path), time_to_chat(page, path)
				if i:  # the first pass warms gunicorn's workers up
					cold.append(first)
					warm.append(again)
				context.close()
			browser.close()
	finally:
		web.stop()
	print(f"time from opening {path} to a usable chat, {args.runs} runs, medians (headless Chromium, gunicorn 2 workers):")
	print(f"  cold (empty cache): {statistics.median(cold):.0f} ms   (range {min(cold):.0f}-{max(cold):.0f})")
	print(f"  warm (cached):      {statistics.median(warm):.0f} ms   (range {min(warm):.0f}-{max(warm):.0f})")


if __name__ == "__main__":
	main()
