"""Options shared by the test tiers that run inside a Frappe site (tests/site, tests/e2e)."""

import os


def pytest_addoption(parser):
	parser.addoption("--site", action="store", default=os.environ.get("HUF_TEST_SITE"), help="site to test on")
