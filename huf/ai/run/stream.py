"""``/huf/stream/<agent>`` (POST: queue a run and stream its events), ``/huf/stream/run/<run>``
(GET, EventSource-compatible: attach to a run, honouring Last-Event-ID), ``/huf/stream/assistant/<turn>``
(GET: the builder assistant's progress for one of the caller's own turns, ``assistant/turns.py``) and ``/huf/stream`` (GET,
the old try-out page: it sends browsers to the web app's chat). Server-sent events with
names (status, delta, snapshot, tool_call, tool_result, complete, error), ids from the run's event
log, and a keepalive comment every 15 s. A reader attaching with no text yet gets the text so far
once, as a snapshot, then the deltas (see ``engine/wire.py``). The run itself always executes in a
worker; these only relay.

Starting a run takes ``agent.run`` (a Guest: an agent that allows guests); attaching takes
``run.read`` and a run of one's own (or ``run.read.all``). A refusal is a 403 with the words of
``huf.permissions.require``."""

from __future__ import annotations

import json
import time
from urllib.parse import urlencode

import frappe
from frappe import _
from frappe.website.page_renderers.base_renderer import BaseRenderer
from werkzeug.wrappers import Response

from huf.ai.run import event_log, runs
from huf.ai.assistant import turns
from huf.ai.run.conversations import caller_channel
from huf.permissions import check_run_access, require

KEEPALIVE_MS = 15_000
MAX_STREAM_SECONDS = 3600
ASSISTANT_STREAM_SECONDS = 600  # an assistant turn's model calls end well before (turns.CALL_DEADLINE each)
STATUS_OF = {
	frappe.PermissionError: 403,
	frappe.DoesNotExistError: 404,
	frappe.CSRFTokenError: 400,
	frappe.RateLimitExceededError: 429,  # before ValidationError, its parent class
	frappe.ValidationError: 417,
}


class StreamRenderer(BaseRenderer):
	def __init__(self, path: str, http_status_code: int | None = None):
		# The web app's route rule (/huf/<path> -> huf) rewrites the path before renderers see it;
		# streams are matched on the address as requested.
		super().__init__(getattr(frappe.local, "path", None) or path, http_status_code)

	def can_render(self) -> bool:
		return self.path == "huf/stream" or self.path.startswith("huf/stream/")

	def render(self) -> Response:
		parts = self.path.split("/")[2:]
		request = frappe.local.request
		if not parts:
			return try_out_page()
		try:
			signed_in = frappe.session.user != "Guest"
			if len(parts) == 2 and parts[0] == "assistant":
				if not signed_in:
					raise frappe.PermissionError(_("Sign in to follow the assistant."))
				turn = turns.checked_turn_id(parts[1])  # the log is named by the session's user: only theirs
				return sse(turns.log_name(turn), request.headers.get("Last-Event-ID") or "0-0", ASSISTANT_STREAM_SECONDS)
			if len(parts) == 2 and parts[0] == "run":
				if signed_in:
					require("run.read")  # then the run must be the caller's (or they see every run)
				check_run_access(parts[1])
				return sse(parts[1], request.headers.get("Last-Event-ID") or frappe.form_dict.get("last_event_id") or "0-0")
			if len(parts) != 1 or not parts[0]:
				raise frappe.DoesNotExistError(_("Unknown stream address."))
			if request.method != "POST":
				return error_response(405, "method_not_allowed", _("Send a POST with a prompt to start a run."))
			if signed_in:
				require("agent.run")  # a Guest only reaches agents that allow guests (queue_run checks)
			form = frappe.form_dict
			channel_id, external_id = caller_channel(form.get("channel_id"), form.get("external_id"))
			queued = runs.queue_run(
				parts[0],
				form.get("prompt"),
				conversation_id=form.get("conversation_id"),
				channel_id=channel_id,
				external_id=external_id,
				attachments=form.get("attachments"),
			)
			frappe.db.commit()  # the worker and this stream both need the run committed now
			return sse(queued["run"], "0-0")
		except Exception as error:
			frappe.db.rollback()
			frappe.clear_last_message()
			status = next((code for kind, code in STATUS_OF.items() if isinstance(error, kind)), 500)
			if status == 500:
				frappe.log_error(title="Huf stream failed")
			return error_response(status, "refused", frappe.utils.strip_html(str(error)) or _("The request was refused."))


def try_out_page() -> Response:
	"""Chat in the web app, with the agent (and conversation) the address names preselected."""
	asked = {key: frappe.form_dict.get(key) for key in ("agent", "conversation") if frappe.form_dict.get(key)}
	location = "/huf/chat" + (f"?{urlencode(asked)}" if asked else "")
	return Response(status=302, headers={"Location": location, "Cache-Control": "no-store"})


def sse(run: str, after: str, longest: float = MAX_STREAM_SECONDS) -> Response:
	key = event_log.log_key(run)

	def events():
		# Runs after Frappe answered the request, but Frappe only releases the database connection
		# when the body ends: give it back now, or every open stream holds one for its whole life.
		if frappe.db:
			frappe.db.close()
		started = time.monotonic()
		yield b"retry: 3000\n\n"
		batch, cursor = event_log.attach(run, after)  # what the reader missed, its text as one snapshot
		while True:
			for entry_id, name, data in batch:
				cursor = entry_id or cursor
				yield frame(entry_id, name, data)
				if name == "status" and data.get("status") in event_log.FINAL_STATUSES:
					return
			if time.monotonic() - started >= longest:
				return
			batch = event_log.read(key, cursor, KEEPALIVE_MS)
			if not batch:
				yield b": keepalive\n\n"

	return Response(events(), status=200, headers=SSE_HEADERS, direct_passthrough=True)


def frame(entry_id: str | None, name: str, data: dict) -> bytes:
	"""One server-sent event; a snapshot sent before any logged event has no id of its own."""
	head = f"id: {entry_id}\n" if entry_id else ""
	return f"{head}event: {name}\ndata: {json.dumps(data, default=str)}\n\n".encode()


SSE_HEADERS = {
	"Content-Type": "text/event-stream; charset=utf-8",
	"Cache-Control": "no-cache, no-transform",
	"X-Accel-Buffering": "no",
}


def error_response(status: int, kind: str, message: str) -> Response:
	body = f"event: error\ndata: {json.dumps({'type': 'error', 'kind': kind, 'message': message})}\n\n"
	return Response(body, status=status, headers=SSE_HEADERS)
