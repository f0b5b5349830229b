"""Files a person attaches to a chat message: checked, read once at queue time, kept on the run.

The person must have uploaded the file themselves (a private File they own): nobody attaches
someone else's file by guessing its name. The text goes to the model beside the message; the chat
shows the file's name and a link only the owner can open."""

from __future__ import annotations

import json

import frappe
from frappe import _

from huf.ai.engine.attachments import (
	IMAGE_TYPES,
	MAX_FILES,
	READABLE,
	AttachmentError,
	check_image,
	check_readable,
	extension,
	extract_text,
	is_image,
)


def parse_names(value) -> list[str]:
	"""File names from a list, or a JSON list sent as text by a form post."""
	if not value:
		return []
	if isinstance(value, str):
		try:
			value = json.loads(value)
		except ValueError:
			value = [value]
	if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
		frappe.throw(_("Attachments must be a list of file names."))
	return list(dict.fromkeys(value))


def read_attachments(agent, names: list[str], user: str) -> list[dict]:
	"""Each file's name, address and text, in order; a refusal a person can act on otherwise."""
	if not names:
		return []
	if user == "Guest":  # guests' uploads all share one owner, so ownership would prove nothing
		frappe.throw(_("Sign in to attach files."), frappe.PermissionError)
	if not agent.get("allow_file_attachments"):
		frappe.throw(_("The agent {0} does not take files. Send the message without them, or tick Allow File Attachments on the agent.").format(frappe.bold(agent.name)))
	if len(names) > MAX_FILES:
		frappe.throw(_("Attach at most {0} files to one message; you attached {1}.").format(MAX_FILES, len(names)))
	attachments = []
	for name in names:
		file = frappe.db.get_value("File", name, ["name", "file_name", "file_url", "owner", "file_size", "is_folder"], as_dict=True)
		if not file or file.is_folder or file.owner != user:
			frappe.throw(_("The file {0} was not found among your uploads. Upload it again.").format(frappe.bold(name)), frappe.PermissionError)
		if not is_image(file.file_name) and extension(file.file_name) not in READABLE:
			frappe.throw(
				_("{0} can't be attached: attach an image ({1}), a PDF, an Office file or a text file ({2}).").format(
					file.file_name, ", ".join(IMAGE_TYPES), ", ".join(READABLE)
				),
				title=_("File can't be attached"),
			)
		if is_image(file.file_name):
			try:
				check_image(file.file_name, file.file_size or 0)
			except AttachmentError as error:
				frappe.throw(str(error), title=_("File can't be attached"))
			attachments.append({"file": file.name, "file_name": file.file_name, "file_url": file.file_url, "image": True})
			continue
		try:
			check_readable(file.file_name, file.file_size or 0)
			content = frappe.get_doc("File", file.name).get_content() or b""
			data = content.encode() if isinstance(content, str) else content  # Frappe decodes UTF-8 files
			text = extract_text(file.file_name, data)
		except AttachmentError as error:
			frappe.throw(str(error), title=_("File can't be attached"))
		attachments.append({"file": file.name, "file_name": file.file_name, "file_url": file.file_url, "text": text})
	return attachments


def image_bytes(attachments: list[dict]) -> list[tuple[str, bytes]]:
	"""The images among a run's attachments, read from their File records for this run's message."""
	images = []
	for item in attachments:
		if item.get("image"):
			content = frappe.get_doc("File", item["file"]).get_content() or b""
			images.append((item["file_name"], content.encode() if isinstance(content, str) else content))
	return images


def shown(raw_payload) -> list[dict]:
	"""What the chat shows of a message's attachments: names and addresses, not their text."""
	if not raw_payload:
		return []
	payload = raw_payload if isinstance(raw_payload, dict) else json.loads(raw_payload)
	return [{"file": a["file"], "file_name": a["file_name"], "file_url": a["file_url"]} for a in payload.get("attachments") or []]
