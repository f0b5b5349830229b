"""Agents, tools, prompts, knowledge sources, triggers and flows that installed apps ship as JSON.

Layout: every installed app's ``huf/`` folder inside its Python package (``frappe.get_app_path(app,
"huf")``, the folder the static hints already live in, ``<app>/huf/hints/``). For Huf itself that is
``huf/huf/``, its Frappe module folder: the seed folders sit beside ``doctype/`` and ``hints/``, and
only the six folders below are read as seeds. Each ``.json`` file holds one record (an object) or a
list of them; files are read in name order, folders in dependency order:

	prompts/ (Agent Prompt) -> tools/ -> knowledge/ -> agents/ -> triggers/ -> flows/

across all apps (every app's tools before any app's agents). A record's key is its naming field
(``tool_name``, ``agent_name``, ``source_name``, ``trigger_name``, ``flow_id``; a prompt's ``slug``).

JSON only: nothing in a seed file is ever run. Records go through the documents' own validation
(``ignore_permissions``: it runs as the system, at install and migrate), so a tool's
``function_path`` meets the same Custom Function allow-list as one an admin saves.

Tracking: one Huf Seed Record per seeded record (app, file, key, the record as the file gave it and
two hashes: of the app's version and of the seeded fields as they were right after writing).
- The app's version unchanged: nothing is read beyond the files and the tracking rows, nothing
  written (a second migrate writes nothing).
- The app's version changed: the record is updated, unless its seeded fields no longer match what
  was written (someone edited it): then it is left alone and reported "changed from the app's
  version" (``get_seeded_content``) until an admin takes the app's version back
  (``restore_app_version``). A seeded record someone deleted is not made again either.
- A record that already exists and did not come from this app's seed is left alone (and logged).

A bad file (invalid JSON, a record that is not an object, a folder Huf does not know, a record of
another DocType, one that fails validation) is skipped with an Error Log naming the app, the file and
the key; everything else still seeds. The same problem is logged once (not again on every migrate).

An agent with no ``model`` gets the site's first enabled AI Model (and its provider); on a site with
none yet, it waits (reported, not an error) and is seeded as soon as the site's first model is saved
(``after_first_model``, from AI Model's ``on_update``), or by the next migrate or Seed all apps. A
folder whose DocType is not on this site (``prompts/`` before Agent Prompt exists) is skipped with a
note.

A knowledge source's record may carry ``inputs``: passages (``{"title", "text"}``) added as Text
inputs when the source is made, and indexed the usual way. They are the site's from then on: a new
version of the file changes the source's fields, never its inputs.

Examples: an app's ``huf/examples/`` holds the same folders, read only once someone adds them
(``seed(apps, examples=[app])``: huf/examples for Huf's own, from the web app's first screen or
``bench execute huf.examples.seed``). From then on they are kept like the rest (migrate updates an
unedited one, fills an example agent's model), tracked with files named ``examples/<folder>/...``.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field

import frappe
from frappe import _
from frappe.model import table_fields
from frappe.utils import cint, flt

from huf.capabilities import needs

TRACK = "Huf Seed Record"
FOLDERS = (
	("prompts", "Agent Prompt"),
	("tools", "Agent Tool Function"),
	("knowledge", "Knowledge Source"),
	("agents", "Agent"),
	("triggers", "Agent Trigger"),
	("flows", "Flow Definition"),
)
DOCTYPE_OF = dict(FOLDERS)
EXAMPLES = "examples"  # an app's huf/examples/: the same folders, seeded once someone adds them
# Folders of an app's huf/ that are not seeds (read every time): the schema tool's hints, (Huf's own
# huf/ is its Frappe module folder) Frappe's doctype folder, and the examples, read on request.
NOT_SEEDS = frozenset({"hints", "doctype", "__pycache__", EXAMPLES})
NEVER_SEEDED = frozenset({"doctype", "name", "owner", "creation", "modified", "modified_by", "docstatus", "idx"})


@dataclass
class Seed:
	app: str
	file: str  # relative to the app's huf/ folder, e.g. agents/helper.json or examples/agents/site_helper.json
	doctype: str
	key: str
	record: dict
	app_hash: str
	inputs: list[dict] = field(default_factory=list)  # a knowledge source's passages, added when it is made


@dataclass
class Report:
	created: list[str] = field(default_factory=list)
	updated: list[str] = field(default_factory=list)
	unchanged: int = 0
	kept: list[str] = field(default_factory=list)  # edited (or deleted) by someone: not overwritten
	waiting: list[str] = field(default_factory=list)  # an agent waiting for an AI Model
	skipped: list[str] = field(default_factory=list)  # bad files and records, each in the Error Log
	notes: list[str] = field(default_factory=list)

	def as_dict(self) -> dict:
		return {
			"created": self.created, "updated": self.updated, "unchanged": self.unchanged, "kept": self.kept,
			"waiting": self.waiting, "skipped": self.skipped, "notes": self.notes,
		}  # fmt: skip


# Reading the apps' files ---------------------------------------------------------------------------


def seed_root(app: str) -> str | None:
	"""The app's ``huf/`` folder, when it has one."""
	try:
		root = frappe.get_app_path(app, "huf")
	except Exception:  # noqa: BLE001 - an app listed as installed that this bench cannot import
		return None
	return root if os.path.isdir(root) else None


def read_apps(
	apps: list[str] | None = None, examples: set[str] | list[str] = ()
) -> tuple[list[Seed], list[tuple[str, str, str | None, str]], list[str]]:
	"""(seeds in dependency order, problems as (app, file, key, what), notes). ``examples``: the apps
	whose huf/examples/ is read too."""
	per_folder: dict[str, list[Seed]] = {folder: [] for folder, _doctype in FOLDERS}
	problems: list[tuple[str, str, str | None, str]] = []
	notes: list[str] = []
	for app in apps if apps is not None else frappe.get_installed_apps():
		root = seed_root(app)
		if not root:
			continue
		parts = [""] + ([EXAMPLES] if app in examples and os.path.isdir(os.path.join(root, EXAMPLES)) else [])
		for part in parts:
			_read_part(app, root, part, per_folder, problems, notes)
	return [seed for folder, _doctype in FOLDERS for seed in per_folder[folder]], problems, notes


def _read_part(app: str, root: str, part: str, per_folder: dict, problems: list, notes: list) -> None:
	"""The seed folders of ``root`` (part "") or of its ``part`` subfolder (examples)."""
	base = os.path.join(root, part) if part else root
	prefix = f"{part}/" if part else ""
	for entry in sorted(os.listdir(base)):
		path = os.path.join(base, entry)
		if not os.path.isdir(path) or entry in NOT_SEEDS or entry in DOCTYPE_OF:
			continue
		for name in sorted(os.listdir(path)):
			if name.endswith(".json"):
				problems.append(
					(app, f"{prefix}{entry}/{name}", None, f"huf/{prefix}{entry}/ is not a folder Huf seeds from (it knows {', '.join(DOCTYPE_OF)})")
				)
	for folder, doctype in FOLDERS:
		path = os.path.join(base, folder)
		if not os.path.isdir(path):
			continue
		files = sorted(name for name in os.listdir(path) if name.endswith(".json"))
		if not files:
			continue
		if not _doctype_exists(doctype):
			notes.append(_("{0}/huf/{1}/ skipped: this site has no DocType {2} yet.").format(app, prefix + folder, doctype))
			continue
		for name in files:
			found, bad = read_file(app, folder, os.path.join(path, name), prefix)
			per_folder[folder] += found
			problems += bad


def read_file(app: str, folder: str, path: str, prefix: str = "") -> tuple[list[Seed], list[tuple[str, str, str | None, str]]]:
	doctype = DOCTYPE_OF[folder]
	relative = f"{prefix}{folder}/{os.path.basename(path)}"
	try:
		with open(path, encoding="utf-8") as handle:
			content = json.load(handle)
	except (OSError, ValueError) as error:
		return [], [(app, relative, None, f"not valid JSON: {error}")]
	records = content if isinstance(content, list) else [content]
	key_field = naming_field(doctype)
	seeds, problems = [], []
	for position, record in enumerate(records, 1):
		if not isinstance(record, dict):
			problems.append((app, relative, None, f"item {position} is not a JSON object"))
			continue
		key = record.get(key_field)
		if not isinstance(key, str) or not key.strip():
			problems.append((app, relative, None, f"item {position} has no {key_field} (its key)"))
			continue
		if record.get("doctype", doctype) != doctype:
			problems.append((app, relative, key, f"the record is a {record['doctype']}, but huf/{folder}/ holds {doctype} records"))
			continue
		record = {k: v for k, v in record.items() if k not in NEVER_SEEDED}
		app_hash = digest(record)  # a change to the passages is a new version of the record too
		inputs = record.pop("inputs", None) if doctype == "Knowledge Source" else None
		if inputs is not None and not _passages(inputs):
			problems.append((app, relative, key, 'inputs must be a list of passages, each {"title": ..., "text": ...} with some text'))
			continue
		seeds.append(Seed(app, relative, doctype, key.strip(), record, app_hash, inputs or []))
	return seeds, problems


def _passages(inputs) -> bool:
	return isinstance(inputs, list) and all(
		isinstance(p, dict) and isinstance(p.get("text"), str) and p["text"].strip() and isinstance(p.get("title", ""), str) for p in inputs
	)


KEY_FIELDS = {"Agent Prompt": "slug"}  # named by their controller, from this field


def naming_field(doctype: str) -> str:
	if doctype in KEY_FIELDS:
		return KEY_FIELDS[doctype]
	autoname = frappe.get_meta(doctype).autoname or ""
	return autoname[len("field:") :] if autoname.startswith("field:") else "name"


def _doctype_exists(doctype: str) -> bool:
	return bool(frappe.db.exists("DocType", doctype))


def digest(value) -> str:
	return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


# Seeding -------------------------------------------------------------------------------------------


def seed(apps: list[str] | None = None, examples: list[str] | None = None) -> Report:
	"""Seed every installed app's huf/ folder (or only ``apps``), and the huf/examples/ of the apps in
	``examples`` (None: those whose examples were added on this site); see the module's docstring."""
	report = Report()
	seeds, problems, notes = read_apps(apps, added_examples() if examples is None else examples)
	report.notes += notes
	for app, file, key, what in problems:
		_skip(report, app, file, key, what)
	if not seeds:
		return report
	tracked = {
		(row.app, row.reference_doctype, row.seed_key): row
		for row in frappe.get_all(
			TRACK, fields=["name", "app", "reference_doctype", "reference_name", "seed_key", "app_hash", "record_hash", "seeded_fields"]
		)
	}
	default_model: list = []  # looked up once, when an agent needs it
	for item in seeds:
		row = tracked.get((item.app, item.doctype, item.key))
		if row and row.app_hash == item.app_hash:
			report.unchanged += 1
			continue
		label = f"{item.doctype} {item.key} ({item.app}/huf/{item.file})"
		fill = _filled(item, default_model)
		if fill is None:
			report.waiting.append(label)
			continue
		if row is None:
			if frappe.db.exists(item.doctype, item.key):
				_skip(report, item.app, item.file, item.key, f"a {item.doctype} named {item.key} already exists and did not come from this app; it was left as it is")
				continue
			error = _write(item, fill, None)
			if error:
				_skip(report, item.app, item.file, item.key, error)
			else:
				report.created.append(label)
			continue
		if not frappe.db.exists(item.doctype, row.reference_name):
			report.kept.append(label + ": deleted on this site")
			continue
		if edited(row):
			report.kept.append(label + ": changed from the app's version")
			continue
		error = _write(item, fill, row)
		if error:
			_skip(report, item.app, item.file, item.key, error)
		else:
			report.updated.append(label)
	return report


def added_examples() -> set[str]:
	"""The apps whose examples someone added on this site (a record tracked from huf/examples/)."""
	return set(frappe.get_all(TRACK, filters={"seed_file": ("like", f"{EXAMPLES}/%")}, pluck="app", distinct=True))


def _filled(item: Seed, default_model: list) -> dict | None:
	"""Values the site supplies (an agent's model); None when the record must wait for them."""
	if item.doctype != "Agent":
		return {}
	if item.record.get("model"):
		return {} if item.record.get("provider") else {"provider": frappe.db.get_value("AI Model", item.record["model"], "provider")}
	if not default_model:
		default_model.append(
			frappe.db.get_value("AI Model", {"disabled": 0}, ["name", "provider"], as_dict=True, order_by="creation asc")
		)
	model = default_model[0]
	return {"model": model.name, "provider": model.provider} if model else None


def _write(item: Seed, fill: dict, row) -> str | None:
	"""Insert or update the record and its tracking row; the error in words when validation refuses."""
	savepoint = "huf_seed"
	frappe.db.savepoint(savepoint)
	messages = len(getattr(frappe.local, "message_log", None) or [])
	try:
		if row is None:
			doc = frappe.get_doc({**item.record, **fill, "doctype": item.doctype})
			doc.flags.ignore_permissions = True
			doc.insert()
			for passage in item.inputs:
				frappe.get_doc(
					{"doctype": "Knowledge Input", "knowledge_source": doc.name, "input_type": "Text", "title": passage.get("title"), "text": passage["text"]}
				).insert(ignore_permissions=True)
		else:
			doc = frappe.get_doc(item.doctype, row.reference_name)
			doc.update({**item.record, **({} if doc.get("model") else fill)})
			doc.flags.ignore_permissions = True
			doc.save()
		record_hash = current_hash(item.doctype, doc.name, item.record)
		values = {
			"app": item.app, "seed_file": item.file, "seed_key": item.key, "reference_doctype": item.doctype,
			"reference_name": doc.name, "app_hash": item.app_hash, "record_hash": record_hash,
			"seeded_fields": json.dumps(item.record, sort_keys=True, indent=1),
		}  # fmt: skip
		if row is None:
			frappe.get_doc({"doctype": TRACK, **values}).insert(ignore_permissions=True)
		else:
			frappe.db.set_value(TRACK, row.name, values)
	except Exception as error:  # noqa: BLE001 - a refusal of one record must not stop the others
		frappe.db.rollback(save_point=savepoint)
		if getattr(frappe.local, "message_log", None):
			del frappe.local.message_log[messages:]
		return _words(error)
	return None


def _words(error: Exception) -> str:
	from frappe.utils import strip_html

	text = strip_html(str(error)).strip() or type(error).__name__
	return f"{type(error).__name__}: {text}" if not isinstance(error, frappe.ValidationError) else text


def _skip(report: Report, app: str, file: str, key: str | None, what: str) -> None:
	where = f"{app}/huf/{file}" + (f", key {key}" if key else "")
	report.skipped.append(f"{where}: {what}")
	title = f"Huf seeding skipped {where}"[:140]
	message = (
		f"App: {app}\nFile: huf/{file}\nKey: {key or '(none)'}\n\n{what}\n\n"
		"The rest of the app's huf/ folder was seeded. Fix the file; it is read again on the next bench migrate "
		"or Seed all apps."
	)
	if frappe.db.exists("Error Log", {"method": title, "error": message}):
		return  # already said, and not cleared since
	frappe.log_error(title=title, message=message)


# The record's seeded fields as they are now --------------------------------------------------------


def current_hash(doctype: str, name: str, record: dict) -> str | None:
	if not frappe.db.exists(doctype, name):
		return None
	return digest(seeded_values(frappe.get_doc(doctype, name), record))


def edited(row) -> bool:
	"""Whether the record's seeded fields differ from what seeding last wrote."""
	record = json.loads(row.seeded_fields or "{}")
	return current_hash(row.reference_doctype, row.reference_name, record) != row.record_hash


def seeded_values(doc, record: dict) -> dict:
	"""The document's values of the fields ``record`` sets (child tables: the columns its rows set),
	normalized so that what was written and what is read back compare equal."""
	meta = doc.meta
	out = {}
	for fieldname, value in record.items():
		df = meta.get_field(fieldname)
		if df and df.fieldtype in table_fields:
			columns = sorted({key for row in value or [] if isinstance(row, dict) for key in row} - NEVER_SEEDED)
			child = frappe.get_meta(df.options)
			out[fieldname] = [{c: _normal(row.get(c), child.get_field(c)) for c in columns} for row in doc.get(fieldname) or []]
		else:
			out[fieldname] = _normal(doc.get(fieldname), df)
	return out


def _normal(value, df):
	kind = df.fieldtype if df else None
	if kind in ("Check", "Int"):
		return cint(value)
	if kind in ("Float", "Currency", "Percent"):
		return flt(value)
	if kind == "JSON" and isinstance(value, str) and value.strip():
		try:
			return json.loads(value)
		except ValueError:
			return value
	if value in (None, ""):
		return None
	return value if isinstance(value, (dict, list, int, float)) else str(value)


# Hooks -----------------------------------------------------------------------------------------------


def seed_quietly(apps: list[str] | None = None) -> None:
	"""From install and migrate: seeding never makes them fail; a failure of seeding itself (not of
	one record, which it reports) goes to the Error Log."""
	try:
		report = seed(apps)
	except Exception:  # noqa: BLE001
		frappe.log_error(title="Huf seeding failed")
		return
	if report.created or report.updated or report.skipped or report.waiting:
		print(
			f"Huf seeding: {len(report.created)} created, {len(report.updated)} updated, {report.unchanged} unchanged, "
			f"{len(report.kept)} kept as edited, {len(report.waiting)} waiting for an AI Model, {len(report.skipped)} skipped (Error Log)"
		)


def after_first_model() -> None:
	"""The site's first enabled AI Model was just saved: the agents waiting for one are seeded now, in
	the same transaction (an example agent is ready the moment its model exists). Never makes the
	model's save fail: a failure of seeding itself is rolled back and goes to the Error Log."""
	savepoint = "huf_seed_first_model"
	frappe.db.savepoint(savepoint)
	try:
		seed()
	except Exception:  # noqa: BLE001
		frappe.db.rollback(save_point=savepoint)
		frappe.log_error(title="Huf seeding failed")


# Whitelisted -------------------------------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
@needs("settings.write")
def seed_all_apps() -> dict:
	"""Seed every installed app's huf/ folder now (what migrate does)."""
	return seed().as_dict()


@frappe.whitelist(methods=["GET"])
@needs("settings.write")
def get_seeded_content() -> dict:
	"""What came from which app, and whether it is still the app's version."""
	seeds, problems, notes = read_apps(examples=added_examples())
	shipped = {(s.app, s.doctype, s.key): s for s in seeds}
	rows = frappe.get_all(
		TRACK,
		fields=["name", "app", "seed_file", "seed_key", "reference_doctype", "reference_name", "app_hash", "record_hash", "seeded_fields"],
		order_by="app asc, reference_doctype asc, seed_key asc",
	)
	records = []
	for row in rows:
		current = shipped.pop((row.app, row.reference_doctype, row.seed_key), None)
		exists = bool(frappe.db.exists(row.reference_doctype, row.reference_name))
		changed = exists and edited(row)
		records.append(
			{
				"seed_record": row.name, "app": row.app, "file": row.seed_file, "key": row.seed_key,
				"doctype": row.reference_doctype, "name": row.reference_name,
				"status": "Deleted" if not exists else "Changed from the app's version" if changed else "As the app ships it",
				"changed": bool(changed) or not exists,
				"app_has_newer_version": bool(current and current.app_hash != row.app_hash),
				"still_shipped": current is not None,
			}
		)  # fmt: skip
	waiting = [{"app": s.app, "file": s.file, "key": s.key, "doctype": s.doctype} for s in shipped.values()]
	return {"records": records, "not_seeded": waiting, "problems": [f"{a}/huf/{f}: {w}" for a, f, _k, w in problems], "notes": notes}


@frappe.whitelist(methods=["POST"])
@needs("settings.write")
def restore_app_version(seed_record: str) -> dict:
	"""Take the app's version back: the record gets the app's current seeded fields (made again if it
	was deleted), and is tracked as the app's version from now on."""
	row = frappe.db.get_value(
		TRACK, seed_record, ["name", "app", "seed_file", "seed_key", "reference_doctype", "reference_name", "app_hash", "record_hash"], as_dict=True
	)
	if not row:
		frappe.throw(_("There is no seeded record {0}.").format(frappe.bold(seed_record)), frappe.DoesNotExistError)
	root = seed_root(row.app)
	prefix, folder = os.path.split(os.path.dirname(row.seed_file))  # ("", "agents") or ("examples", "agents")
	path = os.path.join(root or "", row.seed_file)
	if not root or folder not in DOCTYPE_OF or prefix not in ("", EXAMPLES) or not os.path.isfile(path):
		frappe.throw(_("The app {0} no longer ships {1}.").format(frappe.bold(row.app), frappe.bold(f"huf/{row.seed_file}")))
	found, bad = read_file(row.app, folder, path, f"{prefix}/" if prefix else "")
	item = next((s for s in found if s.key == row.seed_key and s.doctype == row.reference_doctype), None)
	if item is None:
		problem = "; ".join(w for *_rest, w in bad) or _("the record is no longer in the file")
		frappe.throw(_("The app's version of {0} cannot be read: {1}").format(frappe.bold(row.seed_key), problem))
	fill = _filled(item, [])
	if fill is None:
		frappe.throw(_("{0} needs an AI Model: add a provider and a model first.").format(frappe.bold(row.seed_key)))
	exists = frappe.db.exists(row.reference_doctype, row.reference_name)
	if not exists:
		frappe.db.delete(TRACK, {"name": row.name})
	error = _write(item, fill, row if exists else None)
	if error:
		frappe.throw(_("The app's version of {0} was refused: {1}").format(frappe.bold(row.seed_key), error))
	return {"doctype": item.doctype, "name": item.key, "status": "As the app ships it"}
