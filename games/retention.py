"""What the service keeps only for a while: e-mails done with, idempotency keys, events.

A sent, failed or outdated outbox row and an ``Idempotency-Key`` answer are of no
use after ``settings.RETENTION_DAYS`` (a retry comes within minutes, support staff
look at a failed e-mail within days); an event after ``settings.EVENT_RETENTION_DAYS``
(a stream that reconnects later starts afresh). A daily beat task deletes them in batches, each
batch its own short transaction, so no table is locked for long however much is due.
Rows still to send (pending, sending, waiting for a digest) are never deleted.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Model, QuerySet
from django.utils import timezone

from games.feed import events
from games.models import IdempotentRequest, Notification, PushMessage

#: Rows deleted by one DELETE statement.
BATCH = 1000

#: The outbox statuses that are done with: nothing more is tried.
DONE = (Notification.Status.SENT, Notification.Status.FAILED, Notification.Status.OUTDATED)

PUSHES_DONE = (
    PushMessage.Status.SENT,
    PushMessage.Status.FAILED,
    PushMessage.Status.OUTDATED,
    PushMessage.Status.GONE,
)


def prune(now: datetime | None = None, batch: int = BATCH) -> dict[str, int]:
    """Delete what is older than the retention period; returns how many of each."""
    before = (now or timezone.now()) - timedelta(days=settings.RETENTION_DAYS)
    return {
        "notifications": delete_in_batches(
            Notification.objects.filter(status__in=DONE, created_at__lt=before), batch
        ),
        "pushes": delete_in_batches(
            PushMessage.objects.filter(status__in=PUSHES_DONE, created_at__lt=before), batch
        ),
        "idempotency_keys": delete_in_batches(
            IdempotentRequest.objects.filter(created_at__lt=before), batch
        ),
        "events": delete_in_batches(events.expired(now), batch),
    }


def delete_in_batches(rows: QuerySet[Model], batch: int) -> int:
    """Delete ``rows`` ``batch`` at a time (a batch's keys first, then those keys)."""
    deleted = 0
    while keys := list(rows.order_by().values_list("pk", flat=True)[:batch]):
        deleted += rows.model._default_manager.filter(pk__in=keys).delete()[0]
    return deleted
