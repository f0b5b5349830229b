"""The web app's Settings: who holds which Huf Role, and the roles themselves (``settings.write``).

A person holds one Huf Role (Huf Gateway User is held beside it): giving another one turns the
previous one off. Turning a role off keeps its record, so Huf never hands it back by itself.
Every write goes through Huf Role / Huf User Role, which refuse unknown capabilities, granting
more than the caller has, Huf Admin from anyone but a site administrator and removing the last
Huf Admin.
"""

from __future__ import annotations

import json

import frappe
from frappe import _

from huf.capabilities import CAPABILITIES, GATEWAY_ROLE, needs

PEOPLE_LIMIT = 500


@frappe.whitelist()
@needs("settings.write")
def list_huf_roles() -> dict:
	"""Every Huf Role with its capabilities and how many people hold it, and every capability there is."""
	roles = frappe.get_all("Huf Role", fields=["name", "role_description", "is_system", "frappe_role"], order_by="is_system desc, name asc")
	grants = frappe.get_all("Huf Role Permission", filters={"parenttype": "Huf Role"}, fields=["parent", "capability"], order_by="idx asc")
	counts = frappe.get_all("Huf User Role", filters={"enabled": 1}, fields=["huf_role", "count(name) as people"], group_by="huf_role")
	people = {row.huf_role: row.people for row in counts}
	for role in roles:
		role["capabilities"] = [row.capability for row in grants if row.parent == role.name]
		role["people"] = people.get(role.name, 0)
	return {"roles": roles, "capabilities": [{"name": name, "description": _(about)} for name, about in CAPABILITIES.items()]}


@frappe.whitelist(methods=["POST"])
@needs("settings.write")
def save_huf_role(role_name: str, capabilities: str | list, role_description: str = "", name: str | None = None) -> dict:
	"""Create a custom role (no ``name``) or change one; the built-in ones are refused."""
	names = json.loads(capabilities) if isinstance(capabilities, str) else list(capabilities)
	if name:
		doc = frappe.get_doc("Huf Role", name)
		if doc.role_name != role_name:
			frappe.throw(_("A role keeps its name; make a new role for a new name."), title=_("Name is fixed"))
	else:
		doc = frappe.new_doc("Huf Role")
		doc.role_name = (role_name or "").strip()
		if not doc.role_name:
			frappe.throw(_("Give the role a name."), title=_("Name missing"))
	doc.role_description = role_description
	doc.set("permissions", [{"capability": capability} for capability in names])
	doc.save(ignore_permissions=True)
	return {"name": doc.name}


@frappe.whitelist(methods=["POST"])
@needs("settings.write")
def delete_huf_role(name: str) -> None:
	"""Delete a custom role; the people who held it lose it."""
	frappe.delete_doc("Huf Role", name, ignore_permissions=True)


@frappe.whitelist()
@needs("settings.write")
def list_people(search: str = "") -> list[dict]:
	"""Enabled people who can sign in to the site's workspace, with their Huf Roles (on and off)."""
	filters = {"enabled": 1, "user_type": "System User", "name": ("!=", "Guest")}
	or_filters = {"name": ("like", f"%{search}%"), "full_name": ("like", f"%{search}%")} if search else None
	users = frappe.get_all("User", filters=filters, or_filters=or_filters, fields=["name", "full_name"], order_by="full_name asc", limit=PEOPLE_LIMIT)
	rows = frappe.get_all(
		"Huf User Role",
		filters={"user": ("in", [user.name for user in users] or [""])},
		fields=["user", "huf_role", "enabled"],
		order_by="huf_role asc",
	)
	held: dict[str, list[dict]] = {}
	for row in rows:
		held.setdefault(row.user, []).append({"huf_role": row.huf_role, "enabled": row.enabled})
	for user in users:
		user["roles"] = held.get(user.name, [])
	return users


@frappe.whitelist(methods=["POST"])
@needs("settings.write")
def assign_huf_role(user: str, huf_role: str) -> list[dict]:
	"""Give ``user`` ``huf_role``. It replaces their other Huf Role unless it is Huf Gateway User."""
	if not frappe.db.exists("User", user) or not frappe.db.exists("Huf Role", huf_role):
		frappe.throw(_("There is no person {0} or no role {1}.").format(user, huf_role), frappe.DoesNotExistError)
	_turn(user, huf_role, 1)
	if huf_role != GATEWAY_ROLE:
		others = frappe.get_all("Huf User Role", filters={"user": user, "enabled": 1, "huf_role": ("not in", (huf_role, GATEWAY_ROLE))}, pluck="huf_role")
		for other in others:
			_turn(user, other, 0)
	return _roles_of(user)


@frappe.whitelist(methods=["POST"])
@needs("settings.write")
def remove_huf_role(user: str, huf_role: str) -> list[dict]:
	"""Take ``huf_role`` from ``user`` (its record stays, turned off)."""
	if not frappe.db.exists("Huf User Role", {"user": user, "huf_role": huf_role}):
		frappe.throw(_("{0} does not have {1}.").format(user, huf_role), frappe.DoesNotExistError)
	_turn(user, huf_role, 0)
	return _roles_of(user)


def _turn(user: str, huf_role: str, enabled: int) -> None:
	name = frappe.db.get_value("Huf User Role", {"user": user, "huf_role": huf_role})
	doc = frappe.get_doc("Huf User Role", name) if name else frappe.new_doc("Huf User Role")
	if name and doc.enabled == enabled:
		return
	doc.update({"user": user, "huf_role": huf_role, "enabled": enabled})
	doc.save(ignore_permissions=True)


def _roles_of(user: str) -> list[dict]:
	return frappe.get_all("Huf User Role", filters={"user": user}, fields=["huf_role", "enabled"], order_by="huf_role asc")


