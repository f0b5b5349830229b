"""Knowledge in a Frappe site: Knowledge Sources and their inputs loaded into the engine's plain
values (``store``), background indexing with a lock per source (``indexer``), reading an input's
content (``inputs``), permission-aware search across sources (``retriever``), the Mandatory
context of a run (``context_builder``), the Optional tools (``tool``) and the Desk/web-app API
(``api``)."""
