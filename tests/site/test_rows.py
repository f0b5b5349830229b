"""A commit sent ahead of a model call (``rows.commit(model_call_next=True)``): the server writes it
while the call goes on; its reply is read and its hooks run before the connection's next command."""

from __future__ import annotations

import json

import frappe
import pymysql
import pytest
from frappe.utils import random_string

from huf.ai.rows import commit, settle
from tests.site import fixtures
from tests.site.sql_count import counted_statements
from tests.support.scripted_llm import text, tool_calls


def other_connection():
	conf = frappe.conf
	return pymysql.connect(host=conf.db_host or "127.0.0.1", port=int(conf.db_port or 3306), user=conf.db_name, password=conf.db_password, database=conf.db_name)


def todo(description: str) -> str:
	return frappe.get_doc({"doctype": "ToDo", "description": description}).insert(ignore_permissions=True).name


def seen_by_another_session(name: str) -> bool:
	with other_connection() as conn, conn.cursor() as cursor:
		cursor.execute("select count(*) from `tabToDo` where name = %s", (name,))
		return cursor.fetchone()[0] == 1


def test_a_commit_sent_ahead_is_written_and_its_hooks_run_once_its_reply_is_read():
	name = todo(f"ahead {random_string(6)}")
	ran: list[str] = []
	frappe.db.after_commit.add(lambda: ran.append("this commit's hook"))
	commit(model_call_next=True)
	assert ran == []  # not before the server said the commit happened
	frappe.db.after_commit.add(lambda: ran.append("the next transaction's hook"))
	settle()
	assert ran == ["this commit's hook"]
	assert seen_by_another_session(name)
	settle()  # nothing waits: nothing happens
	assert ran == ["this commit's hook"]
	frappe.db.rollback()  # the next transaction's hook goes with it
	assert ran == ["this commit's hook"]


def test_the_next_command_reads_the_commits_reply_first_so_every_answer_stays_its_own():
	name = todo(f"next {random_string(6)}")
	ran: list[str] = []
	frappe.db.after_commit.add(lambda: ran.append("hook"))
	commit(model_call_next=True)
	assert frappe.db.sql("select description from `tabToDo` where name = %s", name)[0][0].startswith("next ")
	assert ran == ["hook"]
	assert seen_by_another_session(name)

	commit(model_call_next=True)
	frappe.db._conn.ping(reconnect=False)  # a command that is not a query settles too
	assert frappe.db.sql("select 1")[0][0] == 1

	later = todo(f"rolled back {random_string(6)}")
	commit(model_call_next=True)
	frappe.db.rollback()  # the commit came first: the row stays
	assert seen_by_another_session(later)


def test_a_commit_whose_connection_died_fails_where_it_is_settled():
	todo(f"lost {random_string(6)}")
	conn = frappe.db._conn
	commit(model_call_next=True)
	settle()
	commit(model_call_next=True)
	with other_connection() as killer, killer.cursor() as cursor:
		conn._read_ok_packet()  # the reply, read early by hand: the next one the guard reads never comes
		cursor.execute(f"kill connection {conn.thread_id()}")
	with pytest.raises(pymysql.err.OperationalError):
		settle()
	frappe.db.connect()  # the test's own session goes on


def test_a_tool_run_sends_its_commits_before_model_calls_ahead_and_counts_them(site, llm, monkeypatch):
	from huf.ai import recorder, rows
	from huf.ai.agent.integration import run_agent_sync

	fixtures.tool("rows_list", "Get List", "ToDo")
	agent = fixtures.agent(llm, name="Rows Agent", tools=("rows_list",))
	llm.script(tool_calls([("c1", "rows_list", json.dumps({"limit": 1}))]), text("listed"))
	ahead: list[bool] = []

	def spying(model_call_next: bool = False) -> None:
		ahead.append(model_call_next)
		rows.commit(model_call_next)

	monkeypatch.setattr(recorder, "commit_transaction", spying)
	with counted_statements(monkeypatch) as counts:
		result = run_agent_sync(agent, "list one", now=True)
	assert result["status"] == "Success", result
	assert ahead == [True, True]  # Started with the message, then the round: each before a model call
	assert "huf_unsettled" not in frappe.db._conn.__dict__  # the run's end read them all
	assert frappe.db.count("Agent Tool Call", {"agent_run": result["run"], "status": "Success"}) == 1
	assert counts["commits"] == 3, counts  # the two sent ahead count like the run's last
