"""Turn clocks: a seat's deadline and reminders when its turn starts, and what a turn
costs a time bank (the time arithmetic is ``clocks.py``; the sweep that acts on the
deadlines is ``sweep.py``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from accounts.models import Profile
from accounts.services import profile_of
from games import clocks
from games.models import Game


def _zone(game: Game, seat: int) -> ZoneInfo:
    return ZoneInfo(profile_of(game.user_at(seat)).time_zone)


def start_turn(game: Game, seat: int, now: datetime) -> None:
    """The clock of ``seat`` starts: set its deadline and first reminder (not saved)."""
    control = game.clock()
    profile = profile_of(game.user_at(seat))
    allowance = (
        timedelta(days=control.days_per_turn)
        if control.control == clocks.PER_TURN
        else game.seat_rows[seat].bank or control.initial_bank
    )
    # On vacation the clock starts when the vacation ends.
    away = profile.vacation_until
    start = max(now, away) if away is not None else now
    game.turn_started_at = start
    game.deadline = clocks.deadline_after(
        start,
        allowance,
        weekend_pause=control.weekend_pause,
        zone=ZoneInfo(profile.time_zone),
    )
    game.reminder_at = next_reminder(game, seat, now, profile)


def charge_turn(game: Game, seat: int, now: datetime) -> None:
    """Time bank: the turn just played costs its running time, then the increment is added."""
    control = game.clock()
    if control.control != clocks.BANK or game.turn_started_at is None:
        return
    spent = clocks.running_time(
        game.turn_started_at, now, weekend_pause=control.weekend_pause, zone=_zone(game, seat)
    )
    row = game.seat_rows[seat]
    bank = row.bank or control.initial_bank
    bank = min(
        max(bank - spent, timedelta(0)) + timedelta(days=control.bank_increment_days),
        timedelta(days=control.bank_cap_days),
    )
    row.bank = bank


def next_reminder(
    game: Game, seat: int, now: datetime, profile: Profile | None = None
) -> datetime | None:
    """The next of the player's reminder points (hours before the deadline) after ``now``."""
    if game.deadline is None:
        return None
    profile = profile or profile_of(game.user_at(seat))
    points = [game.deadline - timedelta(hours=h) for h in profile.reminder_hours]
    future = [p for p in points if p > now]
    return min(future) if future else None


def locked_playing_game(game_id: int) -> Game | None:
    """The game, its row locked until the transaction ends, if it is still being played."""
    return Game.locked(game_id, status=Game.Status.PLAYING)
