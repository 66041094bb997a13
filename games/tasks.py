"""Celery tasks: thin wrappers that fetch by id and call a service.

Every task runs under the time limits of the settings (``CELERY_TASK_SOFT_TIME_LIMIT``,
``CELERY_TASK_TIME_LIMIT``), which end before an outbox claim's lease. The sending
tasks do not retry themselves: a failed attempt is recorded on its row, whose
``next_attempt_at`` tells the minute sweep when to queue it again.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games import retention, sweep
from games.archive import months
from games.computer import bots
from games.models import Notification
from games.notify import digests, notifications
from games.push import sending
from games.review import services as review
from lib.outbox import dispatch


@shared_task(acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]
def send_notification(notification_id: int) -> bool:
    """One attempt at an outbox e-mail; a second delivery of the same task sends nothing."""
    return notifications.send(notification_id)


@shared_task(acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]
def send_push(push_id: int) -> bool:
    """One attempt at an outbox push; a second delivery of the same task sends nothing."""
    return sending.send(push_id)


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def sweep_deadlines() -> dict[str, int]:
    """Every minute (beat): forfeit idle seats, send due reminders, queue the e-mails
    whose next attempt is due."""
    return sweep.sweep()


@shared_task(acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]
def send_digest(user_id: int) -> int:
    return digests.send_digest(user_id)


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def send_digests() -> int:
    """Once a day (beat): one digest e-mail per player with digest notifications waiting;
    returns how many were queued."""
    users = (
        Notification.objects.filter(status=Notification.Status.DIGEST, user__isnull=False)
        .values_list("user_id", flat=True)
        .distinct()
    )
    # What cannot be queued keeps waiting, in status digest, for tomorrow's run.
    return sum(dispatch(notifications.SEND_DIGEST, user_id) for user_id in users)


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def prune_old_rows() -> dict[str, int]:
    """Once a day (beat): delete the e-mails done with and the idempotency keys older
    than settings.RETENTION_DAYS."""
    return retention.prune()


@shared_task(acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]
def play_bot_turn(game_id: int, version: int) -> str:
    """A computer player's turn, if the game is still at ``version``."""
    return bots.play_turn(game_id, version)


@shared_task(acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]
def answer_bot_stalemate(game_id: int, version: int) -> str:
    """The computer players' answers to a stalemate offer, if the game is at ``version``."""
    return bots.answer_stalemate(game_id, version)


@shared_task(  # type: ignore[untyped-decorator]
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.REVIEW_SOFT_TIME_LIMIT,
    time_limit=settings.REVIEW_TIME_LIMIT,
)
def review_game(game_id: int) -> str:
    """The review of a finished game, on the ``review`` queue (``CELERY_TASK_ROUTES``):
    nothing for a game in play, or one reviewed already."""
    return review.review_game(game_id)


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def write_database_months() -> list[str]:
    """Once a day (beat): write the open database's months closed since the last run
    (each once, never again); returns the months written."""
    return [row.label for row in months.write_closed_months()]
