"""The web server's app module for a bench running Huf: Frappe's own WSGI application, served by a
process that has imported LiteLLM first (``huf.ai.run.worker.warm``).

Frappe 15 runs no app code when a web worker starts, so without this the first agent run executed
inline by each web worker (``now=1``, "Run Immediately", the try panel) waits seconds for LiteLLM's
import. Serve ``huf.wsgi:application`` instead of ``frappe.app:application``; with gunicorn's
``--preload`` (as ``bench setup supervisor`` writes it) the warm-up happens once, in the master, and
every web worker it forks, recycled ones included, starts warm.
"""

from frappe.app import application

from huf.ai.run.worker import warm

warm()

__all__ = ["application"]
