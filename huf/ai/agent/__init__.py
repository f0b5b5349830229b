"""Whitelisted endpoints about agents (chat, run status and cancel, feedback, run detail). Other apps
and the web app call them by dotted name (``huf.ai.agent.chat.send_agent_chat_message``...), so
these module names stay; each checks permission and calls inward. Preparing a run from an Agent
document is ``huf/ai/run/run_setup.py`` (the model and its provider: ``huf/ai/models.py``)."""
