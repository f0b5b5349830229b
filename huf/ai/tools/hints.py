"""The static hints of every installed app (``<app>/huf/hints/*.json``), for the schema tool.

Read once per process and site, and again after ``bench migrate`` or ``bench clear-cache``: both
delete every Redis key of the site, among them the version key each process compares with. A bad
file is left out and reported in the Error Log, with its name and what is wrong, once (until the
next cache clear); it never breaks a run.
"""

from __future__ import annotations

import hashlib
import os

import frappe

from huf.ai.engine.hints import HintIndex, read_folder

VERSION_KEY = "huf:hints_version"
REPORTED_KEY = "huf:hints_reported:"
REPORT_AGAIN_AFTER = 30 * 24 * 3600  # seconds, if no cache clear came first

_loaded: dict[str, tuple[str, HintIndex]] = {}  # site -> (version, index)


def hints_for(doctype: str) -> dict:
	"""``{"hints": [...], "workflows": [...]}`` for ``doctype`` (keys only when there are some)."""
	return hint_index().for_doctype(doctype)


def hint_index() -> HintIndex:
	version = frappe.cache.get_value(VERSION_KEY)
	if not version:
		version = frappe.generate_hash(length=10)
		frappe.cache.set_value(VERSION_KEY, version)
	loaded = _loaded.get(frappe.local.site)
	if loaded and loaded[0] == version:
		return loaded[1]
	hints = []
	for app in frappe.get_installed_apps():
		folder = frappe.get_app_path(app, "huf", "hints")
		if os.path.isdir(folder):
			found, bad = read_folder(folder)
			hints += found
			for path, problem in bad:
				_report(app, path, problem)
	index = HintIndex(hints)
	_loaded[frappe.local.site] = (version, index)
	return index


def _report(app: str, path: str, problem: str) -> None:
	marker = hashlib.sha256(f"{path}\n{problem}".encode()).hexdigest()[:16]
	if not frappe.cache.set(frappe.cache.make_key(REPORTED_KEY + marker), 1, nx=True, ex=REPORT_AGAIN_AFTER):
		return
	name = f"{app}/huf/hints/{os.path.basename(path)}"
	frappe.log_error(
		title=f"Huf skipped the hints file {name}",
		message=f"The hints file {path} was left out: {problem}\n"
		"Fix the file; Huf reads it again after bench migrate or bench clear-cache.",
	)
