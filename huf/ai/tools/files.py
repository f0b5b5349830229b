"""The File a tool may open: named by its ID or its address, and readable by the run's user."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.engine.tools import ToolError


class FileRefused(ToolError):
	"""The file is there, and the current user may not read it."""


def readable_file(file_id: str | None, file_url: str | None):
	"""The File named ``file_id`` or at ``file_url`` (/files/... or /private/files/...), when the
	current user may read it. Several File records can share an address (one per document it is
	attached to): the newest one this user may read is used. ToolError otherwise."""
	if not file_id and not file_url:
		raise ToolError(_("Pass file_id (preferred) or file_url."))
	if file_id:
		names = [file_id] if frappe.db.exists("File", file_id) else []
	else:
		url = file_url.strip()
		url = (
			url[url.index("/private/files/") :]
			if "/private/files/" in url
			else (url[url.index("/files/") :] if "/files/" in url else url)
		)
		names = frappe.get_all("File", filters={"file_url": url}, pluck="name", order_by="creation desc")
	if not names:
		raise ToolError(_("There is no file {0} on this site.").format(file_id or file_url))
	for name in names:
		file = frappe.get_doc("File", name)
		if file.has_permission("read"):
			if file.is_folder:
				raise ToolError(_("{0} is a folder, not a file.").format(file.file_name))
			return file
	raise FileRefused(_("You may not read the file {0}.").format(file.file_name or file_id or file_url))
