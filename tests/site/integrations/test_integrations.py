"""Integrations (issue 30, part 3): email through a real local SMTP server, the webhook poster
against a local HTTP server, site notifications, the tool errors a model reads, and credentials
that never leave the server. 127.0.0.1 is on the test site's huf_allowed_hosts (conftest)."""

from __future__ import annotations

import json

import frappe
import pytest

from huf.ai.agent.chat import send_agent_chat_message
from huf.ai.engine.tools import ToolError
from huf.ai.integrations import api, senders
from huf.ai.integrations.tools import notify, send_message
from tests.site import fixtures
from tests.site.conftest import as_user, make_user
from tests.support.local_http import LocalServer
from tests.support.scripted_llm import text, tool_calls
from tests.support.smtp_server import LocalSMTP, text_of

SECRET = "T000-B000-hush-7c1e"  # the secret part of a webhook URL, as in a Slack webhook's path
OWN_SECRET = "ops-only-hush-42aa"


def settings(title: str, service: str, credentials: dict | None = None, recipients: list[dict] | None = None, **flags) -> str:
	"""Integration Settings made as an admin makes them on the Integrations page."""
	if frappe.db.exists("Integration Settings", title):
		frappe.delete_doc("Integration Settings", title, force=True)
	saved = api.save_integration_settings(
		{"title": title, "service": service, "credentials": credentials or {}, "recipients": recipients or [], "is_default": 1, **flags}
	)
	frappe.db.commit()
	return saved["name"]


def drop_settings(service: str) -> None:
	for name in frappe.get_all("Integration Settings", {"service": service}, pluck="name"):
		frappe.delete_doc("Integration Settings", name, force=True)
	frappe.db.commit()


@pytest.fixture
def hook():
	with LocalServer() as server:
		yield server
		server.go_on.set()  # a /sleep request still waiting ends now


def test_the_built_in_services_are_seeded_with_their_credential_schemas(site):
	from huf.ai.integrations.catalog import ensure_services, schema_of

	frappe.db.set_value("Integration Service", "webhook", "title", "Changed")  # the code's version comes back
	ensure_services()
	assert frappe.db.get_value("Integration Service", "webhook", "title") == "Chat webhook"
	assert {name for name in ("email", "webhook", "frappe_notification") if frappe.db.get_value("Integration Service", name, "is_builtin")} == {
		"email", "webhook", "frappe_notification"
	}
	assert [(c["key"], c["type"]) for c in schema_of("webhook")] == [("webhook_url", "password")]
	assert [(c["key"], c["type"], c["required"]) for c in schema_of("email")] == [("email_account", "text", 0)]
	assert frappe.db.get_value("Agent Tool Function", "send_message", "effect") == "Ask before repeating"


def test_an_email_reaches_a_real_smtp_server_with_its_subject_and_body(site):
	user = make_user("integrations-mailer@huf.test", ["Huf User"])
	with LocalSMTP() as smtp:
		account = "Huf Test Outbox"
		if frappe.db.exists("Email Account", account):
			frappe.delete_doc("Email Account", account, force=True)
		frappe.get_doc(
			{
				"doctype": "Email Account", "email_account_name": account, "email_id": "outbox@huf.test", "enable_outgoing": 1,
				"smtp_server": "127.0.0.1", "smtp_port": smtp.port, "use_tls": 0, "use_ssl": 0, "no_smtp_authentication": 1,
			}
		).insert()  # fmt: skip
		settings("Team mail", "email", {"email_account": account}, [{"recipient_name": "Sales team", "recipient_id": "sales@huf.test"}])
		with as_user(user):
			sent = send_message("email", "sales TEAM", "Line one\nThe order ships <today>.", subject="Order 77 shipped")
		frappe.db.commit()
		assert sent["queued"] and sent["to"] == "sales@huf.test" and sent["integration"] == "Team mail"
		queue = frappe.get_doc("Email Queue", sent["queue_id"])
		assert queue.status == "Not Sent"  # queued, sent by the site's email queue like any email
		frappe.flags.mute_emails = False
		queue.send()
		frappe.db.commit()
		[(to, message)] = smtp.wait_for(1)
	assert to == ["sales@huf.test"] and message["Subject"] == "Order 77 shipped"
	assert "outbox@huf.test" in message["From"]
	body = text_of(message)
	assert "Line one" in body and "The order ships" in body
	assert frappe.db.get_value("Email Queue", sent["queue_id"], "status") == "Sent"


def test_an_agent_posts_to_a_webhook_and_the_url_never_reaches_the_model_or_the_run(site, llm, hook):
	user = make_user("integrations-poster@huf.test", ["Huf User"])
	settings(
		"Team chat", "webhook", {"webhook_url": hook.url(f"/services/{SECRET}")},
		[{"recipient_name": "General", "recipient_id": "#general"}, {"recipient_name": "Ops", "webhook_url": hook.url(f"/ops/{OWN_SECRET}")}],
	)  # fmt: skip
	agent = fixtures.agent(llm, name="Integrations Poster", tools=("send_message",), allow_chat=1, run_immediately=1, agent_users=[{"user": user}])
	llm.script(
		tool_calls([
			("w1", "send_message", json.dumps({"service": "webhook", "recipient": "general", "text": "Build 12 is green"})),
			("w2", "send_message", json.dumps({"service": "Team chat", "recipient": "Ops", "text": "Deploying", "subject": "Release"})),
		]),
		text("Posted both."),
	)  # fmt: skip
	with as_user(user):
		reply = send_agent_chat_message(agent, "Tell the team", new_conversation=1)
	assert reply["status"] == "Success"
	first, second = hook.seen
	assert first.path == f"/services/{SECRET}" and json.loads(first.body) == {"text": "Build 12 is green", "channel": "#general"}
	assert second.path == f"/ops/{OWN_SECRET}" and json.loads(second.body) == {"text": "*Release*\nDeploying"}
	assert first.headers["content-type"] == "application/json" and first.headers["idempotency-key"].startswith("huf-")
	rows = frappe.get_all("Agent Tool Call", {"agent_run": reply["run"]}, ["call_id", "status", "tool_args", "tool_result"], order_by="call_id")
	assert [row.status for row in rows] == ["Success", "Success"]
	result = json.loads(rows[0].tool_result)
	assert result["sent"] and result["status"] == 200 and result["message_id"] == first.headers["idempotency-key"] and result["recipient"] == "General"
	seen_by_model = json.dumps(llm.chat_requests[-1]["body"]["messages"])
	for secret in (SECRET, OWN_SECRET):
		assert secret not in seen_by_model and not any(secret in (row.tool_result or "") + (row.tool_args or "") for row in rows)
		assert not frappe.db.exists("Error Log", {"error": ("like", f"%{secret}%")})


def test_a_webhook_answering_500_or_hanging_is_a_tool_error_without_the_url(site, llm, hook, monkeypatch):
	user = make_user("integrations-failing@huf.test", ["Huf User"])
	settings("Broken chat", "webhook", {"webhook_url": hook.url(f"/reply?status=500&body=upstream+down&k={SECRET}")}, [{"recipient_name": "General"}])
	with as_user(user), pytest.raises(ToolError) as failed:
		send_message("Broken chat", "General", "hello")
	assert "answered 500" in str(failed.value) and "upstream down" in str(failed.value) and SECRET not in str(failed.value)
	agent = fixtures.agent(llm, name="Integrations Failing", tools=("send_message",), allow_chat=1, run_immediately=1, agent_users=[{"user": user}])
	llm.script(tool_calls([("f1", "send_message", json.dumps({"service": "webhook", "recipient": "General", "text": "hi"}))]), text("It failed."))
	with as_user(user):
		reply = send_agent_chat_message(agent, "Post hi", new_conversation=1)
	assert reply["status"] == "Success"  # the run goes on: the model read the failure
	read = json.dumps(llm.chat_requests[-1]["body"]["messages"][-1])
	assert "answered 500" in read and SECRET not in read
	settings("Slow chat", "webhook", {"webhook_url": hook.url(f"/sleep?seconds=30&k={SECRET}")}, [{"recipient_name": "General"}], is_default=0)
	monkeypatch.setattr(senders, "WEBHOOK_TIMEOUT", 1.0)
	with as_user(user), pytest.raises(ToolError) as slow:
		send_message("slow chat", "General", "hello")
	assert "did not answer within 1 seconds" in str(slow.value) and SECRET not in str(slow.value)


def test_a_missing_credential_an_unknown_recipient_and_a_service_without_settings_are_clear(site, hook):
	user = make_user("integrations-mistaken@huf.test", ["Huf User"])
	drop_settings("frappe_notification")
	settings("Keyless chat", "webhook", {}, [{"recipient_name": "General"}, {"recipient_name": "Support"}])
	with as_user(user):
		with pytest.raises(ToolError, match="Keyless chat has no webhook URL. An admin can add them on the Integrations page"):
			send_message("Keyless chat", "General", "hello")
		with pytest.raises(ToolError, match="no recipient named Finance in the integration Keyless chat. Known recipients: General, Support"):
			send_message("Keyless chat", "Finance", "hello")
		with pytest.raises(ToolError, match="service frappe_notification has no active settings.*Integrations page"):
			send_message("frappe_notification", "anyone", "hello")
		with pytest.raises(ToolError, match="no integration named slack"):
			send_message("slack", "General", "hello")
		with pytest.raises(ToolError, match="The message is empty"):
			send_message("Keyless chat", "General", "  ")
	assert hook.seen == []


def test_notify_and_the_notification_service_write_a_notification_log(site):
	sender = make_user("integrations-notifier@huf.test", ["Huf User"])
	reader = make_user("integrations-reader@huf.test", ["Huf User"])
	settings("Site bell", "frappe_notification", {}, [{"recipient_name": "Reader", "recipient_id": reader}])
	with as_user(sender):
		direct = notify(reader, "Your report is ready.\nSee the attachment.")
		mapped = send_message("frappe_notification", "reader", "Second note", subject="Heads up")
		by_email = send_message("frappe_notification", reader, "Third note")  # a user's id or email works directly
		with pytest.raises(ToolError, match="no recipient named nobody@nowhere.test"):
			send_message("frappe_notification", "nobody@nowhere.test", "lost")
		with pytest.raises(ToolError, match="no recipient named Nobody"):
			notify("Nobody", "lost")
	frappe.db.commit()
	logs = {name: frappe.db.get_value("Notification Log", name, ["for_user", "from_user", "subject", "email_content"], as_dict=True) for name in (
		direct["notification_id"], mapped["notification_id"], by_email["notification_id"])}  # fmt: skip
	assert all(log.for_user == reader and log.from_user == sender for log in logs.values())
	assert logs[direct["notification_id"]].subject == "Your report is ready."
	assert "See the attachment." in logs[direct["notification_id"]].email_content
	assert logs[mapped["notification_id"]].subject == "Heads up"


def test_the_page_masks_credentials_and_only_integration_writers_reach_it(site, web, hook):
	manager = make_user("integrations-manager@huf.test", ["Huf Manager"])
	outsider = make_user("integrations-outsider@huf.test", ["Huf User"])
	name = settings(
		"Masked chat", "webhook", {"webhook_url": hook.url(f"/services/{SECRET}")},
		[{"recipient_name": "Ops", "recipient_id": "#ops", "webhook_url": hook.url(f"/ops/{OWN_SECRET}")}],
	)  # fmt: skip
	boss, other = web.token_headers(manager), web.token_headers(outsider)
	listed = web.get("/api/method/huf.ai.integrations.api.list_integrations", boss)
	one = web.get("/api/method/huf.ai.integrations.api.get_integration_settings", boss, name=name)
	rest = web.get(f"/api/resource/Integration Settings/{name}", boss)
	for answer in (listed, one, rest):
		assert answer.status_code == 200 and SECRET not in answer.text and OWN_SECRET not in answer.text
	shown = one.json()["message"]
	assert shown["credentials"] == [{"key": "webhook_url", "is_set": True}]
	assert shown["recipients"][0]["has_webhook_url"] and "webhook_url" not in shown["recipients"][0]
	# saved again with nothing typed: the stored URLs stay
	kept = web.post("/api/method/huf.ai.integrations.api.save_integration_settings", {"settings": {**shown, "credentials": {}, "is_default": 1}}, boss)
	assert kept.status_code == 200 and SECRET not in kept.text, kept.text
	sent = web.post("/api/method/huf.ai.integrations.api.send_test_message", {"settings": name, "recipient": "ops"}, boss)
	assert sent.status_code == 200 and OWN_SECRET not in sent.text and hook.seen[-1].path == f"/ops/{OWN_SECRET}"
	assert "test message" in json.loads(hook.seen[-1].body)["text"].lower()
	for path, call in (
		("list_integrations", lambda p: web.get(p, other)),
		("get_integration_settings", lambda p: web.get(p, other, name=name)),
		("save_integration_settings", lambda p: web.post(p, {"settings": {"name": name, "credentials": {"webhook_url": "https://evil.test/x"}}}, other)),
		("delete_integration_settings", lambda p: web.post(p, {"name": name}, other)),
		("send_test_message", lambda p: web.post(p, {"settings": name, "recipient": "ops"}, other)),
	):
		answer = call(f"/api/method/huf.ai.integrations.api.{path}")
		assert answer.status_code == 403 and '"integration.write"' in answer.text.replace('\\"', '"'), (path, answer.text[:300])
	assert web.get(f"/api/resource/Integration Settings/{name}", other).status_code == 403
	frappe.db.rollback()
	doc = frappe.get_doc("Integration Settings", name)
	from huf.ai.integrations.settings import credential

	assert SECRET in credential(doc, "webhook_url")  # unchanged by the refused save


def test_saving_refuses_what_cannot_work(site):
	with pytest.raises(frappe.ValidationError, match="takes no credential <strong>api_key</strong>. It takes: webhook_url"):
		api.save_integration_settings({"title": "Wrong key", "service": "webhook", "credentials": {"api_key": "x"}})
	with pytest.raises(frappe.ValidationError, match="needs an email address"):
		api.save_integration_settings({"title": "Bad mail", "service": "email", "recipients": [{"recipient_name": "Sales", "recipient_id": "sales"}]})
	with pytest.raises(frappe.ValidationError, match="Two recipients are named"):
		api.save_integration_settings(
			{"title": "Twice", "service": "webhook", "recipients": [{"recipient_name": "Ops"}, {"recipient_name": "ops"}]}
		)
	with pytest.raises(frappe.ValidationError, match="must start with https://"):
		api.save_integration_settings({"title": "Not a URL", "service": "webhook", "credentials": {"webhook_url": "ftp://x.test/y"}})
	frappe.db.rollback()


def test_a_flow_sends_through_the_same_tool(site, workers, hook):
	from tests.site.flow_helpers import edge, node, save, settle, start, steps, users

	users()
	workers.start(1)
	settings("Flow chat", "webhook", {"webhook_url": hook.url(f"/flow/{SECRET}")}, [{"recipient_name": "General", "recipient_id": "#general"}])
	arguments = {"service": "Flow chat", "recipient": "general", "text": "Order {{ trigger.order }} shipped"}
	flow = save("huf-test-integrations", [node("post", "tool.call", tool="send_message", arguments=arguments), node("done", "end")], [edge("post", "done")])
	run = settle(start(flow, {"order": 42}))
	assert run.status == "Success", (run.last_error, steps(run.name))
	[posted] = hook.seen
	assert posted.path == f"/flow/{SECRET}" and json.loads(posted.body) == {"text": "Order 42 shipped", "channel": "#general"}
	output = frappe.db.get_value("Flow Run Step", {"parent": run.name, "node_id": "post"}, "output")
	assert posted.headers["idempotency-key"] in output and SECRET not in output


def test_a_worker_dying_during_a_webhook_post_asks_a_person_instead_of_posting_again(site, llm, workers, hook):
	"""send_message may act only once: after a SIGKILL mid-post the run waits in Needs Attention."""
	from huf.ai.agent.integration import run_agent_sync
	from huf.ai.run.resume import recover_conversation
	from tests.site.conftest import wait_for

	owner = make_user("integrations-interrupted@huf.test", ["Huf User"])
	settings("Stuck chat", "webhook", {"webhook_url": hook.url(f"/sleep?seconds=60&k={SECRET}")}, [{"recipient_name": "General"}])
	agent = fixtures.agent(llm, name="Integrations Stuck", tools=("send_message",), allow_chat=1, agent_users=[{"user": owner}])
	llm.script(tool_calls([("s1", "send_message", json.dumps({"service": "Stuck chat", "recipient": "General", "text": "once"}))]))
	with as_user(owner):
		run = run_agent_sync(agent, "Post once", channel_id="chat")
	frappe.db.commit()
	workers.start(1)
	wait_for(lambda: hook.seen, 60, message="the webhook post")
	workers.kill(0)
	recover_conversation(run["conversation"])
	frappe.db.commit()
	assert frappe.db.get_value("Agent Run", run["run"], "status") == "Needs Attention"
	assert frappe.db.get_value("Agent Tool Call", {"agent_run": run["run"]}, "status") == "Interrupted"
	assert len(hook.seen) == 1  # not posted again by itself


def test_removing_a_stored_secret_removes_it_from_the_encrypted_store(site, hook):
	from huf.ai.integrations.settings import credential, own_webhook_url

	name = settings(
		"Cleared chat", "webhook", {"webhook_url": hook.url(f"/services/{SECRET}")},
		[{"recipient_name": "Ops", "webhook_url": hook.url(f"/ops/{OWN_SECRET}")}, {"recipient_name": "Gone", "webhook_url": hook.url("/gone")}],
	)  # fmt: skip
	doc = frappe.get_doc("Integration Settings", name)
	ops, gone = doc.recipients
	[key] = doc.credentials
	shown = api.save_integration_settings(
		{"name": name, "clear_credentials": ["webhook_url"], "recipients": [{"row": ops.name, "recipient_name": "Ops", "clear_webhook_url": True}]}
	)
	assert shown["credentials"] == [] and shown["recipients"] == [{"row": ops.name, "recipient_name": "Ops", "recipient_id": "", "has_webhook_url": False}]
	doc = frappe.get_doc("Integration Settings", name)
	assert credential(doc, "webhook_url") is None and own_webhook_url(ops.name) is None and own_webhook_url(gone.name) is None
	assert not frappe.db.sql("select 1 from `__Auth` where name in %s", [[ops.name, gone.name, key.name]])
	with pytest.raises(ToolError, match="Cleared chat has no webhook URL"):
		send_message("Cleared chat", "ops", "hello")
	frappe.db.rollback()


def test_settings_that_list_agents_are_theirs_alone(site, llm, web, hook):
	"""Allowed Agents: the listed agents send through the settings; another agent, naming them or
	only their service, is told in the run and nothing is posted; a flow's step likewise; the
	Integrations page's test message is not limited."""
	from huf.ai.agent.integration import run_agent_sync
	from huf.ai.tools.context import RunContext

	drop_settings("webhook")
	trusted = fixtures.agent(llm, name="Integrations Trusted", tools=("send_message",))
	other = fixtures.agent(llm, name="Integrations Other", tools=("send_message",))
	kept = settings("Kept chat", "webhook", {"webhook_url": hook.url("/kept")}, [{"recipient_name": "Ops"}], allowed_agents=[trusted])
	settings("Open chat", "webhook", {"webhook_url": hook.url("/open")}, [{"recipient_name": "Ops"}], is_default=0)
	assert api.get_integration_settings(kept)["allowed_agents"] == [trusted]
	assert api.get_integration_settings("Open chat")["allowed_agents"] == []
	assert {trusted, other} <= set(api.list_integrations()["agents"])

	def ask(agent: str, service: str) -> dict:
		llm.script(tool_calls([("k1", "send_message", json.dumps({"service": service, "recipient": "Ops", "text": f"from {agent}"}))]), text("Done."))
		reply = run_agent_sync(agent, "Post it", now=True)
		assert reply["status"] == "Success", reply
		return frappe.get_all("Agent Tool Call", {"agent_run": reply["run"]}, ["status", "tool_result"])[0]

	refused = ask(other, "Kept chat")
	assert refused.status == "Failed" and "Kept chat is kept for the agents an admin chose, and the agent Integrations Other is not one" in refused.tool_result
	assert hook.seen == []
	# naming the service: the default (Kept chat) is for the trusted agent; the other one gets the only settings it may use
	assert ask(other, "webhook").status == "Success" and hook.seen[-1].path == "/open"
	assert ask(trusted, "webhook").status == "Success" and hook.seen[-1].path == "/kept"
	assert ask(trusted, "Kept chat").status == "Success" and hook.seen[-1].path == "/kept"
	posts = len(hook.seen)
	frappe.db.set_value("Integration Settings", "Open chat", "is_active", 0)
	frappe.db.commit()
	refused = ask(other, "webhook")
	assert "Every active integration of the service webhook is kept for the agents an admin chose" in refused.tool_result and len(hook.seen) == posts
	# a flow's tool step (no agent) and other code outside a run
	frappe.flags.huf_tool_context = RunContext(run="", conversation="", agent="", user="Administrator")
	try:
		with pytest.raises(ToolError, match="and a flow is not one of them"):
			send_message("Kept chat", "Ops", "from a flow")
	finally:
		frappe.flags.huf_tool_context = None
	boss = web.token_headers(make_user("integrations-keeper@huf.test", ["Huf Manager"]))
	sent = web.post("/api/method/huf.ai.integrations.api.send_test_message", {"settings": kept, "recipient": "Ops"}, boss)
	assert sent.status_code == 200 and hook.seen[-1].path == "/kept" and len(hook.seen) == posts + 1
	# emptied again: every agent may send
	api.save_integration_settings({"name": kept, "allowed_agents": []})
	frappe.db.commit()
	assert ask(other, "Kept chat").status == "Success" and hook.seen[-1].path == "/kept"
	drop_settings("webhook")
