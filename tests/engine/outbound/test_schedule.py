"""Schedule maths: anchored intervals that never drift, cron in a time zone, skipped runs counted."""

from __future__ import annotations

from datetime import datetime

import pytest

from huf.ai.engine.schedule import Schedule, ScheduleError, add_months, advance, cron_next, first_after, nth_due


def test_monthly_runs_on_the_31st_fall_on_month_ends_and_come_back():
	monthly = Schedule("Monthly")
	anchor = datetime(2026, 1, 31, 7, 0)
	assert [nth_due(monthly, anchor, n).date().isoformat() for n in range(5)] == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]
	assert add_months(datetime(2028, 1, 31), 1).day == 29  # leap year


def test_the_next_due_time_is_counted_from_the_anchor_not_from_now():
	every_3_hours = Schedule("Hourly", count=3)
	anchor = datetime(2026, 3, 1, 0, 0)
	assert first_after(every_3_hours, anchor, datetime(2026, 3, 1, 7, 59, 30)) == (datetime(2026, 3, 1, 9, 0), 3)
	assert first_after(every_3_hours, anchor, datetime(2026, 3, 1, 9, 0)) == (datetime(2026, 3, 1, 12, 0), 4)  # strictly after
	assert first_after(Schedule("Yearly"), datetime(2024, 2, 29), datetime(2025, 6, 1)) == (datetime(2026, 2, 28), 2)
	assert first_after(Schedule("Weekly", count=2), anchor, datetime(2026, 2, 1)) == (anchor, 0)  # not started yet


def test_runs_missed_while_down_are_skipped_and_counted():
	daily = Schedule("Daily")
	anchor = datetime(2026, 3, 1, 7, 0)
	# the run due on the 3rd is taken on the 6th at noon: the 4th, 5th and 6th were missed
	assert advance(daily, anchor, datetime(2026, 3, 3, 7, 0), datetime(2026, 3, 6, 12, 0)) == (datetime(2026, 3, 7, 7, 0), 3)
	# on time: nothing skipped
	assert advance(daily, anchor, datetime(2026, 3, 3, 7, 0), datetime(2026, 3, 3, 7, 0, 20)) == (datetime(2026, 3, 4, 7, 0), 0)


def test_cron_reads_the_wall_clock_so_7_stays_7_across_daylight_saving():
	# site times are the site's wall clock: 07:00 on weekdays is 07:00 before and after the March change
	assert cron_next("0 7 * * 1-5", datetime(2026, 3, 27, 8, 0)) == datetime(2026, 3, 30, 7, 0)
	assert cron_next("*/15 * * * *", datetime(2026, 3, 1, 10, 7)) == datetime(2026, 3, 1, 10, 15)
	hourly_cron = Schedule(None, cron="0 * * * *")
	assert advance(hourly_cron, datetime(2026, 1, 1), datetime(2026, 3, 1, 10, 0), datetime(2026, 3, 1, 13, 30)) == (datetime(2026, 3, 1, 14, 0), 3)


@pytest.mark.parametrize(
	("schedule", "says"),
	[
		(Schedule(None, cron="0 7 * *"), "has 5 fields"),
		(Schedule(None, cron="61 7 * * *"), "not a cron expression"),
		(Schedule("Fortnightly"), "Pick an interval"),
		(Schedule("Daily", count=0), "Interval Count must be 1 or more"),
	],
)
def test_a_schedule_that_cannot_work_says_what_to_write(schedule, says):
	with pytest.raises(ScheduleError, match=says):
		schedule.check()
