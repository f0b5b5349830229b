"""Frappe's WSGI app for the test web server, with /assets served the way nginx serves them in
production (gunicorn alone serves no static files). Start gunicorn from the bench's sites folder.
``HUF_TEST_SITE`` names the site for requests that name none."""

import os

from frappe.app import application as frappe_application
from werkzeug.middleware.shared_data import SharedDataMiddleware

SITE = os.environ.get("HUF_TEST_SITE")


def serve_one_site(environ, start_response):
	"""Requests that name no site are for the test site (as with `bench serve --site`): the realtime
	server calls back without the X-Frappe-Site-Name header the tests send."""
	if SITE and "HTTP_X_FRAPPE_SITE_NAME" not in environ:
		environ["HTTP_X_FRAPPE_SITE_NAME"] = SITE
	return frappe_application(environ, start_response)


application = SharedDataMiddleware(serve_one_site, {"/assets": os.path.join(os.getcwd(), "assets")})
