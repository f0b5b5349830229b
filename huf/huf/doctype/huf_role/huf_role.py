# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt
"""A Huf Role: a set of capabilities carried by one site Role.

The five built-in roles come from huf/capabilities.py (``ensure_builtin_roles``, on install and
migrate) and cannot be changed here. A custom role gets a site Role of its own name, and that Role
gets exactly the record rights its capabilities imply (``DOCTYPE_RIGHTS``), so Desk and the REST API
agree with what Huf's own methods allow.
"""

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.permissions import setup_custom_perms

from huf.capabilities import BUILTIN_ROLES, CAPABILITIES, DOCTYPE_RIGHTS
from huf.permissions import capabilities, forget_capabilities

RIGHTS = {"r": ("read", "report", "export", "print", "email"), "w": ("write",), "c": ("create",), "d": ("delete",)}
FLAGS = ("read", "write", "create", "delete", "report", "export", "print", "email", "share")


class HufRole(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.huf_role_permission.huf_role_permission import HufRolePermission

		frappe_role: DF.Link | None
		is_system: DF.Check
		permissions: DF.Table[HufRolePermission]
		role_description: DF.SmallText | None
		role_name: DF.Data
	# end: auto-generated types

	def capability_names(self) -> list[str]:
		return [row.capability for row in self.permissions]

	def validate(self):
		names = self.capability_names()
		unknown = [name for name in names if name not in CAPABILITIES]
		if unknown:
			frappe.throw(
				_("{0} is not a Huf capability. The ones there are: {1}.").format(", ".join(unknown), ", ".join(CAPABILITIES)),
				title=_("Unknown capability"),
			)
		if len(set(names)) != len(names):
			frappe.throw(_("Each capability can be listed once."), title=_("Repeated capability"))
		if self.is_system or self.role_name in BUILTIN_ROLES:
			if not frappe.flags.huf_builtin_roles:
				frappe.throw(_("{0} comes with Huf and cannot be changed. Make a custom role instead.").format(self.role_name), title=_("Built-in role"))
			return
		self.frappe_role = self.role_name
		clash = frappe.db.exists("Role", self.role_name) and frappe.db.get_value("Huf Role", {"frappe_role": self.role_name, "name": ("!=", self.name)})
		if clash or (self.is_new() and frappe.db.exists("Role", self.role_name)):
			frappe.throw(_("The site already has a role called {0}. Pick another name.").format(self.role_name), title=_("Name taken"))
		beyond = set(names) - capabilities()
		if beyond:
			frappe.throw(
				_("You can only grant what you have yourself; you lack {0}.").format(", ".join(sorted(beyond))),
				frappe.PermissionError,
				title=_("Not allowed"),
			)

	def on_update(self):
		if not self.is_system:
			if not frappe.db.exists("Role", self.frappe_role):
				frappe.get_doc({"doctype": "Role", "role_name": self.frappe_role, "desk_access": 1}).insert(ignore_permissions=True)
			grant_rights(self.frappe_role, self.capability_names())
		forget_capabilities()

	def on_trash(self):
		if self.is_system and not frappe.flags.huf_builtin_roles:
			frappe.throw(_("{0} comes with Huf and cannot be deleted.").format(self.name), title=_("Built-in role"))
		for name in frappe.get_all("Huf User Role", filters={"huf_role": self.name}, pluck="name"):
			frappe.delete_doc("Huf User Role", name, ignore_permissions=True)
		if not self.is_system and self.frappe_role:
			grant_rights(self.frappe_role, [])
			frappe.delete_doc("Role", self.frappe_role, ignore_permissions=True, force=True)
		forget_capabilities()


def rights_of(names: list[str]) -> dict[str, set[str]]:
	"""DocType -> the permission flags ``names`` imply."""
	wanted: dict[str, set[str]] = {}
	for name in names:
		for doctype, letters in DOCTYPE_RIGHTS[name].items():
			wanted.setdefault(doctype, set()).update(flag for letter in letters for flag in RIGHTS[letter])
	return wanted


def grant_rights(role: str, names: list[str]) -> None:
	"""Make ``role``'s record rights on Huf's DocTypes exactly what ``names`` imply (Custom DocPerm)."""
	wanted = rights_of(names)
	touched = set(wanted)
	for row in frappe.get_all("Custom DocPerm", filters={"role": role, "permlevel": 0}, fields=["name", "parent"]):
		if row.parent not in wanted and frappe.get_meta(row.parent).module == "Huf":
			frappe.delete_doc("Custom DocPerm", row.name, ignore_permissions=True)
			touched.add(row.parent)
	for doctype, flags in wanted.items():
		setup_custom_perms(doctype)  # the DocType's standard rules are copied once, as Role Permissions Manager does
		name = frappe.db.get_value("Custom DocPerm", {"parent": doctype, "role": role, "permlevel": 0, "if_owner": 0})
		perm = frappe.get_doc("Custom DocPerm", name) if name else frappe.new_doc("Custom DocPerm")
		perm.update({"parent": doctype, "parenttype": "DocType", "parentfield": "permissions", "role": role, "permlevel": 0})
		perm.update({flag: int(flag in flags) for flag in FLAGS})
		perm.save(ignore_permissions=True)
	for doctype in touched:
		frappe.clear_cache(doctype=doctype)


def ensure_builtin_roles() -> None:
	"""The five built-in Huf Roles and their site Roles, with the capabilities the code gives them."""
	frappe.flags.huf_builtin_roles = True
	try:
		for name, (role, about, names) in BUILTIN_ROLES.items():
			if not frappe.db.exists("Role", role):
				frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": 1}).insert(ignore_permissions=True)
			doc = frappe.get_doc("Huf Role", name) if frappe.db.exists("Huf Role", name) else frappe.new_doc("Huf Role")
			if doc.get("frappe_role") == role and doc.get("is_system") and doc.capability_names() == list(names) and doc.get("role_description") == about:
				continue
			doc.update({"role_name": name, "role_description": about, "is_system": 1, "frappe_role": role})
			doc.set("permissions", [{"capability": capability} for capability in names])
			doc.save(ignore_permissions=True)
	finally:
		frappe.flags.huf_builtin_roles = False
