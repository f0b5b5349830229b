"""Media the tools make, kept as private Files: attached to the run's conversation (so whoever may
read the conversation may read them, and nobody else), owned by the run's user, and given to the
model as a small reference, never as the bytes."""

from __future__ import annotations

import frappe

from huf.ai.engine.media import Media


def save(media: Media, kind: str, stem: str, conversation: str | None = None) -> dict:
	"""A private File of ``media`` (owned by the session's user); the reference the model reads."""
	name = f"{stem}-{frappe.generate_hash(length=8)}.{media.extension}"
	file = frappe.get_doc(
		{
			"doctype": "File",
			"file_name": name,
			"content": media.data,
			"is_private": 1,
			"attached_to_doctype": "Agent Conversation" if conversation else None,
			"attached_to_name": conversation or None,
		}
	)
	file.flags.ignore_permissions = True  # the tool decides; the File's owner is the run's user
	file.insert()
	return {"file_url": file.file_url, "file_name": file.file_name, "kind": kind, "content_type": media.content_type, "size": len(media.data)}
