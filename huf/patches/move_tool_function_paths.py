"""Tools that name one of Huf's tool functions by the path it had before it moved
(``huf.ai.tools.builtin.MOVED_FUNCTIONS``, e.g. ``huf.ai.sdk_tools.handle_ocr_document``) are
rewritten to name where it lives now. Old paths would still work; this keeps the form honest."""

import frappe

from huf.ai.tools.builtin import MOVED_FUNCTIONS


def execute():
	for old, new in MOVED_FUNCTIONS.items():
		frappe.db.sql("update `tabAgent Tool Function` set function_path = %s where function_path = %s", (new, old))
