"""Custom Function and App Provided tools: a Python function an admin (or an app) named.

Which functions a tool may call (checked when the tool is saved or synced, and again at every call):
- a plain Python function (``def``), named as ``<module path>.<function>``, and defined in that same
  app's package: ``my_app.api.get_stock_level`` where ``my_app`` is an app installed on this site;
  a name re-exported from elsewhere (``my_app.utils.system = os.system``) is refused;
- not the standard library nor any other package that is not an installed app;
- not Frappe itself (no Frappe function is on the allow-list: the document tool types cover Frappe);
- not Huf itself, except Huf's own tool functions (``HUF_TOOL_FUNCTIONS``; a path one of them had
  before it moved is followed to where it is now, ``builtin.MOVED_FUNCTIONS``);
- for App Provided tools, only a function of the app that declared the tool (``provider_app``).
"""

from __future__ import annotations

import importlib
import inspect
import json
import re

import frappe
from frappe import _

from huf.ai.tools.builtin import BUILTIN_TOOLS, MOVED_FUNCTIONS

FUNCTION_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
HUF_TOOL_FUNCTIONS = frozenset(tool["function_path"] for tool in BUILTIN_TOOLS)
ALLOWED_SHAPE = (
	"A tool can call a plain Python function defined in an app installed on this site, written as "
	"app.module.function (e.g. my_app.api.get_stock_level). Functions of Python's standard library, of "
	"Frappe and of Huf (other than Huf's own tools) are not allowed."
)


class FunctionNotAllowed(frappe.ValidationError):
	pass


def call_function(function_path: str, args: dict, as_json: bool = False, provider_app: str | None = None):
	"""Call the function at ``function_path`` (set on the tool by an admin, never by the model),
	checked again now: the code behind the path may have changed since the tool was saved."""
	function = allowed_function(function_path, provider_app)
	if as_json:
		return function(json.dumps(args))
	return function(**args)


def allowed_function(function_path: str | None, provider_app: str | None = None):
	"""The function at ``function_path`` when a tool may call it; FunctionNotAllowed saying why not.
	``provider_app``: for App Provided tools, the app that declared the tool."""
	path = (function_path or "").strip()
	path = MOVED_FUNCTIONS.get(path, path)
	if not FUNCTION_PATH.match(path):
		_refuse(_("{0} is not a dotted path to a Python function.").format(frappe.bold(path)))
	module_name, attribute = path.rsplit(".", 1)
	app = path.split(".", 1)[0]
	if app not in frappe.get_installed_apps() or app == "frappe":
		_refuse(_("{0} is not part of an app installed on this site.").format(frappe.bold(path)))
	if app == "huf" and path not in HUF_TOOL_FUNCTIONS:
		_refuse(_("{0} is one of Huf's own internal functions, not a tool.").format(frappe.bold(path)))
	if provider_app is not None and app != provider_app:
		_refuse(_("{0} is not part of the app {1} that declares the tool.").format(frappe.bold(path), frappe.bold(provider_app)))
	try:
		module = importlib.import_module(module_name)
	except Exception as error:  # noqa: BLE001 - any import failure is the admin's to fix; say which
		_refuse(
			_("Huf could not load the module {0} ({1}). Check the path and that its app is installed on this site.").format(
				frappe.bold(module_name), f"{type(error).__name__}: {error}"
			)
		)
	function = getattr(module, attribute, None)
	if not inspect.isfunction(function):
		_refuse(_("{0} is not a Python function (a def) in {1}.").format(frappe.bold(attribute), frappe.bold(module_name)))
	if (function.__module__ or "").split(".", 1)[0] != app:
		_refuse(
			_("{0} is defined in {1}, not in the app {2}.").format(frappe.bold(path), frappe.bold(function.__module__), frappe.bold(app))
		)
	return function


def _refuse(reason: str):
	frappe.throw(f"{reason} {_(ALLOWED_SHAPE)}", FunctionNotAllowed, title=_("Function Not Allowed"))
