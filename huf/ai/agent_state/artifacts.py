"""Agent Context Artifacts: tool results too long for the model, kept whole (engine/artifacts.py
decides what the model reads instead).

A result up to ``INLINE_CHARS`` is kept in the record (``payload_json``); a longer one in a private
File attached to it. ``read_artifact`` reads only artifacts of conversations that belong to the
run's user; anyone else's id reads as "no such artifact". Artifacts follow their conversation's
owner in Desk too (hooks.py), and the daily sweep removes expired ones with their files.
"""

from __future__ import annotations

import frappe
from frappe.utils import add_to_date, cint, now_datetime

from huf.ai.engine import artifacts
from huf.ai.engine.tools import Tool
from huf.ai.tools.context import RunContext

DOCTYPE = "Agent Context Artifact"
INLINE_CHARS = 256 * 1024
DEFAULT_DAYS = 7
SWEEP_BATCH = 500


def keeper(ctx: RunContext) -> artifacts.Store:
	"""Keep an over-long result of ``ctx``'s run; None (the model gets it cut) when that fails."""

	def store(tool_name: str, text: str) -> str | None:
		try:
			return _keep(ctx, tool_name, text)
		except Exception:  # noqa: BLE001 - the run goes on with the cut text; the reason is for the Error Log
			frappe.log_error(title=f"Huf: could not keep a long result of {tool_name}", reference_doctype="Agent Run", reference_name=ctx.run)
			return None

	return store


def _keep(ctx: RunContext, tool_name: str, text: str) -> str:
	days = cint(frappe.get_cached_doc("Agent Settings").get("artifact_retention_days")) or DEFAULT_DAYS
	doc = frappe.get_doc(
		{
			"doctype": DOCTYPE,
			"conversation": ctx.conversation,
			"agent_run": ctx.run,
			"tool_name": tool_name,
			"summary": artifacts.outline(text)[:500],
			"characters": len(text),
			"token_estimate": artifacts.token_estimate(text),
			"expires_on": add_to_date(now_datetime(), days=days),
			"payload_json": text if len(text) <= INLINE_CHARS else None,
		}
	).insert(ignore_permissions=True)
	if len(text) > INLINE_CHARS:
		file = frappe.get_doc(
			{
				"doctype": "File",
				"file_name": f"artifact-{doc.name}.txt",
				"attached_to_doctype": DOCTYPE,
				"attached_to_name": doc.name,
				"is_private": 1,
				"content": text.encode(),
			}
		).insert(ignore_permissions=True)
		doc.db_set("payload_file", file.file_url, update_modified=False)
	return doc.name


def reader(ctx: RunContext):
	"""``read(id)`` for read_artifact: the whole text of an artifact of the run's user's conversations,
	read once per run (the model pages through it call after call)."""
	kept: dict[str, str] = {}

	def read(artifact: str) -> str:
		if artifact not in kept:
			kept[artifact] = _payload(artifact, ctx.user)
		return kept[artifact]

	return read


def _payload(artifact: str, user: str) -> str:
	row = frappe.db.get_value(DOCTYPE, artifact, ["conversation", "payload_json", "payload_file"], as_dict=True) if artifact else None
	if not row or frappe.db.get_value("Agent Conversation", row.conversation, "user") != user:
		raise artifacts.ArtifactMissing(artifact)
	if row.payload_json is not None and not row.payload_file:
		return row.payload_json
	name = frappe.db.get_value("File", {"file_url": row.payload_file, "attached_to_name": artifact})
	if not name:
		raise artifacts.ArtifactMissing(artifact)
	content = frappe.get_doc("File", name).get_content()
	return content.decode() if isinstance(content, bytes) else content


def artifact_tools(ctx: RunContext, max_chars: int, has_tools: bool) -> list[Tool]:
	"""read_artifact, for an agent whose tool results can be too long (it has tools and a limit)."""
	if not (has_tools and max_chars > 0):
		return []
	return [artifacts.read_tool(reader(ctx), max_chars)]


def sweep_expired() -> None:
	"""Daily (hooks.py): remove expired artifacts and their files."""
	while True:
		names = frappe.get_all(DOCTYPE, filters={"expires_on": ("<", now_datetime())}, pluck="name", limit=SWEEP_BATCH)
		for name in names:
			frappe.delete_doc(DOCTYPE, name, ignore_permissions=True, force=True)
		frappe.db.commit()
		if len(names) < SWEEP_BATCH:
			return

