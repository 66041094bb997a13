"""Time controls: deadlines, weekend pauses, time banks (pure functions)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from games.clocks import TimeControl, deadline_after, running_time

PARIS = ZoneInfo("Europe/Paris")
FRIDAY_NOON = datetime(2026, 11, 20, 11, 0, tzinfo=UTC)  # 12:00 in Paris


def test_without_a_pause_a_deadline_is_plain_arithmetic() -> None:
    assert deadline_after(FRIDAY_NOON, timedelta(days=1), weekend_pause=False, zone=PARIS) == (
        FRIDAY_NOON + timedelta(days=1)
    )


def test_the_weekend_pause_skips_saturday_and_sunday_in_the_players_zone() -> None:
    deadline = deadline_after(FRIDAY_NOON, timedelta(days=1), weekend_pause=True, zone=PARIS)
    # 12 h on Friday, then Saturday and Sunday do not count, then 12 h on Monday.
    assert deadline.astimezone(PARIS) == datetime(2026, 11, 23, 12, 0, tzinfo=PARIS)


def test_a_turn_begun_on_a_weekend_starts_its_clock_on_monday() -> None:
    saturday = datetime(2026, 11, 21, 15, 0, tzinfo=PARIS)
    deadline = deadline_after(saturday, timedelta(hours=3), weekend_pause=True, zone=PARIS)
    assert deadline == datetime(2026, 11, 23, 3, 0, tzinfo=PARIS)


def test_running_time_leaves_the_weekend_out() -> None:
    monday_noon = datetime(2026, 11, 23, 12, 0, tzinfo=PARIS)
    assert running_time(FRIDAY_NOON, monday_noon, weekend_pause=True, zone=PARIS) == timedelta(
        days=1
    )
    assert running_time(FRIDAY_NOON, monday_noon, weekend_pause=False, zone=PARIS) == timedelta(
        days=3
    )


@pytest.mark.parametrize(
    "control",
    [
        TimeControl(days_per_turn=0),
        TimeControl(days_per_turn=15),
        TimeControl(control="blitz"),
        TimeControl(control="bank", bank_initial_days=10, bank_cap_days=5),
    ],
)
def test_impossible_controls_are_refused(control: TimeControl) -> None:
    assert control.validate()


def test_the_default_control_is_three_days_a_turn() -> None:
    assert TimeControl().validate() is None and TimeControl().days_per_turn == 3
