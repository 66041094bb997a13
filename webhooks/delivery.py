"""Delivering a webhook's queue: one request at a time, oldest first, signed.

``deliver`` claims the webhook with a conditional UPDATE (a lease of
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
from django.db import DatabaseError, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.urls import reverse
from django.utils import timezone, translation

from games.notify.notifications import dispatch, lease, notify
from games.retention import delete_in_batches
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
    seconds = settings.WEBHOOK_RETRY_BACKOFF * 2 ** min(max(failures, 1) - 1, 30)
    return timedelta(seconds=min(seconds, settings.WEBHOOK_RETRY_BACKOFF_MAX))


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


def claim(webhook_id: int) -> datetime | None:
    """Take the webhook for a round of deliveries; its claim's start (which identifies
    it), or None when another worker has it, it is off, or it is waiting to retry."""
    now = timezone.now()
    taken = (
        Webhook.objects.filter(pk=webhook_id, active=True)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lte=now))
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
        .update(claimed_at=now, claimed_until=now + lease())
    )
    return now if taken else None


def release(webhook_id: int, claim_start: datetime) -> None:
    Webhook.objects.filter(pk=webhook_id, claimed_at=claim_start).update(claimed_until=None)


def due(webhook_id: int) -> bool:
    """Whether the webhook has deliveries to make now."""
    now = timezone.now()
    return (
        Webhook.objects.filter(pk=webhook_id, active=True)
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
        .filter(Exists(Delivery.objects.filter(webhook=OuterRef("pk"), status__in=UNFINISHED)))
        .exists()
    )


def deliver(webhook_id: int) -> int:
    """Make the webhook's due deliveries, in order; returns how many went through."""
    started = time.monotonic()
    delivered = 0
    while True:
        claim_start = claim(webhook_id)
        if claim_start is None:
            return delivered
        try:
            done, why = _round(webhook_id, claim_start, started)
            delivered += done
        finally:
            release(webhook_id, claim_start)
        if why == "time":
            dispatch(DELIVER, webhook_id)  # the rest in a task of its own
            return delivered
        # "idle": a delivery written while this round held the claim found it taken;
        # look again now that it is released. "waiting": the back-off, or turned off.
        if why != "idle" or not due(webhook_id):
            return delivered


def _round(webhook_id: int, claim_start: datetime, started: float) -> tuple[int, str]:
    """Deliver while holding the claim: until none is left ("idle"), a failure or the
    webhook turned off ("waiting"), or the task's budget ("time")."""
    delivered = 0
    while time.monotonic() - started < BATCH_SECONDS:
        webhook = Webhook.objects.get(pk=webhook_id)
        if not webhook.active:
            return delivered, "waiting"
        head = (
            Delivery.objects.filter(webhook=webhook, status__in=UNFINISHED)
            .select_related("event")
            .order_by("pk")
            .first()
        )
        if head is None:
            return delivered, "idle"
        if head.event_id is not None and head.kind not in webhook.kinds:
            _finish(head, Delivery.Status.SKIPPED, last_error="its kind is no longer subscribed")
            continue
        if head.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
            # Its last attempt's worker was lost, or WEBHOOK_MAX_ATTEMPTS was lowered.
            _finish(head, Delivery.Status.FAILED, last_error=head.last_error or "attempts spent")
            continue
        now = timezone.now()
        Delivery.objects.filter(pk=head.pk).update(
            status=Delivery.Status.SENDING,
            attempts=F("attempts") + 1,
            claimed_at=now,
            next_attempt_at=None,
        )
        head.attempts += 1
        try:
            outcome = post(webhook, head)
        except DatabaseError:
            raise  # not the receiver's fault: the claim runs out and the sweep tries again
        if outcome.ok:
            _delivered(webhook, head, outcome, claim_start)
            delivered += 1
            continue
        _failed(webhook, head, outcome, claim_start)
        return delivered, "waiting"
    return delivered, "time"


def _finish(delivery: Delivery, status: str, **values: Any) -> None:
    Delivery.objects.filter(pk=delivery.pk).update(status=status, next_attempt_at=None, **values)


def _delivered(
    webhook: Webhook, delivery: Delivery, outcome: Outcome, claim_start: datetime
) -> None:
    _finish(
        delivery,
        Delivery.Status.DELIVERED,
        delivered_at=timezone.now(),
        response_status=outcome.status,
        response_body=outcome.body,
        duration_ms=outcome.duration_ms,
        last_error="",
    )
    if webhook.consecutive_failures or webhook.retry_at:
        Webhook.objects.filter(pk=webhook.pk, claimed_at=claim_start).update(
            consecutive_failures=0, retry_at=None
        )
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


def _failed(webhook: Webhook, delivery: Delivery, outcome: Outcome, claim_start: datetime) -> None:
    """Record a failed attempt: the back-off, the delivery given up when its attempts
    are spent, the webhook turned off after too many failures in a row."""
    now = timezone.now()
    failures = webhook.consecutive_failures + 1
    retry_at = now + retry_delay(failures)
    spent = delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS
    disable = failures >= settings.WEBHOOK_DISABLE_AFTER
    with transaction.atomic():
        Delivery.objects.filter(pk=delivery.pk).update(
            status=Delivery.Status.FAILED if spent else Delivery.Status.PENDING,
            next_attempt_at=None if spent or disable else retry_at,
            response_status=outcome.status,
            response_body=outcome.body,
            last_error=outcome.error[:500],
            duration_ms=outcome.duration_ms,
        )
        held = Webhook.objects.filter(pk=webhook.pk, claimed_at=claim_start)
        held.update(consecutive_failures=failures, retry_at=retry_at)
        if disable and held.filter(active=True).update(
            active=False, disabled_at=now, disabled_reason=outcome.error[:500], retry_at=None
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
    (the broker was down, a worker died) or whose back-off is over."""
    now = now or timezone.now()
    waiting = (
        Webhook.objects.filter(active=True)
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lte=now))
        .filter(Exists(Delivery.objects.filter(webhook=OuterRef("pk"), status__in=UNFINISHED)))
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    return sum(dispatch(DELIVER, pk) for pk in waiting)


def prune(now: datetime | None = None) -> int:
    """Delete the deliveries written more than ``RETENTION_DAYS`` ago, whatever became
    of them (those of an event go sooner, with their event)."""
    before = (now or timezone.now()) - timedelta(days=settings.RETENTION_DAYS)
    return delete_in_batches(Delivery.objects.filter(created_at__lt=before), 1000)
