"""Custom Function and App Provided tools: a Python function an admin (or an app) named."""

from __future__ import annotations

import json

import frappe


def call_function(function_path: str, args: dict, as_json: bool = False):
	"""Call the function at ``function_path`` (set on the tool by an admin, never by the model)."""
	function = frappe.get_attr(function_path)
	if as_json:
		return function(json.dumps(args))
	return function(**args)
