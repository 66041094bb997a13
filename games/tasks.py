"""Celery tasks: thin wrappers that fetch by id and call a service."""

from __future__ import annotations

from celery import shared_task

from . import deadlines, notifications


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
