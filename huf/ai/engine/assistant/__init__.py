"""The builder assistant, pure half: what the model is shown of the canvas (``canvas.py``), what a
proposal is and how it is checked (``proposal.py``, with ``catalog.py``'s node types), and the
propose-check-retry turn (``turn.py``) over the agent loop. The site half is ``huf/ai/assistant/``."""
