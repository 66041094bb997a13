"""Deadlines in the minute sweep (``games.sweep``): idle seats forfeit, reminders go out.

Deadlines are stored, indexed columns (``Game.deadline``, ``Game.reminder_at``); one
beat task scans them every minute. Never a Celery task scheduled days ahead: with
Redis such a task is redelivered after the visibility timeout. Every action
re-checks the deadline under the game's row lock, so a move that lands in the same
second as the sweep is never lost and never forfeited.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.play.deadlines import locked_playing_game, next_reminder
from games.play.happenings import ReminderDue, publish
from games.play.services import timeout
from lib.logs import fields

logger = logging.getLogger(__name__)

SWEEP_BATCH = 500


def timeout_game(game_id: int, now: datetime | None = None) -> bool:
    """R8.6: the seat to move forfeits if its deadline has passed (checked under the lock)."""
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
        publish(ReminderDue(game, seat, hours_left=max(1, round(left.total_seconds() / 3600))))
        game.reminder_at = next_reminder(game, seat, now + timedelta(seconds=1))
        game.save(update_fields=["reminder_at", "updated_at"])
        return True


def due_deadlines(now: datetime) -> dict[str, int]:
    """The minute sweep's part for games: timeouts and reminders that are due."""
    playing = Game.objects.filter(status=Game.Status.PLAYING)
    due = list(playing.filter(deadline__lte=now).values_list("pk", flat=True)[:SWEEP_BATCH])
    timed_out = sum(timeout_game(pk, now) for pk in due)
    reminders = list(
        playing.filter(reminder_at__lte=now).values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    return {"timed_out": timed_out, "reminded": sum(remind(pk, now) for pk in reminders)}
