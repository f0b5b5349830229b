__version__ = "0.1.0"


def fire_app_event(app_name: str, event_name: str, payload=None) -> int:
	"""Start the agents whose App Event triggers listen for ``event_name`` from ``app_name``, after
	the caller's transaction commits, as the current user. Returns how many triggers listen.

	    import huf
	    huf.fire_app_event("my_app", "order_shipped", {"order": order.name})
	"""
	from huf.ai.triggers.app_events import fire

	return fire(app_name, event_name, payload)
