"""JSON schemas for tools, from parameter rows or from a Python function (no Frappe here)."""

from __future__ import annotations

import inspect
import re
from typing import Any, Callable, Iterable, Mapping

JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object"}
PY_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}


def object_schema(properties: dict[str, dict], required: Iterable[str] = ()) -> dict:
	schema: dict[str, Any] = {"type": "object", "properties": properties}
	required = [name for name in required if name in properties]
	if required:
		schema["required"] = required
	return schema


def schema_from_params(rows: Iterable[Mapping]) -> dict:
	"""Agent Function Params rows (fieldname, type, required, description, options) -> object schema."""
	properties, required = {}, []
	for row in rows:
		name = (row.get("fieldname") or "").strip()
		if not name:
			continue
		kind = row.get("type") if row.get("type") in JSON_TYPES else "string"
		prop: dict[str, Any] = {"type": kind}
		if row.get("description"):
			prop["description"] = row["description"]
		options = [line.strip() for line in (row.get("options") or "").splitlines() if line.strip()]
		if options and kind in ("string", "integer", "number"):
			prop["enum"] = [_as(kind, option) for option in options]
		if kind == "array":
			prop["items"] = {"type": "object"} if row.get("child_table_name") else {}
		properties[name] = prop
		if row.get("required"):
			required.append(name)
	return object_schema(properties, required)


def schema_from_callable(function: Callable) -> tuple[str, dict]:
	"""(description, parameters) from a function's signature and docstring.

	Uses the OpenAI Agents SDK's ``function_schema`` (type hints, Google/Sphinx/NumPy docstrings)
	when it is installed, and a plain signature reading otherwise."""
	try:
		from agents.function_schema import function_schema

		schema = function_schema(function, strict_json_schema=False)
		return schema.description or "", _clean(schema.params_json_schema)
	except ImportError:
		return _from_signature(function)


def _from_signature(function: Callable) -> tuple[str, dict]:
	doc = inspect.getdoc(function) or ""
	properties, required = {}, []
	for name, param in inspect.signature(function).parameters.items():
		if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
			continue
		prop: dict[str, Any] = {}
		kind = PY_TYPES.get(param.annotation)
		if kind:
			prop["type"] = kind
		described = re.search(rf"^\s*{re.escape(name)}\s*(\([^)]*\))?\s*:\s*(.+)$", doc, re.M)
		if described:
			prop["description"] = described.group(2).strip()
		properties[name] = prop
		if param.default is inspect.Parameter.empty:
			required.append(name)
	return doc.split("\n\n")[0].strip(), object_schema(properties, required)


def _clean(schema: dict) -> dict:
	"""Drop pydantic's titles: they cost tokens and tell the model nothing."""
	if isinstance(schema, dict):
		return {
			key: {name: _clean(prop) for name, prop in value.items()} if key == "properties" else _clean(value)
			for key, value in schema.items()
			if key != "title"
		}
	if isinstance(schema, list):
		return [_clean(item) for item in schema]
	return schema


def _as(kind: str, value: str):
	try:
		return int(value) if kind == "integer" else float(value) if kind == "number" else value
	except ValueError:
		return value
