# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt
"""Who holds which Huf Role. An enabled row gives the person the Huf Role's site Role; a disabled
or deleted one takes it away (unless another enabled row carries the same site Role).

``ensure_default_huf_roles`` (on every User save and, for everyone, on install and migrate):
every enabled System User without a Huf role gets Huf Manager, and everyone gets Huf Gateway User.
An assigned role is never replaced, a disabled row is never turned back on, Administrator only
gains Huf Gateway User, and nobody is made Huf Admin. Site roles held without a row (given in the
User form) get their row, so the people list shows them. Tests opt in with
``frappe.flags.huf_default_roles_in_test``.
"""

import frappe
from frappe import _
from frappe.model.document import Document

from huf.capabilities import GATEWAY_ROLE
from huf.capabilities import forget_held
from huf.permissions import capabilities

ADMIN_ROLE = "Huf Admin"
DEFAULT_ROLE = "Huf Manager"


class HufUserRole(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		enabled: DF.Check
		huf_role: DF.Link
		user: DF.Link
	# end: auto-generated types

	def validate(self):
		before = self.get_doc_before_save()
		if before and (before.user, before.huf_role) != (self.user, self.huf_role):
			frappe.throw(
				_("A role record keeps its person and its role. To give {0} to someone else, add a record for them and turn this one off.").format(before.huf_role),
				frappe.CannotChangeConstantError,
				title=_("Cannot change"),
			)
		twin = frappe.db.get_value("Huf User Role", {"user": self.user, "huf_role": self.huf_role, "name": ("!=", self.name)})
		if twin:
			frappe.throw(_("{0} already has a record for {1}; turn that one on or off instead.").format(self.user, self.huf_role), frappe.DuplicateEntryError, title=_("Already listed"))
		self.refuse_admin_change()
		if self.enabled and not frappe.flags.huf_default_roles:
			granted = set(frappe.get_all("Huf Role Permission", filters={"parent": self.huf_role, "parenttype": "Huf Role"}, pluck="capability"))
			beyond = granted - capabilities()
			if beyond:
				frappe.throw(
					_("You can only give a role whose capabilities you have yourself; you lack {0}.").format(", ".join(sorted(beyond))),
					frappe.PermissionError,
					title=_("Not allowed"),
				)
		if before and before.enabled and not self.enabled:
			self.refuse_last_admin()

	def on_update(self):
		sync_site_role(self.user, self.huf_role)

	def on_trash(self):
		self.refuse_admin_change()  # deleting the row takes the role as turning it off does
		if self.enabled:
			self.refuse_last_admin()
		self.enabled = 0
		frappe.flags.huf_removed_row = self.name
		try:
			sync_site_role(self.user, self.huf_role)
		finally:
			frappe.flags.huf_removed_row = None

	def refuse_admin_change(self):
		if self.huf_role == ADMIN_ROLE and not frappe.flags.huf_default_roles and "System Manager" not in frappe.get_roles():
			frappe.throw(_("Only a site administrator can give or take Huf Admin: it is the site's System Manager role."), frappe.PermissionError, title=_("Not allowed"))

	def refuse_last_admin(self):
		if self.huf_role != ADMIN_ROLE:
			return
		others = frappe.get_all(
			"Has Role",
			filters={"role": "System Manager", "parenttype": "User", "parent": ("not in", (self.user, "Administrator"))},
			pluck="parent",
		)
		if not frappe.db.count("User", {"name": ("in", others or [""]), "enabled": 1}):
			frappe.throw(_("{0} is the last Huf Admin. Make someone else Huf Admin first.").format(self.user), title=_("Last Huf Admin"))


def sync_site_role(user: str, huf_role: str) -> None:
	"""Give or take the site Role behind ``huf_role`` so it matches the person's enabled rows."""
	role = frappe.db.get_value("Huf Role", huf_role, "frappe_role")
	if not role or user == "Administrator":
		return
	carriers = frappe.get_all("Huf Role", filters={"frappe_role": role}, pluck="name")
	wanted = bool(
		frappe.get_all(
			"Huf User Role",
			filters={"user": user, "huf_role": ("in", carriers), "enabled": 1, "name": ("!=", frappe.flags.huf_removed_row or "")},
			limit=1,
		)
	)
	person = frappe.get_doc("User", user)
	held = role in {row.role for row in person.roles}
	if wanted == held:
		return
	person.flags.ignore_permissions = True
	person.flags.huf_role_sync = True
	if wanted:
		person.append("roles", {"role": role})
	else:
		person.set("roles", [row for row in person.roles if row.role != role])
	person.save()
	forget_held()


def on_user_update(doc, method=None) -> None:
	"""User on_update (hooks.py): the person's roles may have changed."""
	forget_held()
	if not doc.flags.huf_role_sync:
		ensure_default_huf_roles(doc.name)


def ensure_default_huf_roles(user: str | None = None) -> None:
	under_test = frappe.flags.in_test or frappe.flags.huf_tests  # Frappe's tests, and Huf's (tests/site/conftest.py)
	if under_test and not frappe.flags.huf_default_roles_in_test:
		return
	if not frappe.db.table_exists("Huf User Role"):
		return
	filters = {"enabled": 1, "user_type": "System User", **({"name": user} if user else {})}
	frappe.flags.huf_default_roles = True
	try:
		for name in frappe.get_all("User", filters=filters, pluck="name"):
			_defaults_for(name)
	finally:
		frappe.flags.huf_default_roles = False


def _defaults_for(user: str) -> None:
	rows = dict(frappe.get_all("Huf User Role", filters={"user": user}, fields=["huf_role", "enabled"], as_list=True))
	if user == "Administrator":  # holds every site Role; it is Huf Admin
		held = {ADMIN_ROLE}
	else:
		carried = dict(frappe.get_all("Huf Role", fields=["frappe_role", "name"], as_list=True))
		roles = frappe.get_all("Has Role", filters={"parent": user, "parenttype": "User"}, pluck="role")
		held = {carried[role] for role in roles if role in carried}
	for huf_role in held - set(rows):
		_add(user, huf_role)
		rows[huf_role] = 1
	if not set(rows) - {GATEWAY_ROLE}:
		_add(user, DEFAULT_ROLE)
	if GATEWAY_ROLE not in rows:
		_add(user, GATEWAY_ROLE)


def _add(user: str, huf_role: str) -> None:
	frappe.get_doc({"doctype": "Huf User Role", "user": user, "huf_role": huf_role, "enabled": 1}).insert(ignore_permissions=True)
