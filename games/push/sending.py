"""The outbox of pushes: one row per device, written in the transaction of the event
it tells (``queue``, the pusher ``games.notify.channels`` calls), sent after it
commits by ``games.tasks.send_push``, claimed, retried and given up by the one outbox
(``lib.outbox``), never from a request.

What is the push's own: the quiet rules read as it is about to go (a player at the
game, or a turn already over: ``outdated``), the push service's answers (404 and 410:
the subscription is gone and deleted; 400, 403 and 413: our request will not do
better; 429, 5xx and the network: tried again after the back-off), and the log.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta

import requests
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone
from pywebpush import WebPushException, webpush

from games.models import PushMessage, PushSubscription
from games.notify.channels import Notice
from games.notify.writing import TURN_KINDS, moment_of
from games.play import presence
from games.push import keys, words
from lib import outbox
from lib.logs import fields

logger = logging.getLogger(__name__)

#: The task that sends a push (``games.tasks``), queued by name.
SEND_PUSH = "games.tasks.send_push"

#: Kinds a device should show at once, even saving its battery (RFC 8030 ``Urgency``).
URGENT = frozenset({"your_turn", "reminder", "stalemate_offer", "stop_called", "competition_round"})


class Refused(Exception):
    """The push service answered with an error ``status``."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"{status} {text}".strip())
        self.status = status


def queue(notice: Notice) -> bool:
    """A push row for each of the player's devices, sent once the caller's transaction
    commits; False when they have none, or push is off."""
    if not keys.enabled():
        return False
    devices = list(PushSubscription.objects.filter(user=notice.user))
    for device in devices:
        row = PushMessage.objects.create(
            user=notice.user,
            subscription=device,
            kind=notice.kind,
            game=notice.game,
            challenge=notice.challenge,
            context=notice.context,
            ply=None if notice.game is None else notice.game.ply,
        )
        outbox.dispatch_on_commit(SEND_PUSH, row.pk)
    return bool(devices)


def retry_delay(attempts: int) -> timedelta:
    return outbox.backoff(attempts, settings.PUSH_RETRY_BACKOFF, settings.PUSH_RETRY_BACKOFF_MAX)


def is_permanent(error: BaseException) -> bool:
    """Whether no later attempt can mend ``error``: a refusal of the request itself
    (400, 403: a VAPID key the service does not take, 413: too large); not a busy
    service (429, 5xx), the network, or a task out of time."""
    if isinstance(error, Refused):
        return error.status in (400, 403, 413)
    return not isinstance(error, requests.RequestException | OSError | SoftTimeLimitExceeded)


def describe(error: BaseException) -> str:
    line = str(error) if isinstance(error, Refused) else type(error).__name__ + f": {error}"
    return " ".join(line.split())[:500]


def deliver(row: PushMessage, device: PushSubscription) -> None:
    """POST the encrypted notification to the device's push service."""
    pair = keys.vapid()
    if pair is None:
        raise RuntimeError("push is off: no VAPID key")  # turned off since it was queued
    data = json.dumps(words.payload(row, moment_of(words.as_notification(row))))
    try:
        webpush(
            device.info(),
            data=data,
            vapid_private_key=pair,
            vapid_claims={"sub": settings.VAPID_SUBJECT},  # aud and exp added per push
            ttl=settings.PUSH_TTL,
            timeout=settings.PUSH_TIMEOUT,
            headers={"Urgency": "high" if row.kind in URGENT else "normal"},
        )
    except WebPushException as error:
        if error.response is None:
            raise
        response = error.response
        raise Refused(response.status_code, response.text[:200]) from None


def not_needed(row: PushMessage) -> bool:
    """Whether the push would tell nothing: its player is at the game (they see it come
    on the page), or the turn it announces is over."""
    if row.game_id is None:
        return False
    if presence.is_present(row.user_id, row.game_id):
        return True
    if row.kind in TURN_KINDS:
        moment = moment_of(words.as_notification(row))
        return moment is not None and moment.turn_is_over
    return False


def send(push_id: int) -> bool:
    """One attempt at a claimable push; True when this call sent it."""
    claimed_at = outbox.claim(PushMessage.objects.filter(pk=push_id))
    if claimed_at is None:
        return False
    this = outbox.held(PushMessage, claimed_at).filter(pk=push_id)
    row = PushMessage.objects.select_related("user", "game", "challenge", "subscription").get(
        pk=push_id
    )
    device = row.subscription
    if device is None:
        outbox.finish(this, PushMessage.Status.GONE, last_error="the device unsubscribed")
        return False
    try:
        if not_needed(row):
            outbox.finish(this, PushMessage.Status.OUTDATED)
            logger.info("push not needed %s", fields(id=row.pk, kind=row.kind))
            return False
        deliver(row, device)
    except DatabaseError:
        raise  # not the push's fault: the claim runs out and the sweep tries again
    except Refused as error:
        if error.status in (404, 410):
            outbox.finish(this, PushMessage.Status.GONE, last_error=describe(error))
            device.delete()
            logger.info("push subscription gone %s", fields(id=row.pk, user=row.user_id))
            return False
        failed(row, claimed_at, error)
        return False
    except Exception as error:
        failed(row, claimed_at, error)
        return False
    outbox.finish(this, sent_at=timezone.now())
    PushSubscription.objects.filter(pk=device.pk).update(last_used_at=timezone.now())
    return True


def failed(row: PushMessage, claimed_at: datetime, error: Exception) -> None:
    reason = describe(error)
    permanent = is_permanent(error)
    result = outbox.attempt_failed(
        [row], claimed_at, reason, retry_in=retry_delay, permanent=permanent
    )
    if result.spent:
        logger.error(
            "push gave up %s",
            fields(id=row.pk, kind=row.kind, attempts=row.attempts, error=reason),
            exc_info=not isinstance(error, Refused | OSError | requests.RequestException),
        )
    elif result.retry_at is not None:
        logger.warning(
            "push failed %s",
            fields(
                id=row.pk,
                kind=row.kind,
                attempt=row.attempts,
                error=reason,
                next=result.retry_at.isoformat(),
            ),
        )


def queue_due(now: datetime, batch: int) -> dict[str, int]:
    """The minute sweep's part: the pushes whose next attempt is due, queued again."""
    due = PushMessage.objects.filter(outbox.due(PushMessage, now)).values_list("pk", flat=True)
    ids = list(due[:batch])
    queued = sum(outbox.dispatch(SEND_PUSH, pk) for pk in ids)
    return {"pushes_resent": queued, "pushes_unqueued": len(ids) - queued}
