"""One outbox: the claim, lease, attempts, back-off and giving up of every table of
work to do once, whatever it carries (docs/architecture.md, "One outbox").

A row of such a table (an ``Outbox`` model: the e-mails to send, the inbound e-mails
to act on, the webhooks' deliveries) is written in the transaction of what it is
about, and its task is queued by name once that commits (``dispatch_on_commit``); a
task the broker cannot take is only logged (``dispatch``), and the minute sweep
queues the row again (``due``). Its life, in the statuses its model names
(``Lifecycle``)::

    waiting --claim--> claimed --finish--> done (or a final status of its own)
       ^                  |
       +--attempt_failed--+--(permanent, or attempts spent)--> failed

- ``claim`` takes a row with a conditional UPDATE: a waiting row, or a claimed one
  whose lease has run out (its worker died). Each claim is an attempt; a row whose
  attempts are spent is not taken but ends failed. The claim's time identifies it:
  only the worker holding it changes the row afterwards (``held``).
- ``next_attempt_at`` is when the sweep queues the row (again): the fallback for the
  task queued on commit, the end of a claim's lease, or the end of the back-off
  after a failed attempt; None once nothing is to be tried.
- ``attempt_failed`` puts the row back to wait for its back-off (``backoff``), or
  ends it failed, with the error in ``last_error``, when the failure is permanent
  or the row's ``max_attempts`` are spent.

The library knows no table: each model says which of its statuses play these parts
and which settings bound its attempts and lease. What a channel does with a claimed
row (send, act, POST), its own final statuses and its words in the log stay with it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, ClassVar, Generic, TypeVar

from celery import current_app
from django.conf import settings
from django.db import models, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lib.logs import fields

logger = logging.getLogger(__name__)

#: ``last_error`` of a row given up because the worker of its last attempt never
#: reported (its lease ran out with its attempts spent).
LOST = "no word from the worker of the last attempt (its claim ran out)"


@dataclass(frozen=True)
class Lifecycle:
    """Which statuses of a model play the outbox's parts, and the settings (by name,
    read at each use) that bound its rows' attempts and a claim's lease."""

    done: str
    max_attempts: str
    lease_seconds: str
    waiting: str = "pending"
    claimed: str = "sending"
    failed: str = "failed"


class Outbox(models.Model):
    """The columns of the mechanism; a concrete model adds ``status`` (with the
    statuses ``lifecycle`` names) and whatever it carries."""

    lifecycle: ClassVar[Lifecycle]

    #: Attempts so far (one per claim); never more than the model's ``max_attempts``.
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    #: When the last attempt started: it identifies the claim.
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    #: When the minute sweep queues the row (again): the fallback for the task queued
    #: on commit, a claim's lease's end, or the back-off's end; None when nothing is to
    #: be tried.
    next_attempt_at = models.DateTimeField(_("next attempt at"), null=True, blank=True)
    #: Why the last failed attempt failed; kept once a later one succeeds, to tell why
    #: it was late.
    last_error = models.CharField(_("last error"), max_length=500, blank=True, default="")

    class Meta:
        abstract = True


R = TypeVar("R", bound=Outbox)


def dispatch(task: str, *args: Any, countdown: float | None = None) -> bool:
    """Queue the Celery task named ``task`` (to run ``countdown`` seconds from now, if
    given); False, with a warning, when the broker cannot take it.

    Every caller has already committed what the task is about (a row still waiting),
    and the sweep queues it again. So no failure here may reach the caller: whatever
    the broker raises (a missing folder, a refused connection, kombu's or redis's own
    errors) is only logged. Tasks are named, never imported: the layers below the
    tasks' modules queue them.
    """
    try:
        current_app.tasks[task].apply_async(args, countdown=countdown)
    except Exception as exc:
        logger.warning("could not queue %s%r, left for the sweep: %r", task, args, exc)
        return False
    return True


def dispatch_on_commit(task: str, *args: Any) -> None:
    """``dispatch`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(dispatch, task, *args))


def max_attempts(model: type[Outbox]) -> int:
    return int(getattr(settings, model.lifecycle.max_attempts))


def lease(model: type[Outbox]) -> timedelta:
    """How long a claimed row belongs to the worker that claimed it: a dead worker's
    rows are taken up again after this."""
    return timedelta(seconds=getattr(settings, model.lifecycle.lease_seconds))


def backoff(attempts: int, base: float, cap: float) -> timedelta:
    """The wait after the ``attempts``-th failed attempt: ``base`` seconds, doubling,
    at most ``cap``."""
    seconds = base * 2 ** min(max(attempts, 1) - 1, 30)
    return timedelta(seconds=min(seconds, cap))


def claimable(model: type[Outbox], now: datetime, waiting: str | None = None) -> Q:
    """The rows a claim may take now: waiting (in ``waiting``, if the caller's rows
    wait in a status of their own), or claimed by a worker whose lease has run out."""
    life = model.lifecycle
    return Q(status=waiting or life.waiting) | Q(status=life.claimed, next_attempt_at__lte=now)


def claim(rows: models.QuerySet[R], *, waiting: str | None = None) -> datetime | None:
    """Take the claimable rows among ``rows`` for one attempt; the claim's time, or
    None when none was taken (another worker has them, or they are done).

    A row whose attempts are spent is not taken but ends failed: its last attempt's
    worker was lost (``LOST``), or the bound was lowered since (its error kept).
    """
    model = rows.model
    life = model.lifecycle
    now = timezone.now()
    limit = max_attempts(model)
    candidates = rows.filter(claimable(model, now, waiting))
    taken = candidates.filter(attempts__lt=limit).update(
        status=life.claimed,
        claimed_at=now,
        next_attempt_at=now + lease(model),
        attempts=F("attempts") + 1,
    )
    spent = candidates.filter(attempts__gte=limit)
    ids = list(spent.values_list("pk", flat=True))
    if ids and spent.filter(pk__in=ids).update(
        status=life.failed,
        next_attempt_at=None,
        last_error=Case(When(status=life.claimed, then=Value(LOST)), default=F("last_error")),
    ):
        logger.error(
            "outbox gave up %s",
            fields(table=model._meta.label, id=",".join(map(str, ids)), why="attempts spent"),
        )
    return now if taken else None


def held(model: type[R], claimed_at: datetime) -> models.QuerySet[R]:
    """The rows still held by the claim made at ``claimed_at``: its worker may change
    them; once the lease ran out and another worker claimed them, it may not."""
    return model.objects.filter(status=model.lifecycle.claimed, claimed_at=claimed_at)  # type: ignore[attr-defined, no-any-return]


def finish(rows: models.QuerySet[R], status: str | None = None, **values: Any) -> int:
    """End ``rows`` in ``status`` (by default the model's done): nothing more to try."""
    model = rows.model
    return rows.update(status=status or model.lifecycle.done, next_attempt_at=None, **values)


@dataclass(frozen=True)
class Failed(Generic[R]):
    """What ``attempt_failed`` did: the rows given up, those to be tried again, and
    when (None: no time set)."""

    spent: list[R]
    again: list[R]
    retry_at: datetime | None = None


def attempt_failed(
    rows: Sequence[R],
    claimed_at: datetime,
    error: str,
    *,
    retry_in: Callable[[int], timedelta | None],
    permanent: bool = False,
    waiting: str | None = None,
    **values: Any,
) -> Failed[R]:
    """One attempt at ``rows`` (claimed at ``claimed_at``) failed with ``error``: each
    row either waits for its next attempt (in ``waiting``, by default the model's
    waiting status) ``retry_in(attempts)`` from now (None: no time, the sweep leaves
    it), or ends failed when ``permanent`` or its attempts are spent. ``values`` are
    written either way. Only rows still held by the claim change."""
    if not rows:
        return Failed([], [])
    model = type(rows[0])
    life = model.lifecycle
    limit = max_attempts(model)
    spent = [r for r in rows if permanent or r.attempts >= limit]
    again = [r for r in rows if r not in spent]
    still = held(model, claimed_at)
    values["last_error"] = error[:500]
    if spent:
        finish(still.filter(pk__in=[r.pk for r in spent]), life.failed, **values)
    retry_at = None
    if again:
        delay = retry_in(max(r.attempts for r in again))
        retry_at = None if delay is None else timezone.now() + delay
        still.filter(pk__in=[r.pk for r in again]).update(
            status=waiting or life.waiting, next_attempt_at=retry_at, **values
        )
    return Failed(spent, again, retry_at)


def due(model: type[Outbox], now: datetime) -> Q:
    """The rows the minute sweep queues again: waiting or claimed, whose
    ``next_attempt_at`` has come (a lost task, a back-off over, a lease run out)."""
    life = model.lifecycle
    return Q(status__in=[life.waiting, life.claimed], next_attempt_at__lte=now)
