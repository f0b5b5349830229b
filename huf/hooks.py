app_name = "huf"
app_title = "Huf"
app_publisher = "Huf contributors"
app_description = "AI agents inside your Frappe site: chat, tools, runs, costs."
app_email = "huf@example.com"
app_license = "mit"

# Apps
# ------------------

required_apps = []

# Installation and migration
# ------------------
# Roles, tool categories (Agent Tool Type) and the tools apps declare with `huf_tools`.

after_install = "huf.install.after_install"
after_migrate = "huf.install.after_migrate"
before_uninstall = "huf.install.before_uninstall"
# Another app installed later: pick up the tools it declares without waiting for a migrate.
after_app_install = "huf.install.after_app_install"

# Keep the type hints in DocType controllers in step with their JSON (developer mode only).
export_python_type_annotations = True

# Scheduled tasks
# ---------------

# Every minute, one job (huf/ai/run/every_minute.py): runs whose worker died, Schedule triggers that are
# due, knowledge indexing whose job was lost.
scheduler_events = {"cron": {"* * * * *": ["huf.ai.run.every_minute.run"]}, "daily": ["huf.ai.agent_state.artifacts.sweep_expired"]}

# Permissions
# -----------
# Conversations, and everything recorded in them, belong to the person who started them.
# Whoever holds run.read.all (huf/capabilities.py) sees all of them.

permission_query_conditions = {
	"Agent Conversation": "huf.permissions.conversation_query",
	"Agent Message": "huf.permissions.message_query",
	"Agent Run": "huf.permissions.run_query",
	"Agent Tool Call": "huf.permissions.tool_call_query",
	"Agent Context Artifact": "huf.permissions.artifact_query",
	"Agent Orchestration": "huf.permissions.orchestration_query",
	"Flow Run": "huf.ai.flow.access.flow_run_query",
	"Agent Prompt": "huf.ai.prompts.prompt_query",
	"Agent Summary Prompt": "huf.ai.prompts.summary_prompt_query",
}

has_permission = {
	"Agent Conversation": "huf.permissions.conversation_has_permission",
	"Agent Message": "huf.permissions.message_has_permission",
	"Agent Run": "huf.permissions.run_has_permission",
	"Agent Tool Call": "huf.permissions.tool_call_has_permission",
	"Agent Context Artifact": "huf.permissions.artifact_has_permission",
	"Agent Orchestration": "huf.permissions.orchestration_has_permission",
	"Flow Run": "huf.ai.flow.access.flow_run_has_permission",
	"Agent Prompt": "huf.ai.prompts.prompt_has_permission",
	"Agent Summary Prompt": "huf.ai.prompts.prompt_has_permission",
}

# Tools
# -----
# Tools Huf itself registers, through the same hook other apps use:
# huf_tools = ["my_app.tools.TOOLS"]  (a dotted path to a tool declaration or a list of them)

huf_tools = ["huf.ai.tools.builtin.BUILTIN_TOOLS"]

# The web app: /huf and every address under it load huf/www/huf.html (the app routes in the browser).
website_route_rules = [{"from_route": "/huf/<path:app_path>", "to_route": "huf"}]

# Doc Event triggers: every event Frappe 15 fires after the change it names. The hook costs a
# dictionary lookup when no trigger listens (huf/ai/triggers/index.py).
doc_events = {
	"User": {"on_update": "huf.huf.doctype.huf_user_role.huf_user_role.on_user_update"},
	"*": {
		event: "huf.ai.triggers.doc_events.on_doc_event"
		for event in (
			"after_insert", "on_update", "on_submit", "on_cancel", "on_update_after_submit", "on_change", "on_trash", "after_delete", "after_rename"
		)
	}
}

# Server-sent event streams of agent runs: /huf/stream/<agent> (POST) and /huf/stream/run/<run> (GET).
page_renderer = ["huf.ai.run.stream.StreamRenderer"]

# A refusal that says how long to wait (huf/ai/run/rate_limits.py) puts it in the answer's Retry-After.
after_request = ["huf.ai.run.rate_limits.add_retry_after"]

# A web worker's first request of any kind starts its warm-up in a background thread (LiteLLM and
# Huf's run path, huf/ai/run/worker.py), so its first agent run does not wait seconds for the import.
before_request = ["huf.ai.run.worker.warm_in_background"]

# Once the request's user is known (a session or an API key): a write to Huf's records through
# Frappe's own endpoints by someone without a capability that grants it is refused in Huf's words,
# naming the capability to ask for (huf/request_checks.py).
auth_hooks = ["huf.request_checks.explain_refused_write"]
