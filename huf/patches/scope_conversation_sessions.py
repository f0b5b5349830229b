"""Conversations found by session are scoped to their owner.

The old key was ``agent:channel:(external_id or user)``, so a caller naming another user's email as
external id reached that user's conversation. Keys in the old form become
``agent:channel:user[:ext:external_id]`` (huf.ai.run.conversations.session_id); a conversation someone
opened that way stays theirs, and its victim's next message starts a conversation of their own.
Keys that are random (fresh conversations) are left as they are."""

import frappe


def execute():
	frappe.db.sql(
		"""update `tabAgent Conversation`
		set session_id = case when ifnull(external_id, '') = '' then concat(agent, ':', channel, ':', user)
			else concat(agent, ':', channel, ':', user, ':ext:', external_id) end
		where session_id = concat(agent, ':', channel, ':', if(ifnull(external_id, '') = '', user, external_id))"""
	)
