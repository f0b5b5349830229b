# Copyright (c) 2026, Huf contributors
# For license information, please see license.txt

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils.password import decrypt

from huf.ai.outbound import check_model_server, normalize_url


class AIProvider(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		api_base: DF.Data | None
		api_key: DF.Password | None
		description: DF.SmallText | None
		provider_name: DF.Data

	# end: auto-generated types

	def validate(self):
		self.provider_name = (self.provider_name or "").strip()
		self.api_base = normalize_url(self.api_base, _("API Base"))
		if self.api_base and self.has_value_changed("api_base"):
			check_model_server(self.api_base, self.provider_name)  # checked again before every call
		self.forget_key_when_the_address_changes()

	def forget_key_when_the_address_changes(self):
		"""The stored key was entered for one destination. A new API Base, or a new provider name (which
		decides where LiteLLM sends the key), removes it unless a new key is entered in the same save."""
		before = self.get_doc_before_save()
		if not before or not self.api_key or not self.is_dummy_password(self.api_key):
			return  # new, no key, or a new key typed in this save
		same_name = (before.provider_name or "").strip().lower() == self.provider_name.lower()
		if same_name and (before.api_base or None) == (self.api_base or None):
			return
		self.api_key = None  # Frappe deletes the stored key when the field is empty
		frappe.msgprint(
			_("The API key of {0} was removed because its address changed. Enter the key again to use this provider.").format(
				frappe.bold(self.name)
			),
			title=_("API Key Removed"),
			indicator="orange",
		)

	def after_rename(self, old: str, new: str, merge: bool = False):
		"""A rename changes the provider name (the document is named by it), so the key goes as on a save."""
		if merge or old.strip().lower() == new.strip().lower():
			return
		from frappe.utils.password import remove_encrypted_password

		remove_encrypted_password(self.doctype, old, "api_key")  # Frappe moves the stored key to the new name after this
		frappe.db.set_value(self.doctype, new, "api_key", None, update_modified=False)
		frappe.clear_document_cache(self.doctype, new)

	def endpoint(self) -> tuple[str | None, str | None]:
		"""(API key, API Base) for one model call. The address is checked first, every time: a key is
		never decrypted for an address Huf may not reach (the allow-list may have changed since the save)."""
		if self.api_base:
			check_model_server(self.api_base, self.name)
		return (self.decrypted_key() if self.api_key else None), self.api_base or None

	def decrypted_key(self) -> str | None:
		"""The stored key, decrypted for this call: what ``get_password("api_key")`` returns. Its
		encrypted form is read with one plain query (Frappe's builds it with the query builder on every
		call, about 0.2 ms) and kept in the process for this version of the document (``_stored``)."""
		if not self.is_dummy_password(self.api_key):
			return self.api_key  # typed into this document, not saved yet
		stored = self._stored()
		return decrypt(stored, key=f"{self.doctype}.{self.name}.api_key") if stored else None

	def _stored(self) -> str | None:
		"""The key as ``__Auth`` stores it (encrypted), read once per process and version of the
		document: a new key is saved with the document, which changes its ``modified`` (and every
		process reads the document from Frappe's cache, which a save clears)."""
		version, cache = (frappe.local.site, self.name), _STORED_KEYS
		held = cache.get(version)
		if held is not None and self.modified and held[0] == self.modified:
			return held[1]
		rows = frappe.db.sql(
			"select `password` from `__Auth` where `doctype` = %s and `name` = %s and `fieldname` = 'api_key' and `encrypted` = 1 limit 1",
			(self.doctype, self.name),
		)
		stored = rows[0][0] if rows else None
		if self.modified:
			cache[version] = (self.modified, stored)
		return stored


# (site, AI Provider) -> (the document's modified, its key as __Auth stores it, encrypted): never the key itself
_STORED_KEYS: dict[tuple[str, str], tuple[object, str | None]] = {}
