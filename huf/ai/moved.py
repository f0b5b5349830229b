"""Old dotted paths of modules that moved into rooms, kept importable.

Other apps, sites' data (a tool's function path, a scheduled job's method), a job already waiting in
Redis when the code is updated, and a page left open on an old address may still name a module by
the path it had before ``huf/ai`` was split into rooms. Each line below keeps one such path alive:
importing the old path gives the very module at the new one (the same object, so its functions, its
whitelisting and anything patched on it are shared), and nothing is imported before it is asked for.
"""

import importlib
import importlib.abc
import importlib.util
import sys

MOVED = {
	"huf.ai.runs": "huf.ai.run.runs",
	"huf.ai.executor": "huf.ai.run.executor",
	"huf.ai.run_setup": "huf.ai.run.run_setup",
	"huf.ai.lifecycle": "huf.ai.run.lifecycle",
	"huf.ai.recorder": "huf.ai.run.recorder",
	"huf.ai.rows": "huf.ai.run.rows",
	"huf.ai.resume": "huf.ai.run.resume",
	"huf.ai.inflight": "huf.ai.run.inflight",
	"huf.ai.worker": "huf.ai.run.worker",
	"huf.ai.event_log": "huf.ai.run.event_log",
	"huf.ai.conversations": "huf.ai.run.conversations",
	"huf.ai.stream": "huf.ai.run.stream",
	"huf.ai.titles": "huf.ai.run.titles",
	"huf.ai.approvals": "huf.ai.run.approvals",
	"huf.ai.cost": "huf.ai.run.cost",
	"huf.ai.every_minute": "huf.ai.run.every_minute",
	"huf.ai.rate_limits": "huf.ai.run.rate_limits",
	"huf.ai.mcp_client": "huf.ai.mcp.client",
	"huf.ai.mcp_oauth": "huf.ai.mcp.oauth",
	"huf.ai.mcp_tokens": "huf.ai.mcp.tokens",
	"huf.ai.media_files": "huf.ai.media.files",
	"huf.ai.media_models": "huf.ai.media.models",
	"huf.ai.sdk_tools": "huf.ai.media.sdk_tools",
	"huf.ai.speech_settings": "huf.ai.media.speech_settings",
	"huf.ai.speech_to_text": "huf.ai.media.speech_to_text",
	"huf.ai.attachments": "huf.ai.media.attachments",
	"huf.ai.memory": "huf.ai.agent_state.memory",
	"huf.ai.artifacts": "huf.ai.agent_state.artifacts",
	"huf.ai.planning": "huf.ai.agent_state.planning",
}


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
	"""Finds an old path in MOVED and hands out the module of its new home."""

	def find_spec(self, name, path=None, target=None):
		return importlib.util.spec_from_loader(name, self) if name in MOVED else None

	def create_module(self, spec):
		module = importlib.import_module(MOVED[spec.name])
		spec.loader_state = module.__spec__
		return module

	def exec_module(self, module):
		# Loading under the old name gave the module the old name's spec; it keeps its own.
		module.__spec__ = module.__spec__.loader_state


def keep_old_paths() -> None:
	if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
		sys.meta_path.append(OldPaths())
