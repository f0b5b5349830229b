"""Agent Run's run_kind says how a run started (huf.ai.run.lifecycle.KINDS). Runs written before it did
all said "agent"; give them their kind from what they recorded: a title run is on the "title"
channel, a sub-agent run has a parent run, a trigger's run names its trigger, the rest are chats.
(No flow has written runs yet, so no "agent" here is a flow step.)"""

import frappe


def execute():
	frappe.db.sql(
		"""update `tabAgent Run` set run_kind = case
			when channel = 'title' then 'title'
			when ifnull(parent_run, '') != '' then 'sub-agent'
			when ifnull(`trigger`, '') != '' then 'trigger'
			else 'chat' end
		where ifnull(run_kind, '') in ('', 'agent')"""
	)
