"""What happens once a trigger matches: the condition, a dedupe, and a background job that runs the
agent (or starts the flow) as the trigger's Run As (huf/ai/triggers/identity.py), recording who caused the event.
Nothing here runs for documents no trigger listens to."""

from __future__ import annotations

import json
from functools import partial

import frappe
from frappe import _
from frappe.utils import cstr

DEDUPE_SECONDS = 10
MAX_SNAPSHOT_CHARS = 20_000
MAX_CHANGED_FIELDS = 30
SKIPPED_FIELDS = {"modified", "modified_by", "creation", "owner", "idx", "docstatus", "_user_tags", "_comments", "_assign", "_liked_by", "_seen"}


def doc_event_matched(doc, event: str, triggers: list) -> None:
	"""For each trigger whose condition holds: after the save commits, start its agent once."""
	user = frappe.session.user
	changes = changed_fields(doc) if event in ("on_update", "on_update_after_submit", "on_change") else []
	snapshot = None
	for trigger in triggers:
		if trigger.condition and not condition_holds(trigger, doc):
			continue
		snapshot = snapshot or frappe.as_json(doc.as_dict(no_nulls=True))[:MAX_SNAPSHOT_CHARS]
		context = {
			"kind": "doc_event", "event": event, "doctype": doc.doctype, "name": doc.name, "changes": changes, "document": snapshot,
			"files": attached_files(doc, trigger.name),
		}
		# after commit: a rolled-back save starts nothing, and the worker sees what was saved
		frappe.db.after_commit.add(partial(enqueue_once, trigger.name, f"{doc.doctype}:{doc.name}:{event}", user, context))


def condition_holds(trigger, doc) -> bool:
	"""The trigger's condition, with Frappe's safe evaluation; an error is recorded on the trigger and
	never raised into the save that caused it."""
	try:
		return bool(frappe.safe_eval(trigger.condition, None, {"doc": doc}))
	except Exception as error:  # noqa: BLE001 - any mistake in an admin's expression
		message = _("The condition could not be evaluated on {0} {1}: {2}").format(doc.doctype, doc.name, cstr(error) or type(error).__name__)
		frappe.db.after_commit.add(partial(record_error, trigger.name, message, commit=True))
		return False


def attached_files(doc, trigger: str) -> list[str]:
	"""The file addresses in the document's attach fields that the trigger lists (read in the worker)."""
	rows = frappe.get_all("Agent Trigger Attachment", filters={"parent": trigger, "parenttype": "Agent Trigger"}, fields=["source_type", "child_table", "field_name"], order_by="idx asc")
	urls = []
	for row in rows:
		sources = doc.get(row.child_table) or [] if row.source_type == "Child Table Field" else [doc]
		urls += [source.get(row.field_name) for source in sources if source.get(row.field_name)]
	return list(dict.fromkeys(urls))


def changed_fields(doc) -> list[dict]:
	before = doc.get_doc_before_save()
	if not before:
		return []
	changes = []
	for field in doc.meta.fields:
		name = field.fieldname
		if name in SKIPPED_FIELDS or field.fieldtype in ("Table", "Table MultiSelect", "Section Break", "Column Break", "Tab Break"):
			continue
		old, new = before.get(name), doc.get(name)
		if cstr(old) != cstr(new):
			changes.append({"field": name, "label": field.label or name, "from": old, "to": new})
	return changes[:MAX_CHANGED_FIELDS]


def enqueue_once(trigger: str, subject: str | None, triggered_by: str | None, context: dict) -> None:
	"""Start the trigger's job, unless the same trigger fired for the same ``subject`` moments ago
	(an atomic SET NX with expiry: two saves racing still start one run). No subject: no dedupe."""
	if subject:
		key = frappe.cache.make_key(f"huf:trigger_dedupe:{trigger}:{subject}")
		if not frappe.cache.set(key, 1, nx=True, ex=DEDUPE_SECONDS):
			return
	frappe.enqueue("huf.ai.triggers.fire.run_trigger", queue="long", trigger=trigger, triggered_by=triggered_by, context=context)


def run_trigger(trigger: str, context: dict, triggered_by: str | None = None, user: str | None = None) -> dict | None:
	"""The background job: run the trigger's agent (or start its flow) as its Run As, resolved now (an
	edit made while the job waited counts), with a prompt that says what happened. (``user``: jobs
	queued before Run As.)"""
	from huf.ai.triggers.identity import run_as

	row = frappe.db.get_value("Agent Trigger", trigger, ["name", "agent", "flow", "disabled"], as_dict=True)
	if not row or row.disabled:
		return None
	try:
		triggered_by = triggered_by or user
		user = run_as(trigger, triggered_by)
		frappe.set_user(user)
		result = start_flow(row.flow, context, user) if row.flow else queue_agent(row, context, user, triggered_by)
	except Exception as error:  # noqa: BLE001 - a refusal (agent disabled, no access) is recorded, not retried
		frappe.db.rollback()
		record_error(trigger, cstr(error) or type(error).__name__)
		frappe.db.commit()
		return None
	frappe.db.set_value("Agent Trigger", trigger, "last_error", None, update_modified=False)
	frappe.db.commit()
	return result


def queue_agent(row, context: dict, user: str, triggered_by: str | None) -> dict:
	from huf.ai.run.runs import queue_run

	prompt, images = prompt_for(context), []
	if context.get("files"):
		files_text, images = files_section(context["files"], context["doctype"], context["name"])
		prompt += "\n" + files_text
	return queue_run(
		row.agent,
		prompt,
		channel_id="trigger",
		external_id=history_key(row.name, row.agent, user),
		now=True,
		checked_files=images,
		trigger=row.name,
		triggered_by=triggered_by,
	)


def start_flow(flow: str, context: dict, user: str) -> dict:
	"""A trigger whose target is a flow: a Flow Run instead of an agent run (huf/ai/flow/triggered.py)."""
	from huf.ai.flow.triggered import TRIGGER_TYPES, start_triggered, trigger_payload

	return {"flow_run": start_triggered(flow, trigger_payload(context), user, TRIGGER_TYPES[context["kind"]]), "status": "Queued"}


def history_key(trigger: str, agent: str, user: str) -> str:
	"""The conversation a trigger's run joins: one per person when the agent keeps history per
	person (Persist per User), else one for the trigger."""
	return f"{trigger}:{user}" if frappe.db.get_value("Agent", agent, "persist_user_history") else trigger


def prompt_for(context: dict) -> str:
	"""The message the agent receives: the event, the document, and what changed."""
	if context["kind"] == "doc_event":
		lines = [f"Document event: {context['event']} on {context['doctype']} {context['name']}."]
		if context.get("changes"):
			lines.append("Changed fields:")
			lines += [f"- {c['label']} ({c['field']}): {json.dumps(c['from'], default=str)} -> {json.dumps(c['to'], default=str)}" for c in context["changes"]]
		lines.append(f"The document:\n```json\n{context['document']}\n```")
		return "\n".join(lines)
	if context["kind"] == "schedule":
		missed = f" {context['skipped']} earlier run(s) were missed while nothing ran and are skipped." if context.get("skipped") else ""
		return f"Scheduled run, due at {context['due']}.{missed}"
	if context["kind"] == "app_event":
		payload = json.dumps(context.get("payload"), default=str, indent=1)[:MAX_SNAPSHOT_CHARS]
		return f"App event: {context['event']} from {context['app']}.\nPayload:\n```json\n{payload}\n```"
	return context.get("prompt") or f"Run started by hand from the trigger {context.get('trigger')}."


def files_section(urls: list[str], doctype: str, name: str) -> tuple[str, list[dict]]:
	"""Each attached file's text under its name and SHA-256, read as the run's user, and the images
	(sent to the model as images). A file that person may not read, or that can't be read, is named
	with the reason instead."""
	from huf.ai.engine.attachments import AttachmentError, check_image, extension, extract_text, is_image, sha256
	from huf.ai.engine.audio import OPENAI_FORMATS as AUDIO_FORMATS

	parts, images = ["Attached File Content:"], []
	for url in urls:
		found = frappe.get_all("File", filters={"file_url": url, "attached_to_doctype": doctype, "attached_to_name": name}, pluck="name", order_by="creation desc", limit=1)
		found = found or frappe.get_all("File", filters={"file_url": url}, pluck="name", order_by="creation desc", limit=1)
		if not found:
			parts.append(f"### {url}\n(not found among the site's files)")
			continue
		file = frappe.get_doc("File", found[0])
		if not frappe.has_permission("File", "read", doc=file):
			parts.append(f"### {file.file_name}\n(you may not read this file)")
			continue
		content = file.get_content() or b""
		data = content.encode() if isinstance(content, str) else content
		try:
			if is_image(file.file_name):
				check_image(file.file_name, len(data))
				images.append({"file": file.name, "file_name": file.file_name, "file_url": file.file_url, "image": True})
				parts.append(f"### {file.file_name} (SHA-256 {sha256(data)})\n(an image, sent with this message)")
			elif extension(file.file_name) in AUDIO_FORMATS:  # a voice note: the agent transcribes it with its own tool
				parts.append(
					f"### {file.file_name} (SHA-256 {sha256(data)})\n(a recording, File ID {file.name}: "
					"transcribe it with transcribe_audio or a Speech to Text tool)"
				)
			else:
				parts.append(f"### {file.file_name} (SHA-256 {sha256(data)})\n{extract_text(file.file_name, data)}")
		except AttachmentError as error:
			parts.append(f"### {file.file_name} (SHA-256 {sha256(data)})\n({error})")
	return "\n\n".join(parts), images


def record_error(trigger: str, message: str, commit: bool = False) -> None:
	"""Keep why the trigger could not start its agent on the trigger itself (``commit`` when called
	after the request's own commit, which nothing follows)."""
	frappe.db.set_value("Agent Trigger", trigger, "last_error", message[:1000], update_modified=False)
	if commit:
		frappe.db.commit()
