"""Flow Definitions on the site: the graph checked by the engine (``engine/flow/validate.py``) with
what the site knows (which agents and tools exist), and every saved graph kept as a Flow Definition
Version, so a Flow Run always follows the graph it started with."""

from __future__ import annotations

import json
import re

import frappe
from frappe import _
from frappe.utils import now_datetime
from frappe.utils.password import get_decrypted_password, set_encrypted_password

from huf.ai.engine.flow.validate import validate
from huf.ai.flow import readiness

FLOW_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,139}$")
MAX_PROBLEMS_SHOWN = 20
SECRET_MASK = "*" * 8  # what the graph holds where a webhook secret was typed
SECRET_FIELD = "webhook_secret:"  # + node id: where the secret is stored encrypted


class SiteKnows:
	"""What a graph may name: agents and tools that exist on this site."""

	def agent(self, name: str) -> bool:
		return bool(name) and bool(frappe.db.exists("Agent", name))

	def tool(self, name: str) -> bool:
		return bool(name) and bool(frappe.db.exists("Agent Tool Function", name))

	def asks_first(self, name: str) -> bool:
		return bool(frappe.db.get_value("Agent Tool Function", name, "requires_approval"))


def parsed(value) -> dict:
	"""Definition JSON as a dict (the JSON field holds text until it is loaded), or a clear error."""
	if isinstance(value, dict):
		return value
	try:
		found = json.loads(value) if value else {}
	except ValueError as error:
		frappe.throw(_("Definition JSON is not valid JSON: {0}.").format(error), title=_("Check the Flow"))
	if not isinstance(found, dict):
		frappe.throw(_("Definition JSON must be an object with nodes and edges."), title=_("Check the Flow"))
	return found


def check(doc, secrets: bool = True) -> dict:
	"""The definition of Flow Definition ``doc`` made whole (its id is the Flow ID) and checked; every
	problem is reported at once, each with its node's id and label. ``secrets`` False (a test run's
	draft): webhook secrets are masked in the graph, never stored."""
	if not FLOW_ID.match(doc.flow_id or ""):
		frappe.throw(
			_("Flow ID {0} may hold only lower-case letters, digits and dashes, e.g. qualify-leads.").format(frappe.bold(doc.flow_id or "")),
			title=_("Check the Flow"),
		)
	definition = parsed(doc.definition_json)
	if not definition.get("nodes") and doc.status == "Draft":
		return definition  # a draft may start empty
	definition.setdefault("id", doc.flow_id)
	if definition["id"] != doc.flow_id:
		frappe.throw(
			_("The graph's id is {0} but the Flow ID is {1}; they must be the same.").format(frappe.bold(definition["id"]), frappe.bold(doc.flow_id)),
			title=_("Check the Flow"),
		)
	if secrets:
		keep_secrets(doc.flow_id, definition)
	else:
		mask_secrets(definition)
	problems = validate(definition, SiteKnows())
	if doc.status == "Active":  # what would stop its runs on this site (readiness.py)
		problems += readiness.problems(definition, doc.owner or frappe.session.user)
	if problems:
		lines = [_describe(p) for p in problems[:MAX_PROBLEMS_SHOWN]]
		if len(problems) > MAX_PROBLEMS_SHOWN:
			lines.append(_("…and {0} more.").format(len(problems) - MAX_PROBLEMS_SHOWN))
		frappe.throw("<br>".join(frappe.utils.escape_html(line) for line in lines), title=_("The flow has {0} problem(s)").format(len(problems)))
	return definition


def keep_secrets(flow: str, definition: dict) -> None:
	"""A webhook trigger's secret is stored encrypted, like a Password field, and the graph keeps only
	a mask: whoever may read the flow (or a version of it) cannot start it from outside."""
	for node, config in webhook_configs(definition):
		secret = config.get("secret")
		if isinstance(secret, str) and secret and set(secret) != {"*"}:
			set_encrypted_password("Flow Definition", flow, secret, SECRET_FIELD + str(node.get("id")))
			config["secret"] = SECRET_MASK


def mask_secrets(definition: dict) -> None:
	"""A webhook trigger's secret typed in a draft: only its mask is kept (a test run is never called
	from outside, so it needs none)."""
	for _node, config in webhook_configs(definition):
		if config.get("secret"):
			config["secret"] = SECRET_MASK


def webhook_configs(definition: dict):
	"""Each webhook trigger of ``definition`` with its settings (a dict, changed in place by callers)."""
	for node in definition.get("nodes") or []:
		data = node.get("data") if isinstance(node.get("data"), dict) else {}
		config = data.get("config") or node.get("config")
		if node.get("type") == "trigger.webhook" and isinstance(config, dict):
			yield node, config


def webhook_secret(flow: str, node_id: str) -> str | None:
	return get_decrypted_password("Flow Definition", flow, SECRET_FIELD + node_id, raise_exception=False)


def _describe(problem) -> str:
	if not problem.node_id:
		return problem.message
	name = f"{problem.label} ({problem.node_id})" if problem.label else problem.node_id
	return _("Node {0}: {1}").format(name, problem.message)


def canonical(definition: dict) -> str:
	return json.dumps(definition, sort_keys=True, separators=(",", ":"))


def keep_version(doc) -> None:
	"""After a save that changed the graph: the new version, kept as it was saved."""
	frappe.get_doc(
		{
			"doctype": "Flow Definition Version",
			"flow_definition": doc.name,
			"version": doc.version,
			"note": doc.version_note,
			"saved_by": frappe.session.user,
			"saved_at": doc.updated_at or now_datetime(),
			"definition_json": parsed(doc.definition_json),
		}
	).insert(ignore_permissions=True)  # a record of the save the person was allowed to make


def definition_at(flow: str, version: int) -> dict:
	"""The graph of ``flow`` as it was at ``version`` (what a Flow Run follows)."""
	found = frappe.db.get_value("Flow Definition Version", {"flow_definition": flow, "version": version}, "definition_json")
	if found is None:
		frappe.throw(_("Flow {0} has no version {1}.").format(frappe.bold(flow), version), frappe.DoesNotExistError)
	return parsed(found)
