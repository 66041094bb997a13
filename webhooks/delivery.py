"""Delivering a webhook's queue: one request at a time, oldest first, signed.

``deliver`` claims the webhook's oldest unfinished delivery, and only that one, as
any outbox row (``lib.outbox``: a conditional UPDATE, a lease of
``NOTIFICATION_LEASE_SECONDS``, longer than any task may run): two workers never
deliver for the same webhook at once, so its deliveries go out in the order their
events were written, which within a game is the game's order.

A failed attempt (no connection, a timeout, an answer other than 2xx, an address
refused) counts against the delivery and the webhook: the webhook waits
``retry_delay(consecutive failures)`` before its next attempt, and the deliveries
behind wait with it. A delivery whose ``WEBHOOK_MAX_ATTEMPTS`` are spent ends
``failed`` and the next one goes; after ``WEBHOOK_DISABLE_AFTER`` failed attempts in a
row the webhook is turned off and its owner told by e-mail. Its pending deliveries
stay: turned on again, it resumes with them.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import urllib3
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone, translation

from games.notify.notifications import notify
from games.retention import delete_in_batches
from lib import outbox
from lib.logs import fields

from . import addresses, signing
from .models import Delivery, Webhook
from .outbox import DELIVER, forget_webhooks

logger = logging.getLogger(__name__)

USER_AGENT = "RussianBank-Webhooks/1"
#: The start of a receiver's answer kept in the log.
RESPONSE_BYTES = 1024
#: A task stops taking deliveries after this many seconds and queues itself again, far
#: inside the task's time limits.
BATCH_SECONDS = 60.0
#: Webhooks the minute sweep queues at most.
SWEEP_BATCH = 500

UNFINISHED = (Delivery.Status.PENDING, Delivery.Status.SENDING)


def retry_delay(failures: int) -> timedelta:
    """The wait after the ``failures``-th failed attempt in a row: doubling, capped."""
    return outbox.backoff(
        failures, settings.WEBHOOK_RETRY_BACKOFF, settings.WEBHOOK_RETRY_BACKOFF_MAX
    )


def body_of(delivery: Delivery) -> bytes:
    """What is POSTed: the event as the stream sends it, or a ping; compact JSON."""
    if delivery.event is not None:
        payload: dict[str, Any] = delivery.event.as_json()
    else:
        payload = {"kind": delivery.kind, "at": delivery.created_at, "webhook": delivery.webhook_id}
    return json.dumps(payload, cls=DjangoJSONEncoder, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status: int | None = None
    body: str = ""
    error: str = ""
    duration_ms: int = 0


def post(webhook: Webhook, delivery: Delivery) -> Outcome:
    """One attempt: the signed POST to an address checked now (the next one when a
    connection cannot be made). Never raises but for the database's errors: every
    failure is an ``Outcome``."""
    started = time.monotonic()

    def took() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        # The outcome is stored and shown later to whoever reads it: in English, as the
        # other failures (and not in whatever language this worker might have active).
        with translation.override("en"):
            where = addresses.target(webhook.url)
    except addresses.Refused as exc:
        return Outcome(False, error=f"refused: {exc}", duration_ms=took())
    body = body_of(delivery)
    headers = {
        "Host": where.host_header,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Rbank-Event": delivery.kind,
        "Rbank-Delivery": str(delivery.pk),
        "Rbank-Signature": signing.sign(webhook.secret, body),
    }
    try:
        for address in where.addresses[:-1]:
            try:
                return _send(where, address, body, headers, took)
            except urllib3.exceptions.NewConnectionError:
                continue  # no route to that one (IPv6, say): the next address
        return _send(where, where.addresses[-1], body, headers, took)
    except SoftTimeLimitExceeded:
        return Outcome(False, error="the task's time ran out", duration_ms=took())
    except (urllib3.exceptions.HTTPError, OSError) as exc:
        return Outcome(False, error=describe(exc), duration_ms=took())


def _send(
    where: addresses.Target,
    address: str,
    body: bytes,
    headers: dict[str, str],
    took: Callable[[], int],
) -> Outcome:
    """The POST to ``address``: no retry, no redirect, the URL's host name for the
    TLS server name and the certificate's check."""
    timeout = urllib3.Timeout(connect=settings.WEBHOOK_TIMEOUT, read=settings.WEBHOOK_TIMEOUT)
    pool: urllib3.HTTPConnectionPool
    if where.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            address,
            where.port,
            server_hostname=where.host,
            assert_hostname=where.host,
            cert_reqs="CERT_REQUIRED",
            timeout=timeout,
            retries=False,
            maxsize=1,
        )
    else:
        pool = urllib3.HTTPConnectionPool(
            address, where.port, timeout=timeout, retries=False, maxsize=1
        )
    try:
        response = pool.urlopen(
            "POST",
            where.path,
            body=body,
            headers=headers,
            redirect=False,
            assert_same_host=False,
            preload_content=False,
        )
        try:
            start = response.read1(RESPONSE_BYTES, decode_content=False)
        finally:
            response.release_conn()
    finally:
        pool.close()
    text = start.decode("utf-8", errors="replace").replace("\x00", "")
    status = response.status
    if 200 <= status < 300:
        return Outcome(True, status, text, duration_ms=took())
    reason = f" {response.reason}" if response.reason else ""
    return Outcome(False, status, text, f"HTTP {status}{reason}", took())


def describe(error: BaseException) -> str:
    """A failure in a line for the log: the cause urllib3 wraps, if any."""
    cause = getattr(error, "reason", None)
    if isinstance(cause, BaseException):
        error = cause
    words = str(error)
    line = type(error).__name__ + (f": {words}" if words else "")
    return " ".join(line.split())[:500]


def ready(now: datetime) -> Q:
    """The webhooks that may deliver now: on, and not waiting out a back-off."""
    return Q(active=True) & (Q(retry_at__isnull=True) | Q(retry_at__lte=now))


def claim(webhook_id: int) -> tuple[Webhook, Delivery, datetime] | None:
    """Claim the webhook's oldest unfinished delivery for an attempt: the webhook, the
    delivery and the claim's time; None when none is to be made now (none left, the
    webhook off or waiting out its back-off, or another worker delivering for it).

    Only the oldest is ever claimed, and a delivery once finished never waits again:
    so one worker at a time delivers for a webhook, in order."""
    while True:
        now = timezone.now()
        webhook = Webhook.objects.filter(ready(now), pk=webhook_id).first()
        if webhook is None:
            return None
        head = (
            Delivery.objects.filter(webhook=webhook, status__in=UNFINISHED).order_by("pk").first()
        )
        if head is None:
            return None
        this = Delivery.objects.filter(pk=head.pk)
        if head.event_id is not None and head.kind not in webhook.kinds:
            skipped = outbox.finish(
                this.filter(outbox.claimable(Delivery, now)),
                Delivery.Status.SKIPPED,
                last_error="its kind is no longer subscribed",
            )
            if not skipped:
                return None  # another worker has it
            continue
        claimed_at = outbox.claim(this)
        if claimed_at is not None:
            return webhook, this.select_related("event").get(), claimed_at
        if this.filter(status__in=UNFINISHED).exists():
            return None  # another worker has it
        # Its attempts were spent (it ended failed): the next one.


def deliver(webhook_id: int) -> int:
    """Make the webhook's due deliveries, in order; returns how many went through."""
    started = time.monotonic()
    delivered = 0
    while time.monotonic() - started < BATCH_SECONDS:
        taken = claim(webhook_id)
        if taken is None:
            return delivered
        webhook, head, claimed_at = taken
        # A database error is not the receiver's fault: it ends the task, the claim
        # runs out and the sweep tries again.
        outcome = post(webhook, head)
        if not outcome.ok:
            _failed(webhook, head, outcome, claimed_at)
            return delivered  # the back-off, or turned off
        _delivered(webhook, head, outcome, claimed_at)
        delivered += 1
    outbox.dispatch(DELIVER, webhook_id)  # the rest in a task of its own
    return delivered


def _delivered(
    webhook: Webhook, delivery: Delivery, outcome: Outcome, claimed_at: datetime
) -> None:
    done = outbox.finish(
        outbox.held(Delivery, claimed_at).filter(pk=delivery.pk),
        delivered_at=timezone.now(),
        response_status=outcome.status,
        response_body=outcome.body,
        duration_ms=outcome.duration_ms,
        last_error="",
    )
    if done and (webhook.consecutive_failures or webhook.retry_at):
        Webhook.objects.filter(pk=webhook.pk).update(consecutive_failures=0, retry_at=None)
    logger.info(
        "webhook delivered %s",
        fields(
            webhook=webhook.pk,
            delivery=delivery.pk,
            kind=delivery.kind,
            status=outcome.status,
            ms=outcome.duration_ms,
        ),
    )


def _failed(webhook: Webhook, delivery: Delivery, outcome: Outcome, claimed_at: datetime) -> None:
    """Record a failed attempt: the back-off, the delivery given up when its attempts
    are spent, the webhook turned off after too many failures in a row."""
    failures = webhook.consecutive_failures + 1
    delay = retry_delay(failures)
    disable = failures >= settings.WEBHOOK_DISABLE_AFTER
    with transaction.atomic():
        if not outbox.held(Delivery, claimed_at).filter(pk=delivery.pk).select_for_update():
            return  # the claim ran out and another worker has it
        failed = outbox.attempt_failed(
            [delivery],
            claimed_at,
            outcome.error,
            retry_in=lambda attempts: None if disable else delay,
            response_status=outcome.status,
            response_body=outcome.body,
            duration_ms=outcome.duration_ms,
        )
        # The deliveries behind a delivery given up wait as well.
        retry_at = failed.retry_at or timezone.now() + delay
        hook = Webhook.objects.filter(pk=webhook.pk)
        hook.update(consecutive_failures=failures, retry_at=retry_at)
        if disable and hook.filter(active=True).update(
            active=False,
            disabled_at=timezone.now(),
            disabled_reason=outcome.error[:500],
            retry_at=None,
        ):
            forget_webhooks(webhook.user_id)
            notify(
                "webhook_disabled",
                user=webhook.user,
                url=webhook.url,
                failures=failures,
                reason=outcome.error[:500],
                webhooks_link=settings.SITE_URL + reverse("webhooks"),
            )
    logger.warning(
        "webhook failed %s",
        fields(
            webhook=webhook.pk,
            delivery=delivery.pk,
            kind=delivery.kind,
            attempt=delivery.attempts,
            error=outcome.error,
            next="" if disable else retry_at.isoformat(),
        ),
    )
    if disable:
        logger.warning(
            "webhook disabled %s", fields(webhook=webhook.pk, failures=failures, url=webhook.url)
        )


def sweep(now: datetime | None = None) -> int:
    """The minute sweep: queue the webhooks with deliveries to make whose task was lost
    (the broker was down, a worker died) or whose back-off is over; not those a worker
    is delivering for (a claim in its lease)."""
    now = now or timezone.now()
    theirs = Delivery.objects.filter(webhook=OuterRef("pk"))
    claimed = theirs.filter(status=Delivery.Status.SENDING, next_attempt_at__gt=now)
    waiting = (
        Webhook.objects.filter(ready(now))
        .filter(Exists(theirs.filter(status__in=UNFINISHED)), ~Exists(claimed))
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    return sum(outbox.dispatch(DELIVER, pk) for pk in waiting)


def prune(now: datetime | None = None) -> int:
    """Delete the deliveries written more than ``RETENTION_DAYS`` ago, whatever became
    of them (those of an event go sooner, with their event)."""
    before = (now or timezone.now()) - timedelta(days=settings.RETENTION_DAYS)
    return delete_in_batches(Delivery.objects.filter(created_at__lt=before), 1000)
