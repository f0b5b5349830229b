"""The web app's shell at /huf (and, through the route rule in hooks.py, every address under it).

Signs visitors in first, then serves a page that loads the built app (its files are named in Vite's
manifest) with the session's CSRF token and what the app needs to start without a round trip."""

from __future__ import annotations

import json
import os

import frappe
from frappe import _

from huf.permissions import get_me

no_cache = 1
BUILD_DIR = ("public", "frontend")
ASSET_URL = "/assets/huf/frontend/"


def get_context(context):
	if frappe.session.user == "Guest":
		query = frappe.request.query_string.decode()  # e.g. the agent a link asks for: keep it
		back = frappe.request.path + (f"?{query}" if query else "")
		frappe.local.flags.redirect_location = "/login?redirect-to=" + frappe.utils.quote(back)
		raise frappe.Redirect(302)  # temporary: the same address works once signed in
	context.no_cache = 1
	context.csrf_token = frappe.sessions.get_csrf_token()
	frappe.db.commit()  # a new CSRF token is written to the session; keep it for the app's POSTs
	boot = {
		"me": get_me(),
		"site_name": frappe.local.site,
		"csrf_token": context.csrf_token,
		# behind nginx the realtime server shares the page's address; a bench's dev server has its own port
		"socketio_port": frappe.conf.socketio_port if frappe.local.dev_server else None,
	}
	context.boot = json.dumps(boot).replace("<", "\\u003c")  # no "</script>" from a user's name ends the tag
	context.entry = entry_assets()
	context.title = _("Huf")
	return context


def entry_assets() -> dict | None:
	"""The script, its preloaded chunks and styles for the app's first screen, or None when not built."""
	path = frappe.get_app_path("huf", *BUILD_DIR, ".vite", "manifest.json")
	if not os.path.exists(path):
		return None
	with open(path) as handle:
		manifest = json.load(handle)
	entry = manifest["index.html"]
	return {
		"script": ASSET_URL + entry["file"],
		"preload": [ASSET_URL + manifest[name]["file"] for name in entry.get("imports", [])],
		"styles": [ASSET_URL + css for css in entry.get("css", [])],
	}
