"""Deadlines: turn clocks, reminders and idle-player timeouts, swept every minute.

Deadlines are stored, indexed columns (``Game.deadline``, ``Game.reminder_at``); one
beat task scans them every minute. Never a Celery task scheduled days ahead: with
Redis such a task is redelivered after the visibility timeout. Every action
re-checks the deadline under the game's row lock, so a move that lands in the same
second as the sweep is never lost and never forfeited.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Profile
from accounts.services import profile_of
from rbank_site.errors import ServiceError
from rbank_site.logs import fields

from . import clocks
from .models import SEATS, Game, Notification
from .notifications import dispatch, notify

logger = logging.getLogger(__name__)

SWEEP_BATCH = 500


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
    return (
        Game.objects.select_for_update(of=("self",))
        .prefetch_related(SEATS)
        .filter(pk=game_id, status=Game.Status.PLAYING)
        .first()
    )


def timeout_game(game_id: int, now: datetime | None = None) -> bool:
    """R8.6: the seat to move forfeits if its deadline has passed (checked under the lock)."""
    from .services import timeout  # services import this module

    now = now or timezone.now()
    with transaction.atomic():
        game = locked_playing_game(game_id)
        if game is None:
            return False
        if game.deadline is None or game.deadline > now:
            return False  # a move came in first
        logger.info(
            "timeout %s",
            fields(game=game.pk, seat=game.to_move, deadline=game.deadline.isoformat()),
        )
        timeout(game)
        return True


def remind(game_id: int, now: datetime | None = None) -> bool:
    """E-mail the seat to move that its deadline is near; schedule the next reminder."""
    now = now or timezone.now()
    with transaction.atomic():
        game = locked_playing_game(game_id)
        if game is None:
            return False
        if game.reminder_at is None or game.reminder_at > now or game.deadline is None:
            return False
        seat = game.letters.index(game.to_move)
        left = game.deadline - now
        notify(
            "reminder",
            user=game.user_at(seat),
            game=game,
            hours_left=max(1, round(left.total_seconds() / 3600)),
        )
        game.reminder_at = next_reminder(game, seat, now + timedelta(seconds=1))
        game.save(update_fields=["reminder_at", "updated_at"])
        return True


def sweep(now: datetime | None = None) -> dict[str, int]:
    """One pass of the minute sweep: timeouts, reminders, and the e-mails whose next
    attempt is due (never sent, back-off over, or a claim whose lease ran out)."""
    from .tasks import send_digest, send_notification

    now = now or timezone.now()
    playing = Game.objects.filter(status=Game.Status.PLAYING)
    due = list(playing.filter(deadline__lte=now).values_list("pk", flat=True)[:SWEEP_BATCH])
    timed_out = sum(timeout_game(pk, now) for pk in due)
    reminders = list(
        playing.filter(reminder_at__lte=now).values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    reminded = sum(remind(pk, now) for pk in reminders)
    # E-mails, and digests whose last attempt failed (a digest's first is the daily run).
    due_rows = Notification.objects.filter(
        Q(status__in=[Notification.Status.PENDING, Notification.Status.SENDING])
        | Q(status=Notification.Status.DIGEST, attempts__gt=0, user__isnull=False),
        next_attempt_at__lte=now,
    ).values_list("pk", "status", "user_id")[:SWEEP_BATCH]
    emails, digests = [], set()
    for pk, status, user_id in due_rows:
        if status == Notification.Status.DIGEST:
            digests.add(user_id)
        else:
            emails.append(pk)
    resent = sum(dispatch(send_notification, pk) for pk in emails)
    digests_resent = sum(dispatch(send_digest, user_id) for user_id in digests)
    return {
        "timed_out": timed_out,
        "reminded": reminded,
        "resent": resent,
        "digests_resent": digests_resent,
        # The broker is down: next minute, again.
        "unqueued": len(emails) - resent + len(digests) - digests_resent,
    }


def vacation_days_left(profile: Profile, now: datetime) -> int:
    used = profile.vacation_days_used if profile.vacation_year == now.year else 0
    return max(0, profile.vacation_allowance_days - used)


def start_vacation(user: User, days: int, now: datetime | None = None) -> Profile:
    """Stop the player's clocks for ``days`` days, out of a yearly allowance.

    Every game where it is the player's turn has its clock moved on by the vacation
    (deadline, turn start, reminders: a time bank is not charged for it); a turn
    that passes to the player during the vacation starts its clock when it ends
    (``start_turn``). Opponents are told. Days taken are spent, even if the player
    plays during the vacation.
    """
    now = now or timezone.now()
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
        if profile.vacation_until is not None and profile.vacation_until > now:
            raise ServiceError(409, "ON_VACATION", "you are already on vacation")
        left = vacation_days_left(profile, now)
        if not 1 <= days <= left:
            raise ServiceError(
                400, "BAD_REQUEST", f"you can take 1 to {left} vacation days this year"
            )
        if profile.vacation_year != now.year:
            profile.vacation_year, profile.vacation_days_used = now.year, 0
        profile.vacation_days_used += days
        profile.vacation_until = now + timedelta(days=days)
        profile.save()
        pause = timedelta(days=days)
        games = (
            Game.objects.select_for_update(of=("self",))
            .prefetch_related(SEATS)
            .filter(status=Game.Status.PLAYING, seats__user=user)
        )
        for game in games:
            seat = game.seat_of(user.pk)
            assert seat is not None
            if game.to_move == game.letters[seat] and game.deadline is not None:
                game.deadline += pause
                if game.turn_started_at is not None:
                    game.turn_started_at += pause
                game.reminder_at = next_reminder(game, seat, now)
                game.version += 1
                game.save(update_fields=["deadline", "turn_started_at", "reminder_at", "version"])
            for other, opponent in enumerate(game.players):
                if other != seat:
                    notify(
                        "vacation",
                        user=opponent,
                        game=game,
                        until=profile.vacation_until.isoformat(),
                        days=days,
                    )
        return profile
