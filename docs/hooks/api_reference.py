"""The API reference, made from the code each time the docs are built, so it cannot drift.

``collect()`` reads every ``huf/**/*.py`` with ``ast`` (nothing is imported: not Frappe, not Huf)
and finds each function decorated with ``frappe.whitelist`` (``@frappe.whitelist``,
``@frappe.whitelist(...)`` or ``@whitelist(...)``). For each it keeps the dotted path, the HTTP
methods and ``allow_guest`` the decorator gives, the arguments with their annotations and defaults,
the docstring, and the capability it checks: ``@needs("...")`` on the function, ``@open_to("...")``
(the reason a Guest may reach it), and the string literals passed to ``require(...)`` /
``has_capability(...)`` / ``check_capability(...)`` in its body. A name a module imports from
another module's whitelisted function without using it (a re-export, e.g.
``huf.ai.flow.api.flow_webhook``) is a second address of the same method.

``pages()`` turns that into Markdown: ``reference/index.md`` (every method in one table) and one
page per module. As a MkDocs hook (``hooks:`` in mkdocs.yml) ``on_config`` puts the module pages
under the Reference entry of the nav and ``on_files`` adds the pages to the build; nothing is
written into docs/. ``tests/engine/house/test_api_reference.py`` runs ``collect()`` on the real tree.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDER = "reference"
NAV_TITLE = "Reference"
CHECK_CALLS = {"require": "checked", "check_capability": "checked", "has_capability": "asked"}
FRAPPE_DEFAULT_METHODS = ("GET", "POST", "PUT", "DELETE")  # frappe.whitelist(methods=None)
WHO_PAGE = "../who-may-do-what.md"


@dataclass
class Argument:
	name: str
	annotation: str | None = None
	default: str | None = None  # the default as written; None: required
	kind: str = "plain"  # plain, *args, **kwargs

	def signature(self) -> str:
		text = {"*args": "*", "**kwargs": "**"}.get(self.kind, "") + self.name
		if self.annotation:
			text += f": {self.annotation}"
		if self.default is not None:
			text += f" = {self.default}" if self.annotation else f"={self.default}"
		return text


@dataclass
class Method:
	module: str
	name: str
	file: str  # relative to the repository
	line: int
	http_methods: tuple[str, ...] | None  # None: Frappe's default (every method)
	allow_guest: bool
	arguments: list[Argument]
	returns: str | None
	docstring: str
	needs: list[str] = field(default_factory=list)  # @needs(...)
	open_to: str | None = None  # @open_to(...): why a Guest may reach it
	checked: list[str] = field(default_factory=list)  # require(...) in the body
	asked: list[str] = field(default_factory=list)  # has_capability(...) in the body: behaves differently
	also_at: list[str] = field(default_factory=list)  # re-exports

	@property
	def dotted(self) -> str:
		return f"{self.module}.{self.name}"

	@property
	def address(self) -> str:
		return f"/api/method/{self.dotted}"

	@property
	def capabilities(self) -> list[str]:
		"""Every capability the function names as a check (decorator first, then its body)."""
		return list(dict.fromkeys(self.needs + self.checked))


# --- reading the code -------------------------------------------------------------------------


def _module_name(path: Path, root: Path) -> str:
	parts = list(path.relative_to(root).with_suffix("").parts)
	if parts[-1] == "__init__":
		parts.pop()
	return ".".join(parts)


def _called(node: ast.expr) -> str | None:
	"""The last name of what a decorator or call refers to: ``frappe.whitelist(...)`` -> whitelist."""
	if isinstance(node, ast.Call):
		node = node.func
	if isinstance(node, ast.Attribute):
		return node.attr
	if isinstance(node, ast.Name):
		return node.id
	return None


def _literal(node: ast.expr):
	try:
		return ast.literal_eval(node)
	except ValueError:
		return None


def _strings(call: ast.Call) -> list[str]:
	return [arg.value for arg in call.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]


def _arguments(args: ast.arguments) -> list[Argument]:
	found: list[Argument] = []
	positional = args.posonlyargs + args.args
	defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
	for arg, default in zip(positional, defaults):
		found.append(Argument(arg.arg, _unparse(arg.annotation), _unparse(default)))
	if args.vararg:
		found.append(Argument(args.vararg.arg, _unparse(args.vararg.annotation), kind="*args"))
	for arg, default in zip(args.kwonlyargs, args.kw_defaults):
		found.append(Argument(arg.arg, _unparse(arg.annotation), _unparse(default)))
	if args.kwarg:
		found.append(Argument(args.kwarg.arg, _unparse(args.kwarg.annotation), kind="**kwargs"))
	return found


def _unparse(node: ast.AST | None) -> str | None:
	return None if node is None else ast.unparse(node)


def _method(module: str, file: str, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Method | None:
	whitelist = next((d for d in fn.decorator_list if _called(d) == "whitelist"), None)
	if whitelist is None:
		return None
	options = {kw.arg: _literal(kw.value) for kw in whitelist.keywords} if isinstance(whitelist, ast.Call) else {}
	methods = options.get("methods")
	method = Method(
		module=module,
		name=fn.name,
		file=file,
		line=fn.lineno,
		http_methods=tuple(m.upper() for m in ([methods] if isinstance(methods, str) else methods)) if methods else None,
		allow_guest=bool(options.get("allow_guest")),
		arguments=_arguments(fn.args),
		returns=_unparse(fn.returns),
		docstring=ast.get_docstring(fn) or "",
	)
	for decorator in fn.decorator_list:
		name = _called(decorator)
		if name == "needs" and isinstance(decorator, ast.Call):
			method.needs += _strings(decorator)
		elif name == "open_to" and isinstance(decorator, ast.Call) and decorator.args:
			reason = _literal(decorator.args[0])
			method.open_to = reason if isinstance(reason, str) else ast.unparse(decorator.args[0])
	for statement in fn.body:
		for node in ast.walk(statement):
			if isinstance(node, ast.Call) and _called(node) in CHECK_CALLS:
				found = getattr(method, CHECK_CALLS[_called(node)])
				found += [s for s in _strings(node) if s not in found]
	return method


def _python_files(root: Path) -> list[Path]:
	return sorted(p for p in (root / "huf").rglob("*.py") if "__pycache__" not in p.parts)


def collect(root: Path = ROOT) -> list[Method]:
	"""Every whitelisted module-level function under ``root/huf``, by dotted path, re-exports noted."""
	found: dict[str, Method] = {}
	trees: dict[str, ast.Module] = {}
	for path in _python_files(root):
		module = _module_name(path, root)
		tree = trees[module] = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
		for node in tree.body:
			if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
				method = _method(module, str(path.relative_to(root)), node)
				if method:
					found[method.dotted] = method
	for module, tree in trees.items():
		for alias_path, target in _reexports(module, tree):
			if target in found:
				found[target].also_at.append(alias_path)
	return sorted(found.values(), key=lambda m: (m.module, m.line))


def _reexports(module: str, tree: ast.Module) -> list[tuple[str, str]]:
	"""(this module's dotted name for it, the imported function's dotted path) for each name the
	module imports at its top level and never uses itself: it is there to be reached at this path."""
	used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
	package = module.split(".")
	found = []
	for node in tree.body:
		if not isinstance(node, ast.ImportFrom) or not node.module and not node.level:
			continue
		base = node.module or ""
		if node.level:  # relative: from .webhook import x (inside a package, __init__ counts as the package)
			base = ".".join(package[: len(package) - node.level] + ([base] if base else []))
		for alias in node.names:
			local = alias.asname or alias.name
			if local not in used:
				found.append((f"{module}.{local}", f"{base}.{alias.name}"))
	return found


def nested_whitelisted(root: Path = ROOT) -> list[str]:
	"""Whitelisted functions that are not at a module's top level (a Document's methods, reached
	through ``run_doc_method``, not ``/api/method``): the reference does not list these yet."""
	nested = []
	for path in _python_files(root):
		tree = ast.parse(path.read_text(encoding="utf-8"))
		top = {id(node) for node in tree.body}
		for node in ast.walk(tree):
			if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and id(node) not in top:
				if any(_called(d) == "whitelist" for d in node.decorator_list):
					nested.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
	return nested


def known_capabilities(root: Path = ROOT) -> dict[str, str]:
	"""``CAPABILITIES`` of huf/capabilities.py (name -> what it allows), read without importing it."""
	tree = ast.parse((root / "huf" / "capabilities.py").read_text(encoding="utf-8"))
	for node in tree.body:
		target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
		if isinstance(target, ast.Name) and target.id == "CAPABILITIES" and node.value is not None:
			return ast.literal_eval(node.value)
	return {}


# --- writing the pages ------------------------------------------------------------------------

_CODE = re.compile(r"(``.+?``|`[^`]+`)")


def _text(docstring: str) -> str:
	"""A docstring as Markdown: code spans kept, ``<``, ``>`` and ``*`` outside them escaped."""
	parts = _CODE.split(docstring)
	for i in range(0, len(parts), 2):
		parts[i] = parts[i].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("*", r"\*")
	return "".join(parts)


def _cell(text: str) -> str:
	"""Text for a table cell: a pipe outside a code span would end the cell (inside one it does not)."""
	parts = _CODE.split(text)
	for i in range(0, len(parts), 2):
		parts[i] = parts[i].replace("|", r"\|")
	return "".join(parts)


def _http(method: Method) -> str:
	return ", ".join(method.http_methods) if method.http_methods else f"{', '.join(FRAPPE_DEFAULT_METHODS)} (Frappe's default)"


def _capability_cell(method: Method, link: str) -> str:
	caps = [f"[`{c}`]({link}#capabilities)" for c in method.capabilities]
	if method.open_to is not None:
		return "open" + (f"; signed-in callers: {', '.join(caps)}" if caps else "")
	return ", ".join(caps) or "none found"


def signature(method: Method) -> str:
	"""``name(a: str, b=None) -> dict``; one argument per line when that would be long."""
	arguments = [a.signature() for a in method.arguments]
	returns = f" -> {method.returns}" if method.returns else ""
	one_line = f"{method.name}({', '.join(arguments)}){returns}"
	if len(one_line) <= 90:
		return one_line
	return f"{method.name}(\n" + "".join(f"    {a},\n" for a in arguments) + f"){returns}"


def page_name(module: str) -> str:
	return f"{FOLDER}/{module}.md"


def module_page(module: str, methods: list[Method], capabilities: dict[str, str], aliases: list[tuple[str, Method]] = ()) -> str:
	"""``aliases``: (name here, the method) for what this module re-exports from another one."""
	where = f"`{methods[0].file}`: {len(methods)} whitelisted {'method' if len(methods) == 1 else 'methods'}" if methods else "Re-exports only"
	lines = [
		f"# {module}",
		"",
		f"{where}. This page is made from the code when the docs are built ([how](index.md#how-this-reference-is-made)).",
		"",
	]
	for name, method in aliases:
		lines += [
			f"## {name} {{#{name}}}",
			"",
			f"`/api/method/{module}.{name}`",
			"",
			f"The same method as [`{method.dotted}`]({method.module}.md#{method.name}), imported here so it can "
			"be reached at this address too.",
			"",
		]
	for method in methods:
		lines += [f"## {method.name} {{#{method.name}}}", ""]
		rows = [("Dotted path", f"`{method.dotted}`"), ("HTTP methods", _http(method))]
		if method.also_at:
			rows.append(("Also at", ", ".join(f"`/api/method/{path}`" for path in method.also_at)))
		rows.append(("Guests", "allowed (`allow_guest=True`)" if method.allow_guest else "no: sign in, or send `Authorization: token <key>:<secret>`"))
		if method.open_to is not None:
			rows.append(("Open to", _text(method.open_to)))
		for capability in method.needs:
			rows.append(("Needs", f"[`{capability}`]({WHO_PAGE}#capabilities) (`@needs`, checked before the body runs): {capabilities.get(capability, 'not a known capability')}"))
		for capability in method.checked:
			if capability not in method.needs:
				rows.append(("Checks", f"[`{capability}`]({WHO_PAGE}#capabilities) in its body (`require`): {capabilities.get(capability, 'not a known capability')}"))
		for capability in method.asked:
			rows.append(("Asks", f"[`{capability}`]({WHO_PAGE}#capabilities) (`has_capability`): the answer depends on whether the caller holds it"))
		rows.append(("Source", f"`{method.file}`, line {method.line}"))
		lines += ["| Address | `" + method.address + "` |", "| :--- | :--- |"] + [f"| {key} | {_cell(value)} |" for key, value in rows] + [""]
		lines += ["```python", signature(method), "```", ""]
		if method.arguments:
			lines += ["| Argument | Type | Default |", "| :--- | :--- | :--- |"]
			for arg in method.arguments:
				name = {"*args": "*", "**kwargs": "**"}.get(arg.kind, "") + arg.name
				default = "any other arguments" if arg.kind != "plain" else (f"`{arg.default}`" if arg.default is not None else "required")
				lines.append(f"| `{name}` | {_cell(f'`{arg.annotation}`') if arg.annotation else ''} | {_cell(default)} |")
			lines.append("")
		if method.docstring:
			lines += [_text(method.docstring), ""]
	return "\n".join(lines)


def index_page(methods: list[Method]) -> str:
	modules = modules_of(methods)
	lines = [
		"# Reference: every whitelisted method",
		"",
		f"Huf has **{len(methods)}** whitelisted methods in {len(modules)} modules. Each is called at "
		"`/api/method/<dotted path>`, signed in (with the session's CSRF token in `X-Frappe-CSRF-Token`) or "
		"with an `Authorization: token <api_key>:<api_secret>` header, or from Python with "
		"`frappe.call(\"<dotted path>\", **arguments)`. A caller without the capability a method needs gets "
		"`403` naming it (see [Who may do what](../who-may-do-what.md)). HTTP **any** is Frappe's default: "
		"GET, POST, PUT or DELETE.",
		"",
		"| Method | HTTP | Capability |",
		"| :--- | :--- | :--- |",
	]
	rows = [(m.dotted, m) for m in methods] + [(path, m) for m in methods for path in m.also_at]
	for dotted, method in sorted(rows, key=lambda row: row[0]):
		link = f"{method.module}.md#{method.name}"
		http = ", ".join(method.http_methods) if method.http_methods else "any"
		same = f" (= `{method.dotted}`)" if dotted != method.dotted else ""
		lines.append(f"| [`{dotted}`]({link}){same} | {http} | {_capability_cell(method, WHO_PAGE)} |")
	lines += [
		"",
		"## How this reference is made",
		"",
		"Nothing here is written by hand. When the docs are built, `docs/hooks/api_reference.py` reads "
		"every `huf/**/*.py` file with Python's `ast` module (it imports neither Frappe nor Huf), finds each "
		"function decorated with `frappe.whitelist`, and writes these pages: the HTTP methods and "
		"`allow_guest` from the decorator; the capability from `@needs(\"...\")`, or the reason in "
		"`@open_to(\"...\")` for the few methods a Guest may reach, plus the capabilities the body passes "
		"to `require(...)` and `has_capability(...)`; the arguments with their types and defaults; and the "
		"docstring. Ownership checks a method makes through helpers (whose conversation, run or flow run) "
		"are in its docstring, not in the table. A name one module imports from another and never uses "
		"itself is listed as a second address (**Also at**). `tests/engine/house/test_api_reference.py` checks "
		"the generator finds the methods it should.",
		"",
	]
	return "\n".join(lines)


def pages(root: Path = ROOT) -> dict[str, str]:
	"""src path under docs/ -> Markdown, for the index and one page per module."""
	methods = collect(root)
	capabilities = known_capabilities(root)
	by_module: dict[str, list[Method]] = {}
	aliases: dict[str, list[tuple[str, Method]]] = {}
	for method in methods:
		by_module.setdefault(method.module, []).append(method)
		for path in method.also_at:
			module, name = path.rsplit(".", 1)
			aliases.setdefault(module, []).append((name, method))
	made = {f"{FOLDER}/index.md": index_page(methods)}
	for module in modules_of(methods):
		made[page_name(module)] = module_page(module, by_module.get(module, []), capabilities, aliases.get(module, []))
	return made


def modules_of(methods: list[Method]) -> list[str]:
	"""Every module with a page: those defining whitelisted methods and those re-exporting one."""
	return sorted({m.module for m in methods} | {path.rsplit(".", 1)[0] for m in methods for path in m.also_at})


# --- MkDocs hooks ---------------------------------------------------------------------------


def on_config(config):
	"""The Reference entry of the nav (``- Reference: reference/index.md``) gets a page per module."""
	modules = modules_of(collect())
	entries = [{"All methods": f"{FOLDER}/index.md"}] + [{module: page_name(module)} for module in modules]
	for item in config["nav"] or []:
		if isinstance(item, dict) and NAV_TITLE in item:
			item[NAV_TITLE] = entries
	return config


def on_files(files, config):
	from mkdocs.structure.files import File

	for src_uri, content in pages().items():
		files.append(File.generated(config, src_uri, content=content))
	return files
