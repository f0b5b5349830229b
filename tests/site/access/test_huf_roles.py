"""Huf Roles on a real site: the default roles on user save and on migrate (huf_user_role.py), what
the roles refuse (huf_role.py, huf/ai/people.py), a custom role's site Role and record rights, the
built-in roles' standard permissions against DOCTYPE_RIGHTS, and has_capability's per-request cache.

Every user here is roles-<name>@huf.test and every custom role "roles-test <name>"; each test
removes its own. Tests that run the migrate backfill (which walks every System User of the site) or
touch Administrator's rows roll their changes back instead of committing them."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

import frappe
import pytest

import huf
from huf.ai import people
from huf.capabilities import BUILTIN_ROLES, CAPABILITIES, DOCTYPE_RIGHTS, UnknownCapability, needs
from huf.huf.doctype.huf_user_role.huf_user_role import ensure_default_huf_roles
from huf.permissions import forget_capabilities, has_capability, require
from tests.site.conftest import as_user, make_user
from tests.site.sql_count import counted_statements

MANAGER, USER, VIEWER, GATEWAY, ADMIN = "Huf Manager", "Huf User", "Huf Viewer", "Huf Gateway User", "Huf Admin"
FLAGS = {"r": "read", "w": "write", "c": "create", "d": "delete"}
DOCTYPES = Path(huf.__file__).parent / "huf" / "doctype"


def email(name: str) -> str:
	return f"roles-{name}@huf.test"


@contextmanager
def defaults_on():
	"""Default Huf roles are off under tests (conftest sets frappe.flags.huf_tests); on inside this block."""
	frappe.flags.huf_default_roles_in_test = True
	try:
		yield
	finally:
		frappe.flags.huf_default_roles_in_test = False


def rows_of(user: str) -> dict[str, int]:
	"""The person's Huf User Role rows: Huf Role -> enabled."""
	return dict(frappe.get_all("Huf User Role", filters={"user": user}, fields=["huf_role", "enabled"], as_list=True))


def site_roles(user: str) -> set[str]:
	return set(frappe.get_all("Has Role", filters={"parent": user, "parenttype": "User"}, pluck="role"))


def drop_users(*users: str) -> None:
	for user in users:
		frappe.db.delete("Huf User Role", {"user": user})
		if frappe.db.exists("User", user):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
	frappe.db.commit()


def drop_roles(*names: str) -> None:
	for name in names:
		if frappe.db.exists("Huf Role", name):
			frappe.delete_doc("Huf Role", name, force=True, ignore_permissions=True)
		frappe.db.delete("Custom DocPerm", {"role": name})
		if frappe.db.exists("Role", name):
			frappe.delete_doc("Role", name, force=True, ignore_permissions=True)
	frappe.db.commit()


@pytest.fixture
def site_rules_kept(site):
	"""A custom role copies the standard rules of the DocTypes it touches into Custom DocPerm (as Role
	Permissions Manager does); put those DocTypes back on their standard rules afterwards."""
	had_custom = set(frappe.get_all("Custom DocPerm", pluck="parent", distinct=True))
	yield
	frappe.db.rollback()
	for doctype in set(frappe.get_all("Custom DocPerm", pluck="parent", distinct=True)) - had_custom:
		frappe.db.delete("Custom DocPerm", {"parent": doctype})
		frappe.clear_cache(doctype=doctype)
	frappe.db.commit()


def implied(capabilities) -> dict[str, set[str]]:
	"""DocType -> read/write/create/delete, as DOCTYPE_RIGHTS says ``capabilities`` allow."""
	rights: dict[str, set[str]] = {}
	for capability in capabilities:
		for doctype, letters in DOCTYPE_RIGHTS[capability].items():
			rights.setdefault(doctype, set()).update(FLAGS[letter] for letter in letters)
	return rights


# --- defaults on user save ------------------------------------------------------------------------


def test_a_new_system_user_gets_huf_manager_and_gateway_user_on_save(site):
	user = email("new")
	drop_users(user)
	try:
		with defaults_on():
			make_user(user, ["Blogger"])  # a desk role: a System User with no Huf role
		assert frappe.db.get_value("User", user, "user_type") == "System User"
		assert rows_of(user) == {MANAGER: 1, GATEWAY: 1}
		assert {MANAGER, GATEWAY} <= site_roles(user)
		assert "System Manager" not in site_roles(user)
		assert has_capability(user, "agent.write") and not has_capability(user, "settings.write")
	finally:
		drop_users(user)


def test_defaults_stay_off_under_tests_unless_a_test_opts_in(site):
	user = email("off")
	drop_users(user)
	try:
		make_user(user, ["Blogger"])
		assert rows_of(user) == {}
		assert not site_roles(user) & {MANAGER, GATEWAY}
	finally:
		drop_users(user)


@pytest.mark.parametrize("given", ["in Huf", "in the User form"])
def test_an_assigned_huf_role_is_kept_and_only_gateway_user_is_added(site, given):
	user = email(f"kept-{given.split()[-1].lower()}")
	drop_users(user)
	try:
		if given == "in Huf":
			make_user(user, ["Blogger"])
			people.assign_huf_role(user, USER)
			frappe.db.commit()
			with defaults_on():
				frappe.get_doc("User", user).save(ignore_permissions=True)
		else:
			with defaults_on():
				make_user(user, [USER])
		assert rows_of(user) == {USER: 1, GATEWAY: 1}
		assert MANAGER not in site_roles(user)
		assert {USER, GATEWAY} <= site_roles(user)
	finally:
		drop_users(user)


def test_a_disabled_huf_user_role_is_not_turned_back_on_by_the_next_save(site):
	user = email("disabled")
	drop_users(user)
	try:
		with defaults_on():
			make_user(user, ["Blogger"])
			assert rows_of(user) == {MANAGER: 1, GATEWAY: 1}
			people.remove_huf_role(user, MANAGER)
			people.remove_huf_role(user, GATEWAY)
			frappe.db.commit()
			person = frappe.get_doc("User", user)
			person.last_name = "saved again"
			person.save(ignore_permissions=True)
		assert rows_of(user) == {MANAGER: 0, GATEWAY: 0}  # no new default row (nor Huf User) either
		assert not site_roles(user) & {MANAGER, GATEWAY, USER, "System Manager"}
		assert not has_capability(user, "agent.read")
	finally:
		drop_users(user)


def test_a_role_record_keeps_its_person_and_its_role(site):
	"""Handing a row to someone else in the Desk would leave the first person with the site Role:
	the person and the role are set once, and the refusal says what to do instead."""
	first, second = email("keeper-first"), email("keeper-second")
	drop_users(first, second)
	try:
		make_user(first, ["Blogger"])
		make_user(second, ["Blogger"])
		people.assign_huf_role(first, USER)
		frappe.db.commit()
		row = frappe.get_doc("Huf User Role", frappe.db.get_value("Huf User Role", {"user": first, "huf_role": USER}))
		for field, value in (("user", second), ("huf_role", VIEWER)):
			changed = frappe.get_doc("Huf User Role", row.name)
			changed.set(field, value)
			with pytest.raises(frappe.CannotChangeConstantError, match="add a record for them and turn this one off"):
				changed.save()
			frappe.db.rollback()
		assert rows_of(first) == {USER: 1} and rows_of(second) == {}
		assert USER in site_roles(first) and USER not in site_roles(second)
		assert frappe.get_meta("Huf User Role").get_field("user").set_only_once  # read-only in the Desk once saved
	finally:
		drop_users(first, second)


def test_administrator_only_gains_huf_gateway_user(site):
	"""Administrator is Huf Admin already (it holds every site Role), even when it was also given
	Huf Manager and Huf User in the User form. Rolled back, not committed."""
	try:
		frappe.db.delete("Huf User Role", {"user": "Administrator", "huf_role": GATEWAY})
		before = rows_of("Administrator")
		assert GATEWAY not in before
		person = frappe.get_doc("User", "Administrator")
		for role in {MANAGER, USER} - {row.role for row in person.roles}:
			person.append("roles", {"role": role})
		with defaults_on():
			person.save(ignore_permissions=True)
		assert rows_of("Administrator") == {**before, GATEWAY: 1}
		assert MANAGER not in rows_of("Administrator") and USER not in rows_of("Administrator")

		# With no row at all, its Huf Admin is written down (it already is one) and it still gets no Huf Manager.
		frappe.db.delete("Huf User Role", {"user": "Administrator"})
		with defaults_on():
			ensure_default_huf_roles("Administrator")
		assert rows_of("Administrator") == {ADMIN: 1, GATEWAY: 1}
	finally:
		frappe.db.rollback()
		frappe.clear_cache(user="Administrator")


# --- the migrate backfill -------------------------------------------------------------------------


@pytest.fixture
def backfill_people(site):
	"""Users made with the defaults off (as before Huf was installed, or while it was off), each a case."""
	names = {key: email(f"backfill-{key}") for key in ("fresh", "assigned", "form", "turned-off", "no-gateway", "website", "gone", "admin")}
	drop_users(*names.values())
	make_user(names["fresh"], ["Blogger"])
	make_user(names["assigned"], ["Blogger"])
	people.assign_huf_role(names["assigned"], USER)
	make_user(names["form"], [VIEWER])  # a Huf site Role given in the User form, without a row
	make_user(names["turned-off"], ["Blogger"])
	people.assign_huf_role(names["turned-off"], MANAGER)
	people.remove_huf_role(names["turned-off"], MANAGER)
	make_user(names["no-gateway"], ["Blogger"])
	people.assign_huf_role(names["no-gateway"], USER)
	people.assign_huf_role(names["no-gateway"], GATEWAY)
	people.remove_huf_role(names["no-gateway"], GATEWAY)
	make_user(names["website"], [])  # no desk role: a Website User
	make_user(names["gone"], ["Blogger"])
	frappe.db.set_value("User", names["gone"], "enabled", 0)
	make_user(names["admin"], ["System Manager"])
	frappe.db.commit()
	yield names
	frappe.db.rollback()
	drop_users(*names.values())


def test_the_migrate_backfill_follows_the_same_rules_and_writes_nothing_the_second_time(site, backfill_people, monkeypatch):
	names = backfill_people
	assert frappe.db.get_value("User", names["website"], "user_type") == "Website User"
	site_users = frappe.get_all("User", filters={"enabled": 1, "user_type": "System User"}, pluck="name")
	try:
		with defaults_on():
			ensure_default_huf_roles()
			assert rows_of(names["fresh"]) == {MANAGER: 1, GATEWAY: 1}
			assert rows_of(names["assigned"]) == {USER: 1, GATEWAY: 1}
			assert rows_of(names["form"]) == {VIEWER: 1, GATEWAY: 1}
			assert rows_of(names["turned-off"]) == {MANAGER: 0, GATEWAY: 1}
			assert rows_of(names["no-gateway"]) == {USER: 1, GATEWAY: 0}
			assert rows_of(names["website"]) == {} and rows_of(names["gone"]) == {}
			assert rows_of(names["admin"]) == {ADMIN: 1, GATEWAY: 1}  # was System Manager already: written down, not made
			assert MANAGER not in site_roles(names["turned-off"]) and GATEWAY not in site_roles(names["no-gateway"])
			for user in site_users:  # nobody on the site was made Huf Admin
				assert ("System Manager" in site_roles(user) or user == "Administrator") or ADMIN not in rows_of(user), user
				assert GATEWAY in rows_of(user), user

			rows_before = frappe.get_all("Huf User Role", fields=["name", "enabled", "modified"], order_by="name")
			users_before = frappe.get_all("User", fields=["name", "modified"], order_by="name")
			writes = []
			real_sql = frappe.db.sql

			def watched(query, *args, **kwargs):
				if str(query).lstrip().split(None, 1)[0].lower() in ("insert", "update", "delete", "replace"):
					writes.append(" ".join(str(query).split())[:120])
				return real_sql(query, *args, **kwargs)

			monkeypatch.setattr(frappe.db, "sql", watched)
			ensure_default_huf_roles()
			monkeypatch.undo()
			assert writes == []
			assert frappe.get_all("Huf User Role", fields=["name", "enabled", "modified"], order_by="name") == rows_before
			assert frappe.get_all("User", fields=["name", "modified"], order_by="name") == users_before
	finally:
		frappe.db.rollback()  # the backfill touched every System User of the site
		for user in site_users:
			frappe.clear_cache(user=user)


# --- what is refused ------------------------------------------------------------------------------


def test_a_capability_that_does_not_exist_is_refused_with_the_real_ones_listed(site, site_rules_kept):
	drop_roles("roles-test Flier")
	try:
		with pytest.raises(frappe.ValidationError) as refused:
			people.save_huf_role("roles-test Flier", ["agent.read", "agent.fly"])
		message = str(refused.value)
		assert "agent.fly is not a Huf capability" in message
		assert all(name in message for name in CAPABILITIES)
		assert not frappe.db.exists("Huf Role", "roles-test Flier") and not frappe.db.exists("Role", "roles-test Flier")
		with pytest.raises(UnknownCapability):
			needs("agent.fly")
	finally:
		drop_roles("roles-test Flier")


@pytest.mark.parametrize("name", list(BUILTIN_ROLES))
def test_a_built_in_role_can_be_neither_changed_nor_deleted(site, name):
	caps = list(BUILTIN_ROLES[name][2])
	with pytest.raises(frappe.ValidationError, match="comes with Huf and cannot be changed"):
		people.save_huf_role(name, caps[:1], "mine now", name=name)
	doc = frappe.get_doc("Huf Role", name)
	doc.role_description = "mine now"
	with pytest.raises(frappe.ValidationError, match="comes with Huf and cannot be changed"):
		doc.save()
	with pytest.raises(frappe.ValidationError, match="comes with Huf and cannot be deleted"):
		people.delete_huf_role(name)
	frappe.db.rollback()
	assert [row.capability for row in frappe.get_doc("Huf Role", name).permissions] == caps
	assert frappe.db.exists("Role", BUILTIN_ROLES[name][0])


def only_admins(*keep: str) -> None:
	"""Every other System Manager of the site disabled in this transaction (rolled back by the caller)."""
	others = frappe.get_all("Has Role", filters={"role": "System Manager", "parenttype": "User", "parent": ("not in", (*keep, "Administrator"))}, pluck="parent")
	if others:
		frappe.db.sql("update `tabUser` set enabled = 0 where name in %(others)s", {"others": others})


def test_the_last_huf_admin_cannot_be_removed_until_there_is_another(site):
	first, second = email("admin-first"), email("admin-second")
	drop_users(first, second)
	try:
		make_user(first, ["Blogger"])
		people.assign_huf_role(first, ADMIN)
		frappe.db.commit()
		assert "System Manager" in site_roles(first)
		only_admins(first)
		with pytest.raises(frappe.ValidationError, match="last Huf Admin"):
			people.remove_huf_role(first, ADMIN)
		row = frappe.get_doc("Huf User Role", frappe.db.get_value("Huf User Role", {"user": first, "huf_role": ADMIN}))
		row.enabled = 0
		with pytest.raises(frappe.ValidationError, match="last Huf Admin"):
			row.save()
		with pytest.raises(frappe.ValidationError, match="last Huf Admin"):
			frappe.delete_doc("Huf User Role", row.name)
		frappe.db.rollback()
		assert rows_of(first) == {ADMIN: 1} and "System Manager" in site_roles(first)

		make_user(second, ["System Manager"])
		only_admins(first, second)
		people.remove_huf_role(first, ADMIN)
		assert rows_of(first) == {ADMIN: 0}
		assert "System Manager" not in site_roles(first) and not has_capability(first, "settings.write")
	finally:
		frappe.db.rollback()
		drop_users(first, second)


def test_a_custom_role_may_not_take_the_name_of_a_site_role(site, site_rules_kept):
	with pytest.raises(frappe.ValidationError, match="already has a role called Blogger"):
		people.save_huf_role("Blogger", ["agent.read"])
	assert not frappe.db.exists("Huf Role", "Blogger") and not frappe.db.exists("Custom DocPerm", {"role": "Blogger"})


def test_settings_write_through_a_custom_role_cannot_grant_what_its_holder_lacks(site, site_rules_kept):
	keeper, other, admin = email("keeper"), email("keeper-other"), email("keeper-admin")
	role, small, too_much = "roles-test Settings Keeper", "roles-test Small", "roles-test Too Much"
	drop_users(keeper, other, admin)
	drop_roles(role, small, too_much)
	try:
		make_user(keeper, ["Blogger"])
		make_user(other, ["Blogger"])
		make_user(admin, ["Blogger"])
		people.assign_huf_role(admin, ADMIN)
		people.save_huf_role(role, ["settings.write", "agent.read", "run.read"])
		people.assign_huf_role(keeper, role)
		people.assign_huf_role(other, GATEWAY)
		frappe.db.commit()
		admin_row = frappe.db.get_value("Huf User Role", {"user": admin, "huf_role": ADMIN})
		with as_user(keeper):
			assert has_capability(None, "settings.write")
			with pytest.raises(frappe.PermissionError, match="lack agent.write"):
				people.save_huf_role(too_much, ["agent.read", "agent.write"])
			with pytest.raises(frappe.PermissionError, match="you lack agent.run, agent.write"):
				people.assign_huf_role(other, MANAGER)
			with pytest.raises(frappe.PermissionError, match="Only a site administrator can give or take Huf Admin"):
				people.assign_huf_role(other, ADMIN)
			with pytest.raises(frappe.PermissionError, match="Only a site administrator can give or take Huf Admin"):
				people.remove_huf_role(admin, ADMIN)
			with pytest.raises(frappe.PermissionError, match="Only a site administrator can give or take Huf Admin"):
				frappe.delete_doc("Huf User Role", admin_row)  # as the Desk's or the REST API's delete does
			# what the keeper has, they can pass on (and their Desk rights let them delete a row)
			people.save_huf_role(small, ["agent.read"])
			people.assign_huf_role(other, VIEWER)
			frappe.delete_doc("Huf User Role", frappe.db.get_value("Huf User Role", {"user": other, "huf_role": GATEWAY}))
		assert rows_of(other) == {VIEWER: 1}
		assert rows_of(admin) == {ADMIN: 1} and "System Manager" in site_roles(admin)
		assert not frappe.db.exists("Huf Role", too_much)
		assert "System Manager" not in site_roles(other) and MANAGER not in site_roles(other)
	finally:
		frappe.db.rollback()
		drop_users(keeper, other, admin)
		drop_roles(role, small, too_much)


# --- custom roles ---------------------------------------------------------------------------------


def custom_rights(role: str) -> dict[str, set[str]]:
	rows = frappe.get_all("Custom DocPerm", filters={"role": role, "permlevel": 0}, fields=["parent", "read", "write", "create", "delete"])
	return {row.parent: {flag for flag in FLAGS.values() if row[flag]} for row in rows}


def test_a_custom_role_is_a_site_role_with_exactly_the_rights_its_capabilities_imply(site, site_rules_kept):
	writer_role, reader_role = "roles-test Knowledge Writer", "roles-test Knowledge Reader"
	writer_caps, reader_caps = ["agent.read", "knowledge.read", "knowledge.write"], ["knowledge.read"]
	writer, reader = email("writer"), email("reader")
	drop_users(writer, reader)
	drop_roles(writer_role, reader_role)
	try:
		people.save_huf_role(writer_role, writer_caps, "writes knowledge")
		people.save_huf_role(reader_role, reader_caps)
		for role, caps in ((writer_role, writer_caps), (reader_role, reader_caps)):
			assert frappe.db.get_value("Role", role, "desk_access") == 1
			assert frappe.db.get_value("Huf Role", role, "frappe_role") == role
			assert custom_rights(role) == implied(caps)
		make_user(writer, ["Blogger"])
		make_user(reader, ["Blogger"])
		assert not has_capability(writer, "knowledge.write")  # cached for this request now
		people.assign_huf_role(writer, writer_role)
		people.assign_huf_role(reader, reader_role)
		frappe.db.commit()
		assert has_capability(writer, "knowledge.write") and not has_capability(reader, "knowledge.write")
		assert frappe.has_permission("Knowledge Source", "create", user=writer)
		assert not frappe.has_permission("Knowledge Source", "create", user=reader)
		assert frappe.has_permission("Knowledge Source", "read", user=reader)
		assert not frappe.has_permission("Agent", "write", user=writer)

		people.remove_huf_role(writer, writer_role)
		assert not has_capability(writer, "knowledge.write") and writer_role not in site_roles(writer)
		people.assign_huf_role(writer, writer_role)
		assert has_capability(writer, "knowledge.write")

		narrower = ["agent.read", "knowledge.read"]
		people.save_huf_role(writer_role, narrower, name=writer_role)
		assert not has_capability(writer, "knowledge.write") and has_capability(writer, "knowledge.read")
		assert custom_rights(writer_role) == implied(narrower)
		frappe.local.role_permissions = {}  # Frappe's own per-request cache of the rights
		assert not frappe.has_permission("Knowledge Source", "create", user=writer)
		people.save_huf_role(writer_role, writer_caps, name=writer_role)
		assert has_capability(writer, "knowledge.write") and custom_rights(writer_role) == implied(writer_caps)

		people.delete_huf_role(writer_role)
		frappe.db.commit()
		assert not frappe.db.exists("Role", writer_role)
		assert custom_rights(writer_role) == {}
		assert not frappe.db.exists("Huf User Role", {"huf_role": writer_role})
		assert writer_role not in site_roles(writer)
		assert not has_capability(writer, "knowledge.write")
		frappe.local.role_permissions = {}  # Frappe's own per-request cache of the rights
		assert not frappe.has_permission("Knowledge Source", "create", user=writer)
		assert custom_rights(reader_role) == implied(reader_caps)  # the other custom role is untouched
	finally:
		frappe.db.rollback()
		drop_users(writer, reader)
		drop_roles(writer_role, reader_role)


# --- the built-in roles' standard permissions -----------------------------------------------------


def standard_rights() -> dict[str, dict[str, set[str]]]:
	"""Site Role -> DocType -> read/write/create/delete, from the DocType JSONs (level 0; an
	"only if creator" rule counts as the right, limited to one's own records)."""
	rights: dict[str, dict[str, set[str]]] = {}
	for path in sorted(DOCTYPES.glob("*/*.json")):
		data = json.loads(path.read_text())
		if data.get("doctype") != "DocType":
			continue
		for perm in data.get("permissions", []):
			if not perm.get("permlevel"):
				rights.setdefault(perm["role"], {}).setdefault(data["name"], set()).update(f for f in FLAGS.values() if perm.get(f))
	return rights


def test_the_built_in_roles_standard_permissions_agree_with_doctype_rights(site):
	standard = standard_rights()
	for doctype in {doctype for rights in DOCTYPE_RIGHTS.values() for doctype in rights}:
		assert frappe.db.exists("DocType", doctype), f"DOCTYPE_RIGHTS names {doctype}, which is not a DocType"
	missing, extra = [], []
	for name, (role, _about, caps) in BUILTIN_ROLES.items():
		wanted, granted = implied(caps), standard.get(role, {})
		missing += [f"{name} ({role}): {doctype} {sorted(flags - granted.get(doctype, set()))}" for doctype, flags in wanted.items() if flags - granted.get(doctype, set())]
		if role == "System Manager":
			continue  # the site's administrators may do more than Huf gives them
		for doctype, flags in granted.items():
			beyond = flags - {"read"} - wanted.get(doctype, set())  # reading more is tolerated
			if beyond:
				extra.append(f"{name} ({role}): {doctype} {sorted(beyond)}")
	assert missing == [], "rights a built-in role's capabilities imply but its DocType permissions lack"
	assert extra == [], "changes a built-in role may make that none of its capabilities implies"


# --- has_capability -------------------------------------------------------------------------------


def test_has_capability_costs_no_sql_after_the_first_call_of_a_request(site, monkeypatch):
	user = email("warm")
	drop_users(user)
	try:
		make_user(user, [USER])
		forget_capabilities()  # a new request, with the role map to be read again
		with counted_statements(monkeypatch) as first:
			assert has_capability(user, "agent.run")
		assert first["huf"] > 0  # the counter sees the first call's reads
		redis, asked = [], []
		real_command, real_roles = frappe.cache.execute_command, frappe.get_roles
		with counted_statements(monkeypatch) as later:
			monkeypatch.setattr(frappe.cache, "execute_command", lambda *a, **kw: redis.append(a[0]) or real_command(*a, **kw))
			monkeypatch.setattr(frappe, "get_roles", lambda *a, **kw: asked.append(a) or real_roles(*a, **kw))
			for _ in range(200):
				for capability in CAPABILITIES:
					assert has_capability(user, capability) == (capability in BUILTIN_ROLES[USER][2])
		assert later["huf"] == 0 and redis == []
		assert asked == []  # worked out once: not even Frappe's cached roles are asked again
		with as_user(user):  # the signed-in user (None) is the same lookup
			with counted_statements(monkeypatch) as signed_in:
				assert has_capability(None, "agent.run") and not has_capability(None, "agent.write")
			assert signed_in["huf"] == 0
	finally:
		drop_users(user)


def test_an_unknown_capability_name_raises(site):
	has_capability("Administrator", "agent.read")  # warm: the name is checked before the cache
	for check in (lambda: has_capability("Administrator", "agent.fly"), lambda: has_capability(None, "agent.fly"), lambda: require("agent.fly")):
		with pytest.raises(UnknownCapability, match="agent.fly"):
			check()
