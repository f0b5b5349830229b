"""Huf's own tools, registered through the ``huf_tools`` hook like any app's."""

from __future__ import annotations

from frappe.utils import get_system_timezone, now_datetime

from huf.ai.flow.tools import FLOW_TOOLS

SCHEMA_FUNCTION = "huf.ai.tools.schema.get_doctype_schema"
# transcribe_audio's, and every Speech to Text tool's (huf/ai/tools/definition.py)
STT_PARAMETERS = [
	{"fieldname": "file_id", "type": "string", "description": "The audio File's ID (preferred)."},
	{"fieldname": "file_url", "type": "string", "description": "The audio file's address, e.g. /private/files/note.webm."},
	{"fieldname": "language", "type": "string", "description": "The language spoken, as an ISO-639-1 code such as en (optional)."},
	{"fieldname": "model", "type": "string", "description": "A speech-to-text model to use instead of the agent's (optional)."},
]
SCHEMA_PARAMETERS = [{"fieldname": "doctype", "type": "string", "required": 1, "description": "The DocType, e.g. Sales Order."}]


def get_current_datetime() -> dict:
	"""The current date and time on this site, with its time zone."""
	return {"now": now_datetime().isoformat(sep=" ", timespec="seconds"), "time_zone": get_system_timezone()}


BUILTIN_TOOLS = [
	{
		"tool_name": "get_doctype_schema",
		"description": "The fields of a DocType that the current user can read (names, types, options, required, a table's "
		"own fields), with guidance on using it and the workflows it takes part in, where the site has some. "
		"Use it before creating, updating or filtering documents of that type.",
		"function_path": SCHEMA_FUNCTION,
		"effect": "repeatable",
		"parameters": SCHEMA_PARAMETERS,
	},
	{
		"tool_name": "describe_doctype",
		"description": "The same as get_doctype_schema: the fields of a DocType that the current user can read, with "
		"guidance on using it. Use it before creating, updating or filtering documents of that type.",
		"function_path": SCHEMA_FUNCTION,
		"effect": "repeatable",
		"parameters": SCHEMA_PARAMETERS,
	},
	{
		"tool_name": "get_current_datetime",
		"description": "The current date and time on this site, with its time zone.",
		"function_path": "huf.ai.tools.builtin.get_current_datetime",
		"effect": "repeatable",
		"parameters": [],
	},
	{
		"tool_name": "ocr_document",
		"description": "Extract the text of a document or image on this site: PDF (scanned too, where the provider reads them), "
		"Word, Excel, PowerPoint, HTML, text files, and images through a vision model. Pass file_id when you have it. "
		"Returns the text in Markdown, page by page, with the file's SHA-256 (file_hash).",
		"function_path": "huf.ai.tools.ocr.ocr_document",
		"effect": "repeatable",  # reads a file, asks a model
		"parameters": [
			{"fieldname": "file_id", "type": "string", "description": "The File's ID (preferred)."},
			{"fieldname": "file_url", "type": "string", "description": "The file's address, e.g. /private/files/invoice.pdf."},
			{"fieldname": "pages", "type": "string", "description": "Comma-separated 0-based page numbers of a PDF, e.g. 0,1,2. Empty for all."},
			{"fieldname": "include_images", "type": "boolean", "description": "Also return embedded images (PDF OCR only)."},
			{"fieldname": "model", "type": "string", "description": "An AI Model to use for OCR or vision instead of the agent's."},
		],
	},
	{
		"tool_name": "generate_image",
		"description": "Make images from a text description, with the agent's image model. The images are saved as files of "
		"this conversation (the person sees them in the chat); you get each file's address, not the image.",
		"function_path": "huf.ai.sdk_tools.handle_generate_image",
		"effect": "repeatable",  # a repeat makes another file; nothing is sent or changed elsewhere
		"parameters": [
			{"fieldname": "prompt", "type": "string", "required": 1, "description": "A detailed description of the image to make."},
			{"fieldname": "size", "type": "string", "description": "Image size, e.g. 1024x1024 (default: the model's)."},
			{"fieldname": "quality", "type": "string", "description": "standard or hd (DALL-E 3); low, medium, high or auto (gpt-image-1)."},
			{"fieldname": "n", "type": "integer", "description": "How many images (default 1)."},
		],
	},
	{
		"tool_name": "generate_audio",
		"description": "Speak a text aloud with the agent's voice. The audio is saved as a file of this conversation (the "
		"person can play it in the chat); you get the file's address.",
		"function_path": "huf.ai.sdk_tools.handle_generate_audio",
		"effect": "repeatable",
		"parameters": [
			{"fieldname": "input", "type": "string", "required": 1, "description": "The text to speak."},
			{"fieldname": "voice", "type": "string", "description": "A voice, e.g. alloy or nova (OpenAI), a voice ID (ElevenLabs). Default: the agent's."},
			{"fieldname": "model", "type": "string", "description": "A speech model to use instead of the agent's, e.g. tts-1-hd."},
			{"fieldname": "speed", "type": "number", "description": "0.25 to 4.0 (default 1.0)."},
			{"fieldname": "response_format", "type": "string", "description": "mp3 (default), opus, aac, flac, wav or pcm."},
		],
	},
	{
		"tool_name": "transcribe_audio",
		"description": "Transcribe an audio file on this site (a voice note, a recorded call) to text, with the agent's "
		"speech-to-text model. Pass file_id when you have it.",
		"function_path": "huf.ai.media.speech_to_text.transcribe_file",
		"effect": "repeatable",  # reads a file, asks a model
		"parameters": STT_PARAMETERS,
	},
	{
		"tool_name": "send_message",
		"description": "Send a message through an integration an admin set up: email, a team chat webhook (Slack, Mattermost, "
		"Rocket.Chat, Teams) or a notification on this site. Name the service (email, webhook, frappe_notification) or its "
		"settings, and a recipient by the name the integration lists. Returns the message, queue or notification id.",
		"function_path": "huf.ai.integrations.tools.send_message",
		"effect": "once",  # a webhook post cannot be taken back or safely repeated: after a crash a person decides
		"parameters": [
			{"fieldname": "service", "type": "string", "required": 1, "description": "email, webhook, frappe_notification, or the name of an integration's settings."},
			{"fieldname": "recipient", "type": "string", "required": 1, "description": "A recipient's name as the integration lists it, e.g. Sales team."},
			{"fieldname": "text", "type": "string", "required": 1, "description": "The message."},
			{"fieldname": "subject", "type": "string", "description": "A subject line (email) or heading (chat, notification)."},
		],
	},
	{
		"tool_name": "notify",
		"description": "Put a notification in a user's notification list on this site (the bell). Pass the user's ID or email.",
		"function_path": "huf.ai.integrations.tools.notify",
		"effect": "database",  # a Notification Log row, committed with the round that wrote it
		"parameters": [
			{"fieldname": "user", "type": "string", "required": 1, "description": "The user's ID or email."},
			{"fieldname": "text", "type": "string", "required": 1, "description": "The notification's text."},
			{"fieldname": "subject", "type": "string", "description": "Its heading; the first line of the text when empty."},
		],
	},
	*FLOW_TOOLS,
]

# Where Huf's tool functions used to be (old dotted path -> where it lives now). Tools that still
# name an old path keep working (``custom.allowed_function`` follows this), and the patch
# ``huf.patches.move_tool_function_paths`` rewrites stored tools to the new path.
MOVED_FUNCTIONS = {
	"huf.ai.sdk_tools.handle_ocr_document": "huf.ai.tools.ocr.ocr_document",
	"huf.ai.tools.builtin.describe_doctype": SCHEMA_FUNCTION,
}
