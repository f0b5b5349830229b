"""Names of tools that come from an app or a server: namespaced, and accepted by every provider."""

import re

import pytest

from huf.ai.engine.tool_names import MAX_NAME, VALID, namespaced

OPENAI = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def test_two_apps_get_two_names_for_the_same_tool():
	assert namespaced("helpdesk", "create_ticket") == "helpdesk__create_ticket"
	assert namespaced("crm", "create_ticket") == "crm__create_ticket"


@pytest.mark.parametrize(
	"namespace, name",
	[
		("my.app", "send email!"),
		("9lives", "run"),
		("é-app", "créer"),
		("a" * 40, "b" * 40),
		("app", "x" * 200),
	],
)
def test_every_name_is_accepted_by_every_provider(namespace, name):
	result = namespaced(namespace, name)
	assert OPENAI.match(result) and VALID.match(result), result
	assert len(result) <= MAX_NAME


def test_long_names_that_share_a_beginning_stay_apart():
	first, second = namespaced("app", "x" * 100 + "1"), namespaced("app", "x" * 100 + "2")
	assert first != second and len(first) == len(second) == MAX_NAME
