"""Data tables (huf/ai/data_tables/api.py): a table's life (create, rows through an agent's CRUD
tools, CSV round trip, a refused and then a confirmed destructive change, delete), what create
refuses, and who may do what (table.write, table.read, the rows' own DocPerms).

Creating a DocType commits (DDL), so every table here is named "DT Test ..." and removed at the
start and end of the module."""

from __future__ import annotations

import json

import frappe
import pytest

from huf.ai.agent.integration import run_agent_sync
from huf.ai.data_tables import api
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.scripted_llm import text, tool_calls

FIELDS = [
	{"label": "Title", "fieldtype": "Data", "reqd": 1},
	{"label": "Quantity", "fieldname": "qty", "fieldtype": "Int"},
	{"label": "Price", "fieldtype": "Float"},
	{"label": "Status", "fieldtype": "Select", "options": "Open\nClosed"},
	{"label": "Assignee", "fieldtype": "Link", "options": "User"},
	{"label": "Notes", "fieldtype": "Text"},
	{"label": "Done", "fieldtype": "Check"},
	{"label": "Due", "fieldtype": "Date"},
]


def drop_test_tables() -> None:
	frappe.set_user("Administrator")
	for name in frappe.get_all("Huf Data Table", filters={"table_name": ("like", "DT Test%")}, pluck="name"):
		api.delete_data_table(name)
	for doctype in frappe.get_all("DocType", filters={"name": ("like", "HF DT Test%")}, pluck="name"):
		frappe.delete_doc("DocType", doctype, force=True)
		frappe.db.sql_ddl(f"drop table if exists `tab{doctype}`")
	frappe.db.commit()


@pytest.fixture(scope="module")
def clean(site):
	drop_test_tables()
	yield
	drop_test_tables()


@pytest.fixture(scope="module")
def people(site):
	return {
		"manager": make_user("dt-manager@huf.test", ["Huf Manager"]),
		"user": make_user("dt-user@huf.test", ["Huf User"]),
		"viewer": make_user("dt-viewer@huf.test", ["Huf Viewer"]),
	}


def create(name: str, fields=FIELDS, **kwargs) -> dict:
	result = api.create_data_table(name, json.dumps(fields), **kwargs)
	frappe.db.commit()
	return result


def refused(match: str, *args, **kwargs) -> None:
	with pytest.raises(frappe.ValidationError, match=match):
		api.create_data_table(*args, **kwargs)
	frappe.db.rollback()


def test_a_data_tables_life(clean, people, llm):
	made = create("DT Test Orders", description="orders for the test", title_field_name="title")
	assert made == {"name": "DT Test Orders", "doctype": "HF DT Test Orders"}
	meta = frappe.get_meta("HF DT Test Orders")
	assert (meta.custom, meta.module, meta.autoname, meta.title_field) == (1, "Huf", "autoincrement", "title")
	assert {p.role: (p.read, p.write, p.create, p.delete) for p in meta.permissions} == {
		"System Manager": (1, 1, 1, 1), "Huf Manager": (1, 1, 1, 1), "Huf User": (1, 0, 0, 0),
	}  # fmt: skip
	table = api.get_data_table("DT Test Orders")
	assert table["field_count"] == 8 and table["row_count"] == 0
	assert [(f["fieldname"], f["fieldtype"]) for f in table["fields"]][:2] == [("title", "Data"), ("qty", "Int")]
	assert "DT Test Orders" in [t["name"] for t in api.list_data_tables()]

	# rows through the existing CRUD tool types, as a person of the owner role
	fixtures.tool("dt_test_create", "Create Document", "HF DT Test Orders")
	fixtures.tool("dt_test_list", "Get List", "HF DT Test Orders")
	agent = fixtures.agent(llm, name="DT Test Agent", tools=("dt_test_create", "dt_test_list"))
	frappe.db.commit()
	assert api.get_data_table("DT Test Orders")["tools"] == ["dt_test_create", "dt_test_list"]  # named in its delete question
	with as_user(people["user"]):
		assert api.get_data_table("DT Test Orders")["tools"] == ["dt_test_create", "dt_test_list"]
	llm.script(
		tool_calls([
			("c1", "dt_test_create", json.dumps({"data": {"title": "Widget", "qty": 3, "price": 2.5, "status": "Open", "assignee": people["user"]}})),
			("c2", "dt_test_create", json.dumps({"data": {"title": "Gadget", "qty": 1, "price": 10, "status": "Closed", "notes": "x" * 200}})),
		]),
		tool_calls([("c3", "dt_test_list", json.dumps({"fields": ["title", "qty"], "order_by": "title asc"}))]),
		text("Added two orders."),
	)  # fmt: skip
	with as_user(people["manager"]):
		result = run_agent_sync(agent, "add two orders", now=True)
	assert result["status"] == "Success"
	calls = frappe.get_all("Agent Tool Call", filters={"agent_run": result["run"]}, fields=["status", "error_message"])
	assert [c.status for c in calls] == ["Success"] * 3, calls
	listed = llm.requests[-1]["body"]["messages"][-1]["content"]
	assert "Gadget" in listed and "Widget" in listed
	assert api.count_rows("DT Test Orders") == 2
	assert frappe.db.get_value("HF DT Test Orders", {"title": "Widget"}, "owner") == people["manager"]

	# CSV round trip: export, then import into a second table with the same fields
	exported = api.export_csv("DT Test Orders")
	assert exported.splitlines()[0] == "title,qty,price,status,assignee,notes,done,due"
	create("DT Test Copy")
	preview = api.preview_csv("DT Test Copy", exported)
	assert (preview["header_ok"], preview["good"], preview["bad"]) == (True, 2, 0)
	assert api.count_rows("DT Test Copy") == 0  # a preview writes nothing
	imported = api.import_csv("DT Test Copy", exported)
	frappe.db.commit()
	assert imported["imported"] == 2
	assert api.export_csv("DT Test Copy") == exported

	# a destructive change is refused with its losses; nothing changes
	narrowed = [dict(f) for f in FIELDS if f["label"] != "Assignee"]
	by_label = {f["label"]: f for f in narrowed}
	by_label["Notes"]["fieldtype"] = "Data"  # Text -> Data, one value of 200 characters
	by_label["Price"]["fieldtype"] = "Int"  # 2.5 has decimals
	answer = api.update_data_table("DT Test Orders", json.dumps(narrowed))
	assert answer["needs_confirmation"] is True
	losses = {loss["field"]: loss for loss in answer["losses"]}
	assert set(losses) == {"assignee", "notes", "price"}
	assert (losses["assignee"]["rows"], losses["assignee"]["examples"]) == (1, [people["user"]])
	assert losses["notes"]["rows"] == 1 and losses["price"]["examples"] == [2.5]
	frappe.db.commit()
	assert frappe.get_meta("HF DT Test Orders").has_field("assignee")
	assert frappe.db.get_value("HF DT Test Orders", {"title": "Widget"}, "price") == 2.5

	# a change that loses nothing needs no confirmation
	added = [*FIELDS, {"label": "Region", "fieldtype": "Data"}]
	assert api.update_data_table("DT Test Orders", json.dumps(added))["applied"] is True
	frappe.db.commit()
	assert api.get_data_table("DT Test Orders")["field_count"] == 9

	# confirmed: applied
	answer = api.update_data_table("DT Test Orders", json.dumps(narrowed), confirm=1)
	frappe.db.commit()
	assert answer["applied"] is True
	meta = frappe.get_meta("HF DT Test Orders")
	assert not meta.has_field("assignee") and not meta.has_field("region")
	assert not frappe.db.has_column("HF DT Test Orders", "assignee")
	assert meta.get_field("notes").fieldtype == "Data" and meta.get_field("price").fieldtype == "Int"
	assert len(frappe.db.get_value("HF DT Test Orders", {"title": "Gadget"}, "notes")) == 140
	assert frappe.db.get_value("HF DT Test Orders", {"title": "Widget"}, "price") == 2
	assert api.get_data_table("DT Test Orders")["field_count"] == 7

	# delete: the DocType, its table and its registry row
	api.delete_data_table("DT Test Orders")
	frappe.db.commit()
	assert not frappe.db.exists("DocType", "HF DT Test Orders")
	assert not frappe.db.exists("Huf Data Table", "DT Test Orders")
	assert not frappe.db.sql("show tables like 'tabHF DT Test Orders'")


def test_a_csv_with_a_wrong_header_or_bad_values_imports_nothing_unless_asked_for_the_good_rows(clean):
	create("DT Test Import")
	wrong = "title,colour\nA,red\n"
	answer = api.import_csv("DT Test Import", wrong)
	assert (answer["header_ok"], answer["unknown"], answer["imported"]) == (False, ["colour"], 0)
	missing = api.preview_csv("DT Test Import", "qty\n1\n")
	assert missing["header_ok"] is False and missing["missing"] == ["title"]
	content = (
		"Title,Quantity,Price,Status,Assignee,Done,Due\n"  # labels are taken for fieldnames too
		"good one,1,1.5,Open,Administrator,1,2026-01-31\n"
		"bad qty,1.5,1,Open,,0,\n"
		",2,2,Closed,,0,\n"
		"bad choice,2,2,Maybe,nobody@nowhere.test,yes,31/01/2026\n"
		"good two,,,,,,\n"
	)
	preview = api.preview_csv("DT Test Import", content)
	assert (preview["header_ok"], preview["good"], preview["bad"]) == (True, 2, 3)
	errors = {r["row"]: r["errors"] for r in preview["rows"]}
	assert errors[2] == [] and errors[6] == []
	assert errors[3] == ["Quantity: 1.5 is not a whole number"]
	assert errors[4] == ["Title: a value is required"]
	assert len(errors[5]) == 3 and any("Maybe" in e for e in errors[5]) and any("not a User" in e for e in errors[5])
	answer = api.import_csv("DT Test Import", content)
	assert answer["imported"] == 0 and [e["row"] for e in answer["errors"]] == [3, 4, 5]
	assert api.count_rows("DT Test Import") == 0
	answer = api.import_csv("DT Test Import", content, good_rows_only=1)
	frappe.db.commit()
	assert answer["imported"] == 2 and answer["bad"] == 3
	rows = api.list_rows("DT Test Import", order_by="title asc")["rows"]
	assert [(r.title, r.qty, r.done) for r in rows] == [("good one", 1, 1), ("good two", 0, 0)]  # Frappe's number columns hold 0 for empty
	assert api.list_rows("DT Test Import", filters=json.dumps({"title": "good two"}))["total"] == 1


def test_a_table_named_by_a_field(clean):
	fields = [{"label": "Code", "fieldtype": "Data"}, {"label": "Amount", "fieldtype": "Currency"}]
	create("DT Test Codes", fields, autoname_method="Field", title_field_name="code")
	assert frappe.get_meta("HF DT Test Codes").autoname == "field:code"
	assert api.import_csv("DT Test Codes", "code,amount\nA1,10\nB2,20\n")["imported"] == 2
	again = api.preview_csv("DT Test Codes", "code,amount\nA1,1\nC3,3\nC3,4\n")
	assert [r["errors"] for r in again["rows"]] == [["code: a row named A1 already exists"], [], ["code: a row named C3 already exists"]]
	frappe.db.commit()
	assert sorted(api.list_rows("DT Test Codes", order_by="name asc")["rows"][i].name for i in range(2)) == ["A1", "B2"]


def test_create_refuses_what_it_cannot_make_and_leaves_nothing(clean):
	one = json.dumps([{"label": "Title", "fieldtype": "Data"}])
	refused("at least one field", "DT Test Empty", "[]")
	refused("at most 200 fields", "DT Test Wide", json.dumps([{"label": f"F {i}", "fieldtype": "Data"} for i in range(201)]))
	refused("does not take", "DT Test Kind", json.dumps([{"label": "Pic", "fieldtype": "Attach Image"}]))
	refused("Two fields are named", "DT Test Twice", json.dumps([{"label": "A", "fieldtype": "Data"}, {"label": "a", "fieldtype": "Int"}]))
	for reserved in ("name", "owner", "modified", "docstatus", "idx", "parent", "section_break", "save", "class"):
		refused("reserved", "DT Test Reserved", json.dumps([{"label": "X", "fieldname": reserved, "fieldtype": "Data"}]))
	refused("not allowed", "DT Test Bad Name", json.dumps([{"label": "X", "fieldname": "Has Space", "fieldtype": "Data"}]))
	refused("not a DocType", "DT Test Link", json.dumps([{"label": "To", "fieldtype": "Link", "options": "No Such DocType"}]))
	refused("needs its choices", "DT Test Select", json.dumps([{"label": "S", "fieldtype": "Select"}]))
	refused("needs the title field", "DT Test Naming", one, autoname_method="Field")
	refused("not one of the table's fields", "DT Test Naming", one, autoname_method="Field", title_field_name="missing")
	refused("not allowed", "1 starts with a digit", one)
	refused("not allowed", "DT Test " + "x" * 60, one)
	create("DT Test Taken", json.loads(one))
	refused("already exists", "DT Test Taken", one)
	frappe.db.sql_ddl("create table if not exists `tabHF DT Test Clash` (name varchar(140))")  # a stray table only
	frappe.get_doc({"doctype": "DocType", "name": "HF DT Test Clash", "module": "Custom", "custom": 1, "fields": [{"fieldname": "x", "fieldtype": "Data", "label": "X"}],
		"permissions": [{"role": "System Manager", "read": 1}]}).insert()  # fmt: skip
	frappe.db.commit()
	refused("already exists", "DT Test Clash", one)
	tried = ("Empty", "Wide", "Kind", "Twice", "Reserved", "Bad Name", "Link", "Select", "Naming")
	for name in tried:
		assert not frappe.db.exists("Huf Data Table", "DT Test " + name) and not frappe.db.exists("DocType", "HF DT Test " + name), name
	assert not frappe.db.exists("Huf Data Table", "DT Test Clash")


def test_a_failure_after_the_doctype_is_made_takes_it_back(clean, monkeypatch):
	from frappe.model.document import Document

	real_insert = Document.insert

	def failing(self, *args, **kwargs):
		if self.doctype == "Huf Data Table":
			raise frappe.ValidationError("the registry row could not be written")
		return real_insert(self, *args, **kwargs)

	monkeypatch.setattr(Document, "insert", failing)
	with pytest.raises(frappe.ValidationError, match="registry row"):
		api.create_data_table("DT Test Half", json.dumps([{"label": "Title", "fieldtype": "Data"}]))
	monkeypatch.undo()
	assert not frappe.db.exists("DocType", "HF DT Test Half")
	assert not frappe.db.sql("show tables like 'tabHF DT Test Half'")


def test_without_table_write_a_person_gets_403_naming_it(clean, people, web):
	headers = web.token_headers(people["user"])
	answer = web.post("/api/method/huf.ai.data_tables.api.create_data_table", {"table_name": "DT Test Nope", "fields": json.dumps(FIELDS[:1])}, headers)
	assert answer.status_code == 403 and '\\"table.write\\"' in answer.text
	assert not frappe.db.exists("DocType", "HF DT Test Nope")
	viewer = web.token_headers(people["viewer"])
	answer = web.get("/api/method/huf.ai.data_tables.api.list_data_tables", viewer)
	assert answer.status_code == 403 and '\\"table.read\\"' in answer.text


def test_rows_follow_the_tables_roles(clean, people, web):
	if not frappe.db.exists("Role", "DT Test Readers"):
		frappe.get_doc({"doctype": "Role", "role_name": "DT Test Readers", "desk_access": 1}).insert()
	create("DT Test Private", FIELDS[:2], owner_role="Huf Manager", reader_role="DT Test Readers")
	assert api.import_csv("DT Test Private", "title,qty\nsecret row,1\n")["imported"] == 1
	frappe.db.commit()
	with as_user(people["user"]):  # holds table.read, but not the table's reader role
		with pytest.raises(frappe.PermissionError):
			api.list_rows("DT Test Private")
		with pytest.raises(frappe.PermissionError):
			api.count_rows("DT Test Private")  # not even how many there are
		assert api.get_data_table("DT Test Private")["row_count"] == 0
		assert {t["name"]: t["row_count"] for t in api.list_data_tables()}["DT Test Private"] == 0
		with pytest.raises(frappe.PermissionError):
			api.import_csv("DT Test Private", "title,qty\nplanted,2\n")
	answer = web.get("/api/method/huf.ai.data_tables.api.list_rows", web.token_headers(people["user"]), name="DT Test Private")
	assert answer.status_code == 403 and "secret row" not in answer.text
	assert "secret row" not in web.get("/api/method/huf.ai.data_tables.api.export_csv", web.token_headers(people["user"]), name="DT Test Private").text
	with as_user(people["manager"]):
		assert [r.title for r in api.list_rows("DT Test Private")["rows"]] == ["secret row"]
		assert api.count_rows("DT Test Private") == 1 and api.get_data_table("DT Test Private")["row_count"] == 1
	exported = web.get("/api/method/huf.ai.data_tables.api.export_csv", web.token_headers(people["manager"]), name="DT Test Private")
	assert exported.status_code == 200 and exported.headers["Content-Type"].startswith("text/csv")
	assert exported.text.splitlines() == ["title,qty", "secret row,1"]


def test_who_may_read_and_change_rows_is_changed_on_the_table(clean, people):
	create("DT Test Shared", FIELDS[:2])  # Huf Manager changes rows, Huf User reads them
	assert api.import_csv("DT Test Shared", "title,qty\nshared row,1\n")["imported"] == 1
	frappe.db.commit()
	with as_user(people["user"]):
		assert [r.title for r in api.list_rows("DT Test Shared")["rows"]] == ["shared row"]
	if not frappe.db.exists("Role", "DT Test Readers"):
		frappe.get_doc({"doctype": "Role", "role_name": "DT Test Readers", "desk_access": 1}).insert()
	fields = api.get_data_table("DT Test Shared")["fields"]
	with pytest.raises(frappe.ValidationError, match="is not a Role"):
		api.update_data_table("DT Test Shared", json.dumps(fields), reader_role="No Such Role")
	api.update_data_table("DT Test Shared", json.dumps(fields), reader_role="DT Test Readers")
	frappe.db.commit()
	table = api.get_data_table("DT Test Shared")
	assert (table["owner_role"], table["reader_role"]) == ("Huf Manager", "DT Test Readers")
	with as_user(people["user"]):  # no longer a reader
		with pytest.raises(frappe.PermissionError):
			api.list_rows("DT Test Shared")
	with as_user(people["manager"]):
		assert [r.title for r in api.list_rows("DT Test Shared")["rows"]] == ["shared row"]


def test_who_may_not_see_tools_is_not_told_which_use_a_table(clean, monkeypatch):
	create("DT Test Hidden", FIELDS[:2])
	fixtures.tool("dt_test_hidden_list", "Get List", "HF DT Test Hidden")
	frappe.db.commit()
	assert api.get_data_table("DT Test Hidden")["tools"] == ["dt_test_hidden_list"]
	monkeypatch.setattr(api, "has_capability", lambda user, capability: capability != "tool.read")  # table.read, not tool.read
	assert api.get_data_table("DT Test Hidden")["tools"] == []
