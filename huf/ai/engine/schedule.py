"""When a Schedule trigger is due. Pure date arithmetic, no Frappe.

All times are naive wall-clock times in the site's time zone, as Frappe stores them. Interval
schedules count from a fixed anchor (the first due time): the n-th run is due at anchor + n steps,
so nothing drifts, not even monthly runs anchored on the 31st (they fall on the last day of shorter
months and return to the 31st after). Cron schedules use a 5-field expression read on the wall
clock, so "0 7 * * *" stays at 07:00 across daylight-saving changes. After downtime, missed runs are skipped, not replayed: ``advance`` gives the
first due time after now and how many were passed over.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import datetime, timedelta

INTERVALS = ("Hourly", "Daily", "Weekly", "Monthly", "Yearly")
FIXED = {"Hourly": timedelta(hours=1), "Daily": timedelta(days=1), "Weekly": timedelta(weeks=1)}
MONTHS = {"Monthly": 1, "Yearly": 12}


class ScheduleError(ValueError):
	"""A schedule that can't be used; the message says what to write instead."""


@dataclass(frozen=True)
class Schedule:
	interval: str | None  # one of INTERVALS, or None with a cron expression
	count: int = 1
	cron: str | None = None

	def check(self) -> None:
		if self.cron:
			cron_next(self.cron, datetime(2026, 1, 1))
			return
		if self.interval not in INTERVALS:
			raise ScheduleError(f"Pick an interval ({', '.join(INTERVALS)}) or write a cron expression.")
		if self.count < 1:
			raise ScheduleError(f"Interval Count must be 1 or more; it is {self.count}.")


def add_months(moment: datetime, months: int) -> datetime:
	month = moment.month - 1 + months
	year, month = moment.year + month // 12, month % 12 + 1
	return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


def nth_due(schedule: Schedule, anchor: datetime, n: int) -> datetime:
	if schedule.interval in FIXED:
		return anchor + FIXED[schedule.interval] * schedule.count * n
	return add_months(anchor, MONTHS[schedule.interval] * schedule.count * n)


def first_after(schedule: Schedule, anchor: datetime, moment: datetime) -> tuple[datetime, int]:
	"""The first due time strictly after ``moment``, and its index n (anchor is n = 0)."""
	if moment < anchor:
		return anchor, 0
	if schedule.interval in FIXED:
		n = int((moment - anchor) / (FIXED[schedule.interval] * schedule.count)) + 1
	else:
		step = MONTHS[schedule.interval] * schedule.count
		n = max(1, ((moment.year - anchor.year) * 12 + moment.month - anchor.month) // step)
		while nth_due(schedule, anchor, n - 1) > moment:
			n -= 1
	while nth_due(schedule, anchor, n) <= moment:
		n += 1
	return nth_due(schedule, anchor, n), n


def cron_next(expression: str, after: datetime) -> datetime:
	"""The first wall-clock time after ``after`` that the cron expression names."""
	from croniter import croniter

	fields = expression.split()
	if len(fields) != 5:
		raise ScheduleError(f"A cron expression has 5 fields (minute hour day month weekday), e.g. 0 7 * * 1-5; {expression!r} has {len(fields)}.")
	try:
		return croniter(expression, after).get_next(datetime)
	except (ValueError, KeyError) as error:
		raise ScheduleError(f"{expression!r} is not a cron expression this can read ({error}). Example: 0 7 * * 1-5 for 7:00 on weekdays.") from None


def advance(schedule: Schedule, anchor: datetime, due: datetime, now: datetime) -> tuple[datetime, int]:
	"""After running the run due at ``due``: the next due time after ``now``, and how many due times
	between them were skipped (missed while nothing ran)."""
	if schedule.cron:
		following, skipped = cron_next(schedule.cron, due), 0
		while following <= now:
			following, skipped = cron_next(schedule.cron, following), skipped + 1
		return following, skipped
	_, due_n = first_after(schedule, anchor, due - timedelta(microseconds=1))
	following, next_n = first_after(schedule, anchor, now)
	return following, max(0, next_n - due_n - 1)
