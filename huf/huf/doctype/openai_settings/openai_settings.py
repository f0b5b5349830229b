# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

from frappe.model.document import Document

from huf.ai.media.speech_settings import check_endpoint


class OpenAISettings(Document):
	def validate(self):
		check_endpoint(self)
