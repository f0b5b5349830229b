"""The prompt library on a real site: versions, read-only older versions, slugs, the body limit,
pinned and "always latest" prompts seen in the run, summary prompts, deletion while in use, and
Private visibility."""

from __future__ import annotations

import frappe
import pytest

from huf.ai import prompts
from huf.ai.agent.integration import run_agent_sync
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.site.sql_count import counted_statements
from tests.support.scripted_llm import text


def fresh_prompt(slug: str, body: str, doctype: str = "Agent Prompt", **fields) -> frappe.model.document.Document:
	"""A new lineage named ``slug`` (an earlier one, its agents' links and its versions removed)."""
	kind = prompts.BY_DOCTYPE[doctype]
	for agent in frappe.get_all("Agent", filters={kind.template: slug}, pluck="name"):
		frappe.db.set_value("Agent", agent, {kind.mode: "Local", kind.template: None, kind.locked: 0}, update_modified=False)
	frappe.db.delete(doctype, {"slug": slug})
	frappe.cache.delete_keys(f"huf:prompt:{doctype}:{slug}:")
	doc = frappe.get_doc({"doctype": doctype, "title": fields.pop("title", slug.replace("-", " ").title()), "slug": slug, "prompt_body": body, **fields})
	doc.insert()
	frappe.db.commit()
	return doc


def new_version(doctype: str, slug: str, body: str) -> None:
	doc = frappe.get_doc(doctype, slug)
	doc.prompt_body = body
	doc.save()
	frappe.db.commit()


def lineage(doctype: str, slug: str) -> list[tuple]:
	rows = frappe.get_all(doctype, filters={"slug": slug}, fields=["name", "version", "is_latest", "prompt_body"], order_by="version asc")
	return [(r.name, r.version, r.is_latest, r.prompt_body) for r in rows]


def system_prompt(llm) -> str:
	first = llm.chat_requests[-1]["body"]["messages"][0]
	assert first["role"] == "system"
	return first["content"]


def test_a_changed_body_makes_the_next_version_and_older_versions_are_read_only(site):
	doc = fresh_prompt("support-tone", "Be kind.", title="Support tone")
	assert (doc.name, doc.version, doc.is_latest) == ("support-tone", 1, 1)
	doc.title = "Support tone, renamed"  # no new text: no new version
	doc.save()
	assert lineage("Agent Prompt", "support-tone") == [("support-tone", 1, 1, "Be kind.")]

	new_version("Agent Prompt", "support-tone", "Be kind and brief.")
	new_version("Agent Prompt", "support-tone", "Be kind, brief and exact.")
	assert lineage("Agent Prompt", "support-tone") == [
		("support-tone--v1", 1, 0, "Be kind."),
		("support-tone--v2", 2, 0, "Be kind and brief."),
		("support-tone", 3, 1, "Be kind, brief and exact."),
	]
	old = frappe.get_doc("Agent Prompt", "support-tone--v1")
	old.prompt_body = "rewritten history"
	with pytest.raises(frappe.ValidationError, match="older versions are read-only"):
		old.save()
	frappe.db.rollback()
	old.reload()
	old.title = "only the title"
	with pytest.raises(frappe.ValidationError, match="older versions are read-only"):
		old.save()
	frappe.db.rollback()
	assert frappe.db.get_value("Agent Prompt", "support-tone--v1", "prompt_body") == "Be kind."

	head = frappe.get_doc("Agent Prompt", "support-tone")
	head.version, head.is_latest = 9, 0  # read-only fields sent anyway change nothing
	head.save()
	assert frappe.db.get_value("Agent Prompt", "support-tone", ["version", "is_latest"]) == (3, 1)


def test_slugs_are_made_from_the_title_checked_and_unique(site):
	frappe.db.delete("Agent Prompt", {"slug": ["like", "sales-follow-up%"]})
	doc = frappe.get_doc({"doctype": "Agent Prompt", "title": "Sales: Follow-up  Emails!", "prompt_body": "x"}).insert()
	assert doc.slug == doc.name == "sales-follow-up-emails"
	with pytest.raises(frappe.DuplicateEntryError, match="already a prompt with the slug"):
		frappe.get_doc({"doctype": "Agent Prompt", "title": "Another", "slug": "sales-follow-up-emails", "prompt_body": "y"}).insert()
	for bad in ("Sales Follow", "sales_follow", "sales--follow", "-sales", "sales-follow--v1"):
		with pytest.raises(frappe.ValidationError, match="lowercase letters, digits and single hyphens"):
			frappe.get_doc({"doctype": "Agent Prompt", "title": "Bad", "slug": bad, "prompt_body": "y"}).insert()
	# the same slug in the other library is another lineage
	frappe.db.delete("Agent Summary Prompt", {"slug": "sales-follow-up-emails"})
	frappe.get_doc({"doctype": "Agent Summary Prompt", "title": "S", "slug": "sales-follow-up-emails", "prompt_body": "{summary_data}"}).insert()
	frappe.db.rollback()


def test_a_body_over_100000_characters_is_refused_with_the_limit(site):
	fresh_prompt("long-one", "a" * prompts.MAX_BODY_CHARS)  # exactly the limit is fine
	with pytest.raises(frappe.ValidationError, match="100,001 characters long; the limit is 100,000"):
		new_version("Agent Prompt", "long-one", "a" * (prompts.MAX_BODY_CHARS + 1))
	frappe.db.rollback()
	with pytest.raises(frappe.ValidationError, match="the limit is 100,000"):
		frappe.get_doc({"doctype": "Agent Summary Prompt", "title": "Too long summary", "prompt_body": "b" * 100_001}).insert()
	frappe.db.rollback()


def test_always_latest_and_pinned_agents_each_run_with_their_version(site, llm):
	fresh_prompt("run-tone", "Answer in one sentence. (v1)")
	latest = fixtures.agent(llm, name="Prompt Latest Agent", prompt_mode="Template", prompt_template="run-tone")
	pinned = fixtures.agent(llm, name="Prompt Pinned Agent", prompt_mode="Template", prompt_template="run-tone", prompt_version_locked=1)
	assert frappe.db.get_value("Agent", pinned, "template_version_at_attach") == 1
	new_version("Agent Prompt", "run-tone", "Answer in two sentences. (v2)")
	# picking an older version's row pins the agent to that version of the lineage
	picked = fixtures.agent(llm, name="Prompt Picked Agent", prompt_mode="Template", prompt_template="run-tone--v1")
	assert frappe.db.get_value("Agent", picked, ["prompt_template", "prompt_version_locked", "template_version_at_attach"]) == ("run-tone", 1, 1)

	llm.respond_with(lambda body: text("ok"))
	expected = {latest: ("Answer in two sentences. (v2)", 2), pinned: ("Answer in one sentence. (v1)", 1), picked: ("Answer in one sentence. (v1)", 1)}
	for agent, (body, version) in expected.items():
		result = run_agent_sync(agent, "hello", now=True)
		assert result["status"] == "Success", result
		assert system_prompt(llm) == body
		assert frappe.db.get_value("Agent Run", result["run"], ["prompt_template", "prompt_version"]) == ("run-tone", version)

	new_version("Agent Prompt", "run-tone", "Answer in three sentences. (v3)")  # the cached "latest" goes with the save
	result = run_agent_sync(latest, "again", now=True)
	assert system_prompt(llm) == "Answer in three sentences. (v3)"
	assert frappe.db.get_value("Agent Run", result["run"], "prompt_version") == 3
	run_agent_sync(pinned, "again", now=True)
	assert system_prompt(llm) == "Answer in one sentence. (v1)"

	# back to its own instructions: nothing of the library is read or recorded
	doc = frappe.get_doc("Agent", latest)
	doc.prompt_mode = "Local"
	doc.save()
	frappe.db.commit()
	result = run_agent_sync(latest, "local", now=True)
	assert system_prompt(llm) == "You are a test agent."
	assert frappe.db.get_value("Agent Run", result["run"], ["prompt_template", "prompt_version"]) == (None, 0)
	assert frappe.db.get_value("Agent", latest, ["prompt_template", "template_version_at_attach"]) == (None, 0)


def test_a_template_agent_adds_no_sql_statement_to_a_warm_run(site, llm, monkeypatch):
	fresh_prompt("sql-tone", "You are a test agent.")
	local = fixtures.agent(llm, name="Prompt Sql Local", context_strategy="FIFO")
	template = fixtures.agent(llm, name="Prompt Sql Template", context_strategy="FIFO", prompt_mode="Template", prompt_template="sql-tone")
	llm.respond_with(lambda body: text("ok"))
	counted = {}
	for agent in (local, template):
		run_agent_sync(agent, "warm up", channel_id="prompt-sql-warm", now=True)
		with counted_statements(monkeypatch) as counts:
			assert run_agent_sync(agent, "counted", channel_id="prompt-sql-counted", now=True)["status"] == "Success"
		counted[agent] = counts["huf"]
	assert counted[template] <= counted[local], counted


def test_a_summarize_run_writes_its_summary_with_the_library_summary_prompt(site, llm):
	fresh_prompt("short-summary", "Condense via the library: {summary_data}", doctype="Agent Summary Prompt")
	agent = fixtures.agent(
		llm, name="Prompt Summary Agent", context_strategy="Summarize", history_limit=4, summary_ratio=0.5,
		summary_prompt="Local prompt, not used: {summary_data}",
		summary_prompt_mode="Template", summary_prompt_template="short-summary",
	)  # fmt: skip
	assert frappe.db.get_value("Agent", agent, "summary_template_version_at_attach") == 1

	def answer(body):
		last = body["messages"][-1]["content"]
		return text("SUMMARY") if last.startswith("Condense via the library:") else text("ok " + last)

	llm.respond_with(answer)
	first = run_agent_sync(agent, "m1", now=True)
	for prompt in ("m2", "m3"):
		result = run_agent_sync(agent, prompt, conversation_id=first["conversation"], now=True)
		assert frappe.db.get_value("Agent Run", result["run"], "summary_prompt_template") is None  # nothing folded yet
	last = run_agent_sync(agent, "m4", conversation_id=first["conversation"], now=True)
	summary_request = [r for r in llm.chat_requests if r["body"]["messages"][-1]["content"].startswith("Condense via the library:")]
	assert len(summary_request) == 1 and "user: m1" in summary_request[0]["body"]["messages"][-1]["content"]
	assert "{summary_data}" not in summary_request[0]["body"]["messages"][-1]["content"]
	assert not [r for r in llm.chat_requests if "Local prompt, not used" in str(r["body"])]
	assert frappe.db.get_value("Agent Run", last["run"], ["summary_prompt_template", "summary_prompt_version"]) == ("short-summary", 1)
	assert frappe.db.get_value("Agent Conversation", first["conversation"], "summary") == "SUMMARY"


def test_deleting_a_prompt_or_a_pinned_version_an_agent_uses_is_refused_naming_the_agents(site, llm):
	fresh_prompt("in-use", "v1 text")
	new_version("Agent Prompt", "in-use", "v2 text")
	new_version("Agent Prompt", "in-use", "v3 text")
	user_one = fixtures.agent(llm, name="Prompt User One", prompt_mode="Template", prompt_template="in-use")
	user_two = fixtures.agent(llm, name="Prompt User Two", prompt_mode="Template", prompt_template="in-use--v2")
	with pytest.raises(frappe.LinkExistsError) as refused:
		frappe.delete_doc("Agent Prompt", "in-use")
	assert "Prompt User One" in str(refused.value) and "Prompt User Two" in str(refused.value)
	frappe.db.rollback()
	with pytest.raises(frappe.LinkExistsError, match="Prompt User Two"):
		frappe.delete_doc("Agent Prompt", "in-use--v2")
	frappe.db.rollback()
	frappe.delete_doc("Agent Prompt", "in-use--v1")  # nobody pins version 1
	assert [row[1] for row in lineage("Agent Prompt", "in-use")] == [2, 3]

	for agent in (user_one, user_two):
		doc = frappe.get_doc("Agent", agent)
		doc.prompt_mode = "Local"
		doc.save()
	frappe.delete_doc("Agent Prompt", "in-use")
	assert lineage("Agent Prompt", "in-use") == []  # its older versions go with it
	frappe.db.rollback()


def test_the_library_methods_list_versions_diff_them_and_name_the_agents(site, llm):
	fresh_prompt("diffed", "line one\nline two\n")
	new_version("Agent Prompt", "diffed", "line one\nline 2\n")
	agent = fixtures.agent(llm, name="Prompt Diff Agent", prompt_mode="Template", prompt_template="diffed", prompt_version_locked=1)
	listed = {p["name"]: p for p in prompts.list_prompts()}
	assert [v["version"] for v in listed["diffed"]["versions"]] == [2, 1]
	assert listed["diffed"]["used_by"] == [{"agent": agent, "pinned": True, "attached_version": 2}]
	assert prompts.get_prompt_version("diffed", 1)["prompt_body"] == "line one\nline two\n"
	assert prompts.get_prompt_version("diffed--v1")["version"] == 2  # any version's name finds the lineage
	diff = prompts.diff_prompt_versions("diffed", 1, 2)["diff"]
	assert "-line two\n" in diff and "+line 2\n" in diff and "--- diffed v1" in diff
	assert prompts.prompt_usage("diffed") == listed["diffed"]["used_by"]
	with pytest.raises(frappe.DoesNotExistError):
		prompts.get_prompt_version("diffed", 7)
	summaries = prompts.list_prompts(kind="summary")
	assert all("prompt_body" not in p for p in summaries)


def test_the_library_names_only_the_agents_the_caller_may_run(site, llm):
	"""Who cannot change agents (agent.write) hears only of the agents they may run."""
	reader = make_user("prompt-usage-reader@huf.test", ["Huf User"])
	manager = make_user("prompt-usage-manager@huf.test", ["Huf Manager"])
	fresh_prompt("shared-usage", "shared words")
	open_agent = fixtures.agent(llm, name="Prompt Usage Open", prompt_mode="Template", prompt_template="shared-usage")
	closed = fixtures.agent(
		llm, name="Prompt Usage Closed", prompt_mode="Template", prompt_template="shared-usage", agent_users=[{"user": manager}]
	)
	frappe.db.commit()
	for person, expected in ((reader, [open_agent]), (manager, sorted([open_agent, closed]))):
		with as_user(person):
			assert [row["agent"] for row in prompts.prompt_usage("shared-usage")] == expected, person
			listed = {p["name"]: p for p in prompts.list_prompts()}
			assert [row["agent"] for row in listed["shared-usage"]["used_by"]] == expected, person


def test_a_private_prompt_is_read_only_by_its_owner_and_managers(site):
	owner = make_user("prompt-owner@huf.test", ["Huf User"])
	other = make_user("prompt-other@huf.test", ["Huf User"])
	manager = make_user("prompt-manager@huf.test", ["Huf Manager"])
	fresh_prompt("owners-secret", "private words 51c2", visibility="Private")
	new_version("Agent Prompt", "owners-secret", "private words 51c2, again")
	frappe.db.set_value("Agent Prompt", {"slug": "owners-secret"}, "owner", owner, update_modified=False)
	fresh_prompt("open-to-all", "public words")
	frappe.db.commit()

	with as_user(other):
		assert "owners-secret" not in {p["name"] for p in prompts.list_prompts()}
		assert "open-to-all" in {p["name"] for p in prompts.list_prompts()}
		assert not frappe.get_list("Agent Prompt", filters={"slug": "owners-secret"})
		assert not frappe.has_permission("Agent Prompt", "read", doc=frappe.get_doc("Agent Prompt", "owners-secret--v1"))
		for call in (
			lambda: prompts.get_prompt_version("owners-secret"),
			lambda: prompts.diff_prompt_versions("owners-secret", 1, 2),
			lambda: prompts.prompt_usage("owners-secret--v1"),
		):
			with pytest.raises(frappe.PermissionError):
				call()
		with pytest.raises(frappe.PermissionError):  # Huf Users read the library; they do not write it
			frappe.get_doc({"doctype": "Agent Prompt", "title": "Mine", "prompt_body": "x"}).insert()
	for reader in (owner, manager):
		with as_user(reader):
			assert "owners-secret" in {p["name"] for p in prompts.list_prompts()}
			assert prompts.get_prompt_version("owners-secret", 1)["prompt_body"] == "private words 51c2"
	with as_user("Guest"), pytest.raises(frappe.PermissionError):
		prompts.list_prompts()

	# made Public, its older versions follow
	doc = frappe.get_doc("Agent Prompt", "owners-secret")
	doc.visibility = "Public"
	doc.save()
	frappe.db.commit()
	with as_user(other):
		assert len(frappe.get_list("Agent Prompt", filters={"slug": "owners-secret"})) == 2
