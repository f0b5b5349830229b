"""Browser tier: Debian's Chromium, driven by Playwright, against the real web server and workers.

Run from the bench's ``sites`` folder like tests/site:
    ../env/bin/python -m pytest /path/to/huf/tests/e2e --site <site>
"""

from __future__ import annotations

import contextlib
import os

import pytest

from tests.site.conftest import _fresh_transaction, llm, llm_server, site, web, workers  # noqa: F401 - shared fixtures

CHROMIUM = os.environ.get("HUF_CHROMIUM", "/usr/bin/chromium")
# As root in a sandbox, with no network beyond this machine: no sandbox, GPU or background calls home.
FLAGS = [
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-dev-shm-usage",
	# the chat's Speak button: a fake microphone (a beep), allowed without asking
	"--use-fake-device-for-media-stream",
	"--use-fake-ui-for-media-stream",
]


@pytest.fixture(scope="session")
def browser(site):
	from playwright.sync_api import sync_playwright

	import frappe

	# A fresh site sends everyone to the setup wizard first; these tests start where a set-up site is.
	frappe.db.set_value("Installed Application", {"has_setup_wizard": 1}, "is_setup_complete", 1)
	frappe.db.set_single_value("System Settings", "setup_complete", 1)
	frappe.db.commit()
	frappe.clear_cache()

	if not os.path.exists(CHROMIUM):
		pytest.fail(f"Chromium is not at {CHROMIUM}: install Debian's chromium package or set HUF_CHROMIUM.")
	with sync_playwright() as playwright:
		instance = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
		yield instance
		instance.close()


FAILURES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), ".ci", "artifacts", "failures")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
	"""Keep each phase's report on the test, so fixtures can tell at teardown that it failed."""
	outcome = yield
	report = outcome.get_result()
	setattr(item, f"report_{report.when}", report)


@pytest.fixture
def signed_in(browser, web, request):
	"""A function that opens a browser tab signed in as the given user. When the test fails, each
	tab's screenshot goes to .ci/artifacts/failures/ and what the page logged is printed."""
	contexts, pages, logged = [], [], []

	def open_page(user: str):
		from frappe.utils.password import update_password

		import frappe

		update_password(user, "huf-Test-pw-1")
		frappe.db.commit()
		context = browser.new_context(base_url=web.base, extra_http_headers={"X-Frappe-Site-Name": web.site})
		contexts.append(context)
		page = context.new_page()
		page.set_default_timeout(30_000)
		pages.append(page)
		page.on("console", lambda m: logged.append(f"[{user}] console {m.type}: {m.text}"))
		page.on("pageerror", lambda e: logged.append(f"[{user}] page error: {e}"))
		page.on("dialog", lambda d: logged.append(f"[{user}] dialog: {d.message}"))
		page.on("response", lambda r: r.status >= 400 and logged.append(f"[{user}] HTTP {r.status} {r.url}"))
		response = page.request.post("/api/method/login", data={"usr": user, "pwd": "huf-Test-pw-1"})
		assert response.ok, response.text()
		return page

	yield open_page
	report = getattr(request.node, "report_call", None)
	if report is not None and report.failed:
		os.makedirs(FAILURES, exist_ok=True)
		for n, page in enumerate(pages):
			try:
				page.screenshot(path=os.path.join(FAILURES, f"{request.node.name}-{n}.png"), full_page=True)
				logged.append(f"tab {n} was at {page.url}; its text: {page.inner_text('body')[:1500]!r}")
			except Exception as error:  # a closed tab
				logged.append(f"tab {n}: no screenshot ({error})")
		print("\n".join(["What the browser saw:", *logged[-60:]]))
	for context in contexts:
		context.close()


@contextlib.contextmanager
def realtime_server(site: str):
	"""Frappe's realtime server (apps/frappe/socketio.js) on the bench's socketio_port, started unless
	one is already listening there (`bench start`); stopped afterwards if it was started here."""
	import signal
	import socket
	import subprocess
	import time

	import frappe

	port = int(frappe.conf.socketio_port or 9000)
	bench = os.path.dirname(os.getcwd())
	with socket.socket() as probe:
		running = probe.connect_ex(("127.0.0.1", port)) == 0
	node = None
	if not running:
		node = subprocess.Popen(
			["node", os.path.join(bench, "apps", "frappe", "socketio.js")],
			cwd=bench,
			env=dict(os.environ, FRAPPE_SITE=site),
			stdout=subprocess.DEVNULL,
			stderr=subprocess.DEVNULL,
			start_new_session=True,
		)
		deadline = time.monotonic() + 20
		while time.monotonic() < deadline:
			with socket.socket() as probe:
				if probe.connect_ex(("127.0.0.1", port)) == 0:
					break
			time.sleep(0.1)
		else:
			os.killpg(node.pid, signal.SIGKILL)
			raise RuntimeError(f"Frappe's realtime server did not start on port {port}")
	try:
		yield port
	finally:
		if node:
			os.killpg(node.pid, signal.SIGTERM)
			node.wait(10)


@pytest.fixture
def realtime(site):
	"""Frappe's realtime server and a web server that tells pages to use it (DEV_SERVER, as `bench
	start` does). Yields that web server."""
	from tests.site.conftest import Web

	try:
		with realtime_server(site):
			server = Web(site, workers=1, dev_server=True)
			yield server
			server.stop()
	except RuntimeError as error:
		pytest.fail(str(error))
