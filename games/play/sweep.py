"""The minute sweep (Celery beat): idle seats forfeit, reminders go out, and the
e-mails whose next attempt is due are queued again.

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
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games.computer.bot_wake import ANSWER_BOT_STALEMATE, PLAY_BOT_TURN
from games.models import Game, Notification
from games.notify.notifications import SEND_DIGEST, SEND_NOTIFICATION, dispatch, notify
from games.play.deadlines import locked_playing_game, next_reminder
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
        notify(
            "reminder",
            user=game.user_at(seat),
            game=game,
            hours_left=max(1, round(left.total_seconds() / 3600)),
        )
        game.reminder_at = next_reminder(game, seat, now + timedelta(seconds=1))
        game.save(update_fields=["reminder_at", "updated_at"])
        return True


#: A computer player that has not acted this long after its cue lost its task (a dead
#: worker, a broker that was down): the sweep cues it again.
BOT_STALLED = timedelta(minutes=2)


def wake_stalled_bots(playing: QuerySet[Game], now: datetime) -> int:
    """Queue again the turns and stalemate answers of computer players left waiting."""
    stalled = playing.filter(updated_at__lte=now - BOT_STALLED)
    bot = {"seats__user__profile__bot_level__gt": ""}
    turns = stalled.filter(seats__letter=F("to_move"), **bot).values_list("pk", "version")
    offers = (
        stalled.filter(seats__offer__isnull=False)
        .filter(pk__in=Game.objects.filter(seats__offer__isnull=True, **bot).values("pk"))
        .values_list("pk", "version")
    )
    woken = sum(dispatch(PLAY_BOT_TURN, pk, version) for pk, version in turns[:SWEEP_BATCH])
    return woken + sum(
        dispatch(ANSWER_BOT_STALEMATE, pk, version) for pk, version in offers[:SWEEP_BATCH]
    )


def sweep(now: datetime | None = None) -> dict[str, int]:
    """One pass of the minute sweep: timeouts, reminders, and the e-mails whose next
    attempt is due (never sent, back-off over, or a claim whose lease ran out)."""
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
    resent = sum(dispatch(SEND_NOTIFICATION, pk) for pk in emails)
    digests_resent = sum(dispatch(SEND_DIGEST, user_id) for user_id in digests)
    return {
        "bots_woken": wake_stalled_bots(playing, now),
        "timed_out": timed_out,
        "reminded": reminded,
        "resent": resent,
        "digests_resent": digests_resent,
        # The broker is down: next minute, again.
        "unqueued": len(emails) - resent + len(digests) - digests_resent,
    }
