"""Huf's example: an agent, a knowledge source and a flow that work the moment the site has a
provider and a model.

The records are seed files in ``huf/huf/examples/`` (Huf's ``huf/`` folder, see huf/ai/seeding.py):
three read-only document tools (ToDo and Note), the knowledge source "Example: About Huf" (keyword
search, a few passages, indexed the usual way), the agent "Example: Site helper" (those tools, Huf's
built-in get_doctype_schema and get_current_datetime, the knowledge source, open for chat) and the
flow "Example: triage a request" (a Draft). They are seeded like any app's seeds: running it twice
makes nothing twice, a record someone edited or deleted is never overwritten or made again, and the
agent gets the site's first model, now or as soon as one is saved.

From the web app's first screen (``huf.ai.getting_started.add_example``), or:

	bench --site <site> execute huf.examples.seed
"""

from __future__ import annotations

import frappe

APP = "huf"
AGENT = "Example: Site helper"
SOURCE = "Example: About Huf"
FLOW = "example-triage"


def seed() -> dict:
	"""Add Huf's example to this site: what was created, what was kept as someone left it, and what
	waits for a model (see huf/ai/seeding.py ``Report``)."""
	from huf.ai import seeding

	return seeding.seed([APP], examples=[APP]).as_dict()


def status() -> dict:
	"""Whether the example was added here, and its agent when it exists (it waits for a model)."""
	from huf.ai.seeding import EXAMPLES, TRACK

	added = bool(frappe.db.exists(TRACK, {"app": APP, "seed_file": ("like", f"{EXAMPLES}/%")}))
	seeded = bool(frappe.db.exists(TRACK, {"app": APP, "reference_doctype": "Agent", "seed_key": AGENT}))
	agent = seeded and bool(frappe.db.exists("Agent", AGENT))  # gone when someone deleted it
	return {"added": added, "agent": AGENT if agent else None, "waiting_for_model": added and not seeded}
