"""How benchmarks print times, without Frappe (``site_run.py`` and the engine benchmarks share it)."""

from __future__ import annotations

import statistics


def ms(seconds: float) -> str:
	return f"{seconds * 1000:.1f} ms"


def spread(values: list[float], unit=ms) -> str:
	"""Median, with the middle half and the whole range: this machine is shared, single runs vary.
	``unit`` formats one value (seconds in, text out)."""
	ordered = sorted(values)
	quarter = len(ordered) // 4
	middle = f"{unit(ordered[quarter])}-{unit(ordered[-quarter - 1])}"
	return f"{unit(statistics.median(ordered)):>9}  (middle half {middle}, range {unit(ordered[0])}-{unit(ordered[-1])})"
