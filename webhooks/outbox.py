"""The webhooks' outbox: deliveries written in the transaction of their events.

``games.feed.events`` sends ``event_recorded`` inside the transaction that wrote the
events; ``queue_deliveries`` writes there one ``Delivery`` per event and active
webhook of the event's player that wants its kind, so a delivery exists exactly when
its event has committed. Once the transaction commits, each webhook's delivery task
is queued; a task the broker cannot take is left to the minute sweep.

Most players have no webhook, and every move writes events: which webhooks a player
has is kept in the cache (``active_webhooks``), so that a move costs no query for
them. Every change to a webhook (made, changed, turned off, deleted) moves its
owner's generation on, at once and again when it commits, so the next event reads
the database again; without the cache the database answers.
"""

from __future__ import annotations

import contextlib
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache
from django.db import transaction

from games.models import Event
from lib.outbox import dispatch_on_commit

from .models import Delivery, Webhook

#: The task that delivers a webhook's deliveries (``webhooks.tasks``), queued by name.
DELIVER = "webhooks.tasks.deliver"


def queue_deliveries(sender: Any, events: Iterable[Event], **kwargs: Any) -> list[Delivery]:
    """Receiver of ``games.feed.events.event_recorded``: queue the deliveries of ``events``."""
    by_user: dict[int, list[Event]] = defaultdict(list)
    for event in events:
        by_user[event.user_id].append(event)
    if not by_user:
        return []
    hooks = active_webhooks(by_user)
    rows = [
        Delivery(webhook_id=webhook_id, event=event, kind=event.kind, game_id=event.game_id)
        for user_id, user_events in by_user.items()
        for webhook_id, kinds in hooks[user_id]
        for event in user_events
        if event.kind in kinds
    ]
    rows.sort(key=lambda row: row.webhook_id)
    return queue(rows)


#: How long the cache keeps a player's webhooks: a day, as moves by correspondence
#: come hours apart (a change never waits for it: it starts a new generation).
CACHE_SECONDS = 24 * 3600


def active_webhooks(user_ids: Iterable[int]) -> dict[int, list[tuple[int, list[str]]]]:
    """Each player's active webhooks, as (id, kinds wanted) in the order they were
    made: from the cache, else from the database (and kept in the cache).

    An entry is kept under its owner's generation, a number each change moves on once
    it commits (``forget_webhooks``): an entry read from the database before the change
    committed is written under the generation it started from, which nobody asks for
    any more."""
    ids = list(user_ids)
    try:
        generations = _generations(ids)
        keys = {user_id: f"webhooks:{user_id}:{generations[user_id]}" for user_id in ids}
        found: dict[str, Any] = cache.get_many(keys.values())
    except Exception:  # the cache is down: the database answers alone
        keys, found = {}, {}
    hooks = {user_id: found[key] for user_id, key in keys.items() if key in found}
    missing = [user_id for user_id in ids if user_id not in hooks]
    if missing:
        for user_id in missing:
            hooks[user_id] = []
        rows = Webhook.objects.filter(user_id__in=missing, active=True).order_by("pk")
        for pk, user_id, kinds in rows.values_list("pk", "user_id", "kinds"):
            hooks[user_id].append((pk, list(kinds)))
        if keys:
            fresh = {keys[user_id]: hooks[user_id] for user_id in missing}
            with contextlib.suppress(Exception):
                cache.set_many(fresh, CACHE_SECONDS)
    return hooks


def _generation_key(user_id: int) -> str:
    return f"webhooks:generation:{user_id}"


def _generations(user_ids: list[int]) -> dict[int, int]:
    """Each player's generation; one that the cache lost starts anew from the clock,
    never from a number an older entry may still be kept under."""
    keys = {user_id: _generation_key(user_id) for user_id in user_ids}
    found = cache.get_many(keys.values())
    generations = {}
    for user_id, key in keys.items():
        if key not in found:
            cache.add(key, time.time_ns(), None)
            found[key] = cache.get(key, 0)
        generations[user_id] = int(found[key])
    return generations


def forget_webhooks(user_id: int) -> None:
    """The player's webhooks changed: the next event reads them again from the
    database, now (in this transaction) and once the change commits."""

    def next_generation() -> None:
        with contextlib.suppress(Exception):  # a lost generation starts anew anyway
            cache.incr(_generation_key(user_id))

    next_generation()
    transaction.on_commit(next_generation)


def webhook_changed(sender: Any, instance: Webhook, **kwargs: Any) -> None:
    """Receiver of ``post_save`` and ``post_delete`` for ``Webhook``."""
    forget_webhooks(instance.user_id)


def queue(rows: list[Delivery]) -> list[Delivery]:
    """Write ``rows`` and queue their webhooks' tasks once the transaction commits."""
    if rows:
        Delivery.objects.bulk_create(rows)
        for webhook_id in dict.fromkeys(row.webhook_id for row in rows):
            dispatch_on_commit(DELIVER, webhook_id)
    return rows
