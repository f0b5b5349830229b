"""Integrations: messages agents send to the tools a company uses (issue 30, part 3).

``catalog.py`` seeds the built-in Integration Services (email, webhook, frappe_notification) with
the credentials each needs; ``settings.py`` finds the Integration Settings a send goes through and
its recipients, and decrypts credentials per call; ``senders.py`` holds one sender per service;
``tools.py`` the tools ``send_message`` and ``notify``; ``api.py`` the web app's Integrations page."""
