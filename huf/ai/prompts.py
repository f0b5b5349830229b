"""The prompt library: Agent Prompt (an agent's instructions) and Agent Summary Prompt (how the
Summarize context strategy writes its summary), each a lineage of versions.

A lineage is named by its slug. The newest version is the document named ``<slug>`` (``is_latest``
1): saving it with a changed body first copies the version it held to a read-only document named
``<slug>--v<N>`` (``is_latest`` 0), then becomes version N+1. So the name an agent links to never
changes, every version stays a row that can be read later, and ``--`` (never in a slug) keeps the
two kinds of names apart.

An agent uses a prompt "always latest" or pinned (``prompt_version_locked``) to the version it was
attached at (``template_version_at_attach``); the summary fields follow the same pattern. What a run
reads is cached in Redis per (prompt, version or "latest"): a pinned version never changes, and
"latest" is cleared when the prompt is saved, so a run of a template agent costs one cached read
and a run of an agent with its own instructions none.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint

from huf.capabilities import needs
from huf.permissions import can_run_agent, has_capability

MAX_BODY_CHARS = 100_000
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
VERSION_MARK = "--v"  # an older version's name: <slug>--v<version>


@dataclass(frozen=True)
class Kind:
	"""One of the two libraries and the Agent / Agent Run fields that point at it."""

	key: str
	doctype: str
	mode: str  # Agent Select: Local | Template
	template: str  # Agent Link to ``doctype`` (the lineage's newest version, i.e. its slug)
	locked: str  # Agent Check: pinned to ``at_attach``
	at_attach: str  # Agent Int: the version when attached
	run_template: str  # Agent Run: the prompt a run used
	run_version: str  # Agent Run: its version


PROMPT = Kind(
	"prompt", "Agent Prompt", "prompt_mode", "prompt_template", "prompt_version_locked", "template_version_at_attach",
	"prompt_template", "prompt_version",
)  # fmt: skip
SUMMARY = Kind(
	"summary", "Agent Summary Prompt", "summary_prompt_mode", "summary_prompt_template", "summary_prompt_version_locked",
	"summary_template_version_at_attach", "summary_prompt_template", "summary_prompt_version",
)  # fmt: skip
KINDS = {PROMPT.key: PROMPT, SUMMARY.key: SUMMARY}
BY_DOCTYPE = {PROMPT.doctype: PROMPT, SUMMARY.doctype: SUMMARY}


def make_slug(title: str) -> str:
	return re.sub(r"[^a-z0-9]+", "-", (title or "").lower()).strip("-")


def version_name(slug: str, version: int) -> str:
	return f"{slug}{VERSION_MARK}{cint(version)}"


# --- the DocTypes' controller ------------------------------------------------------------------


class VersionedPrompt(Document):
	"""What Agent Prompt and Agent Summary Prompt share (their controllers subclass it)."""

	def before_insert(self):
		self.slug = (self.slug or "").strip() or make_slug(self.title)
		check_slug(self.doctype, self.slug)
		self.version, self.is_latest = 1, 1

	def autoname(self):
		self.name = self.slug

	def validate(self):
		check_body(self.prompt_body)
		if self.visibility not in ("Public", "App", "Private"):
			self.visibility = "Public"
		if self.is_new():
			return
		before = self.get_doc_before_save()
		if before is None:
			return
		if not cint(before.is_latest):
			frappe.throw(
				_("{0} is version {1} of {2}, kept as it was: older versions are read-only. Edit {2} to make a new version.").format(
					frappe.bold(self.name), cint(before.version), frappe.bold(before.slug)
				),
				title=_("Older version"),
			)
		if self.slug != before.slug:
			frappe.throw(_("A prompt's slug cannot change; make a new prompt instead."), title=_("Slug cannot change"))
		self.is_latest = 1
		self.version = cint(before.version) or 1
		if (self.prompt_body or "") != (before.prompt_body or ""):
			self.version += 1
			self.flags.previous_version = before

	def on_update(self):
		before = self.flags.pop("previous_version", None)
		if before is not None:
			keep_version(before)
		elif not self.flags.in_insert and self.has_value_changed("visibility"):
			frappe.db.set_value(  # older versions are read as the lineage is: its visibility
				self.doctype, {"slug": self.slug, "is_latest": 0}, "visibility", self.visibility, update_modified=False
			)
		frappe.cache.delete_value(cache_key(self.doctype, self.slug, None))

	def on_trash(self):
		kind = BY_DOCTYPE[self.doctype]
		if cint(self.is_latest):
			agents = frappe.get_all("Agent", filters={kind.template: self.name}, pluck="name", order_by="name asc")
			what = _("{0} is used by the agent(s) {1}. Pick another prompt or their own instructions on those agents first.")
		else:
			agents = frappe.get_all(
				"Agent",
				filters={kind.template: self.slug, kind.locked: 1, kind.at_attach: cint(self.version)},
				pluck="name",
				order_by="name asc",
			)
			what = _("{0} is pinned on the agent(s) {1}. Unpin it or pick another version on those agents first.")
		if agents:
			frappe.throw(
				what.format(frappe.bold(self.name), ", ".join(frappe.bold(a) for a in agents)),
				frappe.LinkExistsError,
				title=_("Prompt in use"),
			)
		if cint(self.is_latest):
			frappe.db.delete(self.doctype, {"slug": self.slug, "is_latest": 0})
		frappe.cache.delete_keys(f"huf:prompt:{self.doctype}:{self.slug}:")


def check_slug(doctype: str, slug: str) -> None:
	if not slug or not SLUG.match(slug):
		frappe.throw(
			_("The slug {0} may only hold lowercase letters, digits and single hyphens between them, e.g. support-tone.").format(
				frappe.bold(slug or _("(empty)"))
			),
			title=_("Invalid slug"),
		)
	if frappe.db.exists(doctype, {"slug": slug}):
		frappe.throw(
			_("There is already a prompt with the slug {0}. Pick another slug or title.").format(frappe.bold(slug)),
			frappe.DuplicateEntryError,
			title=_("Slug taken"),
		)


def check_body(body: str | None) -> None:
	if len(body or "") > MAX_BODY_CHARS:
		frappe.throw(
			_("The prompt body is {0} characters long; the limit is {1}.").format(
				f"{len(body):,}", f"{MAX_BODY_CHARS:,}"
			),
			title=_("Prompt too long"),
		)


def keep_version(before: Document) -> None:
	"""The version the lineage's document held before this save, as its own read-only row."""
	old = frappe.new_doc(before.doctype)
	for field in ("title", "slug", "category", "description", "is_active", "is_system", "visibility", "prompt_body", "version"):
		old.set(field, before.get(field))
	old.name = version_name(before.slug, before.version)
	old.is_latest = 0
	old.owner, old.creation = before.owner, before.creation
	old.modified, old.modified_by = before.modified, before.modified_by
	old.db_insert()


# --- permissions (hooks.py) ---------------------------------------------------------------------


def _query(doctype: str, user: str | None) -> str:
	user = user or frappe.session.user
	if has_capability(user, "prompt.write"):
		return ""
	return f"(`tab{doctype}`.`visibility` != 'Private' or `tab{doctype}`.`owner` = {frappe.db.escape(user)})"


def prompt_query(user: str | None = None) -> str:
	return _query(PROMPT.doctype, user)


def summary_prompt_query(user: str | None = None) -> str:
	return _query(SUMMARY.doctype, user)


def prompt_has_permission(doc, ptype=None, user=None) -> bool:
	"""Private prompts: their owner and who looks after the library (``prompt.write``) only."""
	user = user or frappe.session.user
	return has_capability(user, "prompt.write") or doc.get("visibility") != "Private" or doc.owner == user


# --- an agent's prompts ---------------------------------------------------------------------------


def attach(agent, kind: Kind) -> None:
	"""Agent.validate: the prompt fields of ``kind`` made consistent. Local mode clears them; a
	template takes its version when it is attached; picking an older version pins the agent to it."""
	if (agent.get(kind.mode) or "Local") != "Template":
		agent.set(kind.mode, "Local")
		for field in (kind.template, kind.at_attach, kind.locked):
			agent.set(field, None if field == kind.template else 0)
		return
	label = _(agent.meta.get_label(kind.template))
	name = agent.get(kind.template)
	if not name:
		frappe.throw(_("Pick a {0}, or switch back to the agent's own text.").format(label), title=_("No prompt picked"))
	row = frappe.db.get_value(kind.doctype, name, ["slug", "version", "is_latest", "is_active"], as_dict=True)
	if not row:
		frappe.throw(_("There is no {0} named {1}.").format(_(kind.doctype), frappe.bold(name)), title=_("Unknown prompt"))
	changed = agent.has_value_changed(kind.template)
	if changed and not cint(row.is_active):
		frappe.throw(
			_("{0} is not active. Make it active on its form, or pick another one.").format(frappe.bold(name)),
			title=_("Prompt not active"),
		)
	if not cint(row.is_latest):  # an older version: the lineage, pinned to it
		agent.set(kind.template, row.slug)
		agent.set(kind.locked, 1)
		agent.set(kind.at_attach, cint(row.version))
		return
	if changed or not cint(agent.get(kind.at_attach)):
		agent.set(kind.at_attach, cint(row.version))
	if cint(agent.get(kind.locked)) and not version_exists(kind.doctype, name, cint(agent.get(kind.at_attach))):
		frappe.throw(
			_("{0} has no version {1} to pin to.").format(frappe.bold(name), cint(agent.get(kind.at_attach))),
			title=_("Unknown version"),
		)


def version_exists(doctype: str, slug: str, version: int) -> bool:
	return bool(_read(doctype, slug, version))


@dataclass(frozen=True)
class Resolved:
	name: str
	version: int
	body: str

	def recorded(self, kind: Kind) -> dict:
		return {kind.run_template: self.name, kind.run_version: self.version}


def resolve(agent, kind: Kind) -> Resolved | None:
	"""The prompt text a run of ``agent`` uses for ``kind``, or None when the agent uses its own
	text. One cached read (nothing at all for Local mode: only the agent's own fields are read)."""
	if agent.get(kind.mode) != "Template" or not agent.get(kind.template):
		return None
	name = agent.get(kind.template)
	version = cint(agent.get(kind.at_attach)) if cint(agent.get(kind.locked)) else None
	value = frappe.cache.get_value(cache_key(kind.doctype, name, version), generator=lambda: _read(kind.doctype, name, version))
	if not value:
		what = _("version {0} of {1}").format(version, name) if version else name
		frappe.throw(_("The agent {0} uses {1}, which is gone. Pick another prompt on the agent.").format(frappe.bold(agent.name), frappe.bold(what)))
	return Resolved(name, cint(value["version"]), value["body"] or "")


def cache_key(doctype: str, slug: str, version: int | None) -> str:
	return f"huf:prompt:{doctype}:{slug}:{version or 'latest'}"


def _read(doctype: str, slug: str, version: int | None) -> dict | None:
	row = frappe.db.get_value(doctype, slug, ["version", "prompt_body", "is_latest"], as_dict=True)
	if row and version and cint(row.version) != version:
		row = frappe.db.get_value(doctype, version_name(slug, version), ["version", "prompt_body", "is_latest"], as_dict=True)
	if not row:
		return None
	return {"version": cint(row.version), "body": row.prompt_body}


# --- the web app's methods ------------------------------------------------------------------------


def _kind(kind: str) -> Kind:
	if kind not in KINDS:
		frappe.throw(_("Unknown prompt kind {0}: use prompt or summary.").format(frappe.bold(kind)))
	return KINDS[kind]


def _check_read(kind: Kind) -> None:
	if frappe.session.user == "Guest" or not frappe.has_permission(kind.doctype, "read"):
		frappe.throw(_("You are not allowed to read the prompt library."), frappe.PermissionError)


def _lineage(kind: Kind, prompt: str):
	"""The lineage's newest version, when the caller may read it (any version's name works)."""
	_check_read(kind)
	slug = (prompt or "").split(VERSION_MARK)[0]
	if not frappe.db.exists(kind.doctype, slug):
		frappe.throw(_("There is no prompt named {0}.").format(frappe.bold(slug)), frappe.DoesNotExistError)
	head = frappe.get_doc(kind.doctype, slug)
	if not frappe.has_permission(kind.doctype, "read", doc=head):
		frappe.throw(_("This prompt is private to its owner."), frappe.PermissionError)
	return head


def _versions(kind: Kind, slugs: list[str]) -> dict[str, list[dict]]:
	rows = frappe.get_all(
		kind.doctype,
		filters={"slug": ["in", slugs]},
		fields=["name", "slug", "version", "is_latest", "modified", "modified_by"],
		order_by="version desc",
	) if slugs else []  # fmt: skip
	out: dict[str, list[dict]] = {slug: [] for slug in slugs}
	for row in rows:
		out[row.slug].append(
			{"name": row.name, "version": row.version, "is_latest": row.is_latest, "saved_at": row.modified, "saved_by": row.modified_by}
		)
	return out


def _users(kind: Kind, slugs: list[str]) -> dict[str, list[dict]]:
	"""The agents that use each prompt; to someone who cannot change agents, only those they may run."""
	rows = frappe.get_all(
		"Agent",
		filters={kind.template: ["in", slugs], kind.mode: "Template"},
		fields=["name", kind.template + " as prompt", kind.locked + " as locked", kind.at_attach + " as attached_version"],
		order_by="name asc",
	) if slugs else []  # fmt: skip
	if rows and not has_capability(None, "agent.write"):  # name only the agents the caller may run
		rows = [row for row in rows if can_run_agent(frappe.get_cached_doc("Agent", row.name))]
	out: dict[str, list[dict]] = {slug: [] for slug in slugs}
	for row in rows:
		out[row.prompt].append({"agent": row.name, "pinned": bool(row.locked), "attached_version": row.attached_version})
	return out


@frappe.whitelist()
@needs("prompt.read")
def list_prompts(kind: str = "prompt") -> list[dict]:
	"""The prompts the caller may read (newest versions), each with its versions and the agents using it."""
	kind_ = _kind(kind)
	_check_read(kind_)
	heads = frappe.get_list(
		kind_.doctype,
		filters={"is_latest": 1},
		fields=["name", "title", "slug", "category", "description", "visibility", "is_active", "is_system", "version", "owner", "modified"],
		order_by="title asc",
	)
	slugs = [head.slug for head in heads]
	versions, users = _versions(kind_, slugs), _users(kind_, slugs)
	return [{**head, "versions": versions[head.slug], "used_by": users[head.slug]} for head in heads]


@frappe.whitelist()
@needs("prompt.read")
def get_prompt_version(prompt: str, version: int | None = None, kind: str = "prompt") -> dict:
	"""One version of a prompt (the newest when ``version`` is empty), with its text."""
	kind_ = _kind(kind)
	head = _lineage(kind_, prompt)
	version = cint(version) or cint(head.version)
	row = _read(kind_.doctype, head.slug, version)
	if not row:
		frappe.throw(_("{0} has no version {1}.").format(frappe.bold(head.slug), version), frappe.DoesNotExistError)
	return {
		"name": head.name if version == cint(head.version) else version_name(head.slug, version),
		"prompt": head.name,
		"title": head.title,
		"version": version,
		"is_latest": int(version == cint(head.version)),
		"prompt_body": row["body"] or "",
	}


@frappe.whitelist()
@needs("prompt.read")
def diff_prompt_versions(prompt: str, from_version: int, to_version: int, kind: str = "prompt") -> dict:
	"""A unified diff between two versions of a prompt."""
	kind_ = _kind(kind)
	head = _lineage(kind_, prompt)
	texts = []
	for version in (cint(from_version), cint(to_version)):
		row = _read(kind_.doctype, head.slug, version)
		if not row:
			frappe.throw(_("{0} has no version {1}.").format(frappe.bold(head.slug), version), frappe.DoesNotExistError)
		texts.append(row["body"] or "")
	lines = difflib.unified_diff(
		texts[0].splitlines(keepends=True),
		texts[1].splitlines(keepends=True),
		fromfile=f"{head.slug} v{cint(from_version)}",
		tofile=f"{head.slug} v{cint(to_version)}",
	)
	diff = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
	return {"prompt": head.name, "from_version": cint(from_version), "to_version": cint(to_version), "diff": diff}


@frappe.whitelist()
@needs("prompt.read")
def prompt_usage(prompt: str, kind: str = "prompt") -> list[dict]:
	"""The agents that use a prompt: pinned to a version, or always its newest."""
	kind_ = _kind(kind)
	head = _lineage(kind_, prompt)
	return _users(kind_, [head.slug])[head.slug]
