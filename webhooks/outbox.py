"""The webhooks' outbox: deliveries written in the transaction of their events.

``games.events`` sends ``event_recorded`` inside the transaction that wrote the
events; ``queue_deliveries`` writes there one ``Delivery`` per event and active
webhook of the event's player that wants its kind, so a delivery exists exactly when
its event has committed. Once the transaction commits, each webhook's delivery task
is queued; a task the broker cannot take is left to the minute sweep.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import partial
from typing import Any

from django.db import transaction

from games.models import Event
from games.notifications import dispatch

from .models import Delivery, Webhook

#: The task that delivers a webhook's deliveries (``webhooks.tasks``), queued by name.
DELIVER = "webhooks.tasks.deliver"


def queue_deliveries(sender: Any, events: Iterable[Event], **kwargs: Any) -> list[Delivery]:
    """Receiver of ``games.events.event_recorded``: queue the deliveries of ``events``."""
    by_user: dict[int, list[Event]] = defaultdict(list)
    for event in events:
        by_user[event.user_id].append(event)
    if not by_user:
        return []
    rows = [
        Delivery(webhook=webhook, event=event, kind=event.kind, game_id=event.game_id)
        for webhook in Webhook.objects.filter(user_id__in=by_user, active=True).order_by("pk")
        for event in by_user[webhook.user_id]
        if event.kind in webhook.kinds
    ]
    return queue(rows)


def queue(rows: list[Delivery]) -> list[Delivery]:
    """Write ``rows`` and queue their webhooks' tasks once the transaction commits."""
    if rows:
        Delivery.objects.bulk_create(rows)
        for webhook_id in dict.fromkeys(row.webhook_id for row in rows):
            transaction.on_commit(partial(dispatch, DELIVER, webhook_id))
    return rows
