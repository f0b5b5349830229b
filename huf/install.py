"""Install, migrate and uninstall hooks (wired in hooks.py).

After install and after every migrate, ``ensure_setup`` makes sure the built-in Huf Roles (and everyone's default Huf roles), the tool categories,
the built-in Integration Services (huf/ai/integrations/catalog.py), the tools that apps declare with ``huf_tools`` and the
Builder Assistant agent (huf/ai/assistant/agent.py) exist. It only adds what is missing, so it is
safe to run any number of times, and it never changes what an admin edited (roles, categories).
Then every installed app's ``huf/`` folder is seeded (huf/ai/seeding.py): idempotent too, and an
edited record is never overwritten; seeding never makes install or migrate fail.
"""

import frappe

# One Agent Tool Type per category of tool (see CATEGORY_BY_TYPE in agent_tool_function.py).
TOOL_TYPES = (
	"Document Operations",
	"Reports",
	"Files",
	"Custom Functions",
	"App Provided",
	"Agents",
	"HTTP Requests",
)


def after_install() -> None:
	ensure_setup()


def after_migrate() -> None:
	ensure_setup()


def after_app_install(app_name: str) -> None:
	"""Another app was installed on a site that has Huf: register the tools it declares and seed its
	``huf/`` folder."""
	if app_name == "huf":  # after_install has just done it
		return
	from huf.ai.seeding import seed_quietly
	from huf.ai.tools.registry import sync_app_tools

	sync_app_tools()
	seed_quietly()


def before_uninstall() -> None:
	"""Nothing to do, on purpose.

	``bench uninstall-app huf`` deletes Huf's DocTypes, and with them every provider, model, agent,
	tool, conversation, message and run. Huf keeps nothing in other apps' records: the roles Huf
	Manager and Huf User stay (users may hold them, and other apps may use them), harmless without
	the DocTypes they gave access to.
	"""


def ensure_setup() -> None:
	from huf.huf.doctype.huf_role.huf_role import ensure_builtin_roles
	from huf.huf.doctype.huf_user_role.huf_user_role import ensure_default_huf_roles

	ensure_builtin_roles()
	ensure_default_huf_roles()
	ensure_tool_types()
	from huf.ai.integrations.catalog import ensure_services

	ensure_services()
	from huf.ai.seeding import seed_quietly
	from huf.ai.tools.registry import sync_app_tools

	sync_app_tools()
	seed_quietly()
	from huf.ai.assistant.agent import ensure

	ensure()  # the Builder Assistant agent, made again when an admin deleted it


def ensure_tool_types() -> None:
	for name in TOOL_TYPES:
		if not frappe.db.exists("Agent Tool Type", name):
			frappe.get_doc({"doctype": "Agent Tool Type", "name1": name}).insert(ignore_permissions=True)
