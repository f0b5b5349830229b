"""Whose rights a trigger's run acts with (Agent Trigger's Run As).

- Trigger Owner (the default): the person who created the trigger.
- Person Who Triggered: whoever saved the document or fired the app event. That can be anyone,
  Administrator included, so only someone who may act for everyone (a System Manager) may choose it.
- Specific User: a user the trigger's author may pick: themselves, or (for someone who is not a
  System Manager) a user with no role the author lacks and no wider record access.

The choice is checked against the person saving the trigger each time it is saved, so editing
someone else's trigger never borrows their rights, and the identity is resolved again when the run
starts, so an edit made while a run waited in the queue counts."""

from __future__ import annotations

import frappe
from frappe import _

OWNER = "Trigger Owner"
TRIGGERING = "Person Who Triggered"
SPECIFIC = "Specific User"
WITH_A_PERSON = ("Doc Event", "App Event")  # the trigger types where someone causes the event
AUTOMATIC_ROLES = {"All", "Guest", "Desk User"}


def acts_for_everyone(user: str) -> bool:
	return user == "Administrator" or "System Manager" in frappe.get_roles(user)


def check_choice(doc) -> None:
	"""Refuse a Run As the person saving ``doc`` may not choose, with what to do instead."""
	if frappe.flags.in_install or frappe.flags.in_migrate:
		return
	editor, choice = frappe.session.user, doc.run_as or OWNER
	if choice == TRIGGERING:
		if doc.trigger_type not in WITH_A_PERSON:
			frappe.throw(_("A {0} trigger has no person who triggers it. Set Run As to Trigger Owner or Specific User.").format(_(doc.trigger_type)))
		if not acts_for_everyone(editor):
			frappe.throw(
				_("Only a System Manager may let a trigger run as the person who triggered it: that can be anyone, Administrator included. Set Run As to Trigger Owner or Specific User."),
				frappe.PermissionError,
			)
		return
	target = doc.owner or editor if choice == OWNER else doc.run_as_user
	if not target:
		frappe.throw(_("Pick the user this trigger runs as in Run As User."))
	reason = pick_refusal(editor, target)
	if reason:
		frappe.throw(
			_("This trigger would run as {0}. {1} Set Run As to Specific User and pick yourself, or a user with no more rights than you.").format(
				frappe.bold(target), reason
			),
			frappe.PermissionError,
		)


def pick_refusal(editor: str, target: str) -> str | None:
	"""Why ``editor`` may not make a trigger act as ``target``; None when they may."""
	if target == editor or acts_for_everyone(editor):
		return None
	if target in ("Administrator", "Guest") or acts_for_everyone(target):
		return _("That user may act for everyone.")
	missing = set(frappe.get_roles(target)) - set(frappe.get_roles(editor)) - AUTOMATIC_ROLES
	if missing:
		return _("That user has roles you do not have ({0}).").format(", ".join(sorted(missing)))
	mine, theirs = record_limits(editor), record_limits(target)
	for doctype, values in mine.items():
		if not theirs.get(doctype) or not theirs[doctype] <= values:
			return _("You may see only some {0} records, and that user is not limited to those.").format(_(doctype))
	return None


def record_limits(user: str) -> dict[str, set[str]]:
	"""The user's User Permissions: for each limited DocType, the records they may see."""
	limits: dict[str, set[str]] = {}
	for row in frappe.get_all("User Permission", filters={"user": user}, fields=["allow", "for_value"]):
		limits.setdefault(row.allow, set()).add(row.for_value)
	return limits


def run_as(trigger: str, triggered_by: str | None) -> str:
	"""The user a run of ``trigger`` acts as now; a clear error when that user cannot run."""
	row = frappe.db.get_value("Agent Trigger", trigger, ["owner", "run_as", "run_as_user"], as_dict=True)
	choice = row.run_as or OWNER
	user = {OWNER: row.owner, SPECIFIC: row.run_as_user, TRIGGERING: triggered_by}.get(choice)
	if not user:
		frappe.throw(_("The trigger {0} runs as {1}, but there is nobody to run as.").format(trigger, _(choice)))
	if user != "Guest" and not frappe.db.get_value("User", user, "enabled"):
		frappe.throw(_("The trigger {0} runs as {1}, whose account is disabled. Set another user in Run As.").format(trigger, user))
	return user
