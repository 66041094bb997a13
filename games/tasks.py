"""Celery tasks: thin wrappers that fetch by id and call a service."""

from __future__ import annotations

from celery import shared_task

from . import deadlines, notifications
from .models import Notification


@shared_task(  # type: ignore[untyped-decorator]
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OSError,),
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=8,
)
def send_notification(notification_id: int) -> bool:
    """Send one outbox e-mail; a second delivery of the same task sends nothing."""
    return notifications.send(notification_id)


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def sweep_deadlines() -> dict[str, int]:
    """Every minute (beat): forfeit idle seats, send due reminders, resend stuck e-mails."""
    return deadlines.sweep()


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=8)  # type: ignore[untyped-decorator]
def send_digest(user_id: int) -> int:
    return notifications.send_digest(user_id)


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
    return sum(notifications.dispatch(send_digest, user_id) for user_id in users)
