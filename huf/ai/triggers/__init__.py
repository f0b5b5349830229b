"""Agents that run without anyone chatting: document events, app events and manual runs.

``index`` keeps the enabled triggers in process memory, so the doc-event hook (``doc_events``) costs
no query for a document nothing listens to; ``fire`` does the rest, only once a trigger matches."""
