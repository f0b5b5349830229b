"""The builder assistant, site half: its read-only tools as the person (``site_tools.py``), a turn
run with the model chosen in Agent Settings and its progress in the event log (``turns.py``), and
the whitelisted methods (``api.py``). The pure half is ``huf/ai/engine/assistant/``."""
