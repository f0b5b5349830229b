"""Frappe's WSGI app for the test web server, with /assets served the way nginx serves them in
production (gunicorn alone serves no static files). Start gunicorn from the bench's sites folder."""

import os

from frappe.app import application as frappe_application
from werkzeug.middleware.shared_data import SharedDataMiddleware

application = SharedDataMiddleware(frappe_application, {"/assets": os.path.join(os.getcwd(), "assets")})
