"""The one outbox (``lib.outbox``), proved once on each of its tables: the e-mails to
send, the inbound e-mails to act on, the webhooks' deliveries and the pushes. A row is claimed
once, taken up again when its worker's lease runs out, retried after its back-off,
and given up when the failure is permanent or its attempts are spent; only the claim
that holds a row changes it; the sweep finds what is due. What each channel does with
a claimed row is tested with the channel."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Notification, PushMessage, PushSubscription
from lib import outbox
from lib.outbox import Outbox
from mailplay.models import InboundMail
from webhooks.models import Delivery, Webhook

from .racing import race

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
LEASE = timedelta(seconds=300)
numbers = count()


def new_notification(user: User, **values: Any) -> Notification:
    return Notification.objects.create(email=user.email, kind="stalemate_offer", **values)


def new_inbound(user: User, **values: Any) -> InboundMail:
    n = next(numbers)
    return InboundMail.objects.create(
        source="smtp", digest=f"{n:064d}", recipient="play@example.com", raw=b"", size=0, **values
    )


def new_delivery(user: User, **values: Any) -> Delivery:
    hook = Webhook.objects.create(user=user, url="http://127.0.0.1:9/", kinds=["move"], secret="s")
    return Delivery.objects.create(webhook=hook, kind="ping", **values)


def new_push(user: User, **values: Any) -> PushMessage:
    n = next(numbers)
    device = PushSubscription.objects.create(
        user=user, endpoint=f"https://push.example.net/{n}", p256dh="k", auth="a"
    )
    return PushMessage.objects.create(user=user, subscription=device, kind="your_turn", **values)


TABLES: dict[str, Callable[..., Outbox]] = {
    "e-mail": new_notification,
    "inbound": new_inbound,
    "webhook": new_delivery,
    "push": new_push,
}


@pytest.fixture(params=list(TABLES))
def new(request: pytest.FixtureRequest, alice: User) -> Callable[..., Outbox]:
    """Makes a row of the table, at START (its own defaults, or ``values``)."""
    make = TABLES[request.param]
    return lambda **values: make(alice, **values)


@pytest.fixture(autouse=True)
def bounds(settings: Any) -> Iterator[time_machine.Traveller]:
    """Three attempts and a five minutes' lease on every table; time stands at START."""
    settings.EMAIL_MAX_ATTEMPTS = settings.MAIL_INBOUND_MAX_ATTEMPTS = 3
    settings.WEBHOOK_MAX_ATTEMPTS = settings.PUSH_MAX_ATTEMPTS = 3
    settings.PUSH_LEASE_SECONDS = 300
    settings.NOTIFICATION_LEASE_SECONDS = settings.MAIL_INBOUND_LEASE_SECONDS = 300
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def one(row: Outbox) -> Any:
    return type(row).objects.filter(pk=row.pk)  # type: ignore[attr-defined]


def state(row: Outbox) -> tuple[str, int, datetime | None, str]:
    row.refresh_from_db()
    return row.status, row.attempts, row.next_attempt_at, row.last_error  # type: ignore[attr-defined]


def test_a_row_is_claimed_once_for_an_attempt(new: Callable[..., Outbox]) -> None:
    row = new()
    life = type(row).lifecycle
    statuses = set(type(row).Status.values)  # type: ignore[attr-defined]
    assert {life.waiting, life.claimed, life.done, life.failed} <= statuses
    assert outbox.claim(one(row)) == START
    assert state(row) == (life.claimed, 1, START + LEASE, "")
    assert row.claimed_at == START
    assert outbox.claim(one(row)) is None  # a second task finds it taken
    assert outbox.finish(outbox.held(type(row), START).filter(pk=row.pk), last_error="") == 1
    assert state(row) == (life.done, 1, None, "")
    assert outbox.claim(one(row)) is None  # done


@pytest.mark.django_db(transaction=True)
def test_racing_workers_claim_each_row_once(new: Callable[..., Outbox]) -> None:
    rows = [new() for _ in range(5)]
    model = type(rows[0])
    claims: list[tuple[int, datetime]] = []

    def worker() -> None:
        for row in rows:
            taken = outbox.claim(one(row))
            if taken is not None:
                claims.append((row.pk, taken))

    race(4, worker)
    assert sorted(pk for pk, _ in claims) == sorted(row.pk for row in rows)
    assert {state(row)[:2] for row in rows} == {(model.lifecycle.claimed, 1)}


def test_a_dead_workers_claim_is_taken_up_when_its_lease_runs_out_and_loses_the_row(
    new: Callable[..., Outbox], bounds: time_machine.Traveller
) -> None:
    row = new()
    model = type(row)
    first = outbox.claim(one(row))
    assert first is not None
    bounds.move_to(START + LEASE - timedelta(seconds=1))
    assert outbox.claim(one(row)) is None  # still the first worker's
    bounds.move_to(START + LEASE)
    second = outbox.claim(one(row))
    assert second == START + LEASE
    assert state(row)[:3] == (model.lifecycle.claimed, 2, second + LEASE)
    # The first worker comes back: its claim holds nothing any more.
    assert not outbox.held(model, first).exists()
    assert outbox.finish(outbox.held(model, first)) == 0
    outbox.attempt_failed([row], first, "late", retry_in=lambda _: timedelta(0))
    assert state(row) == (model.lifecycle.claimed, 2, second + LEASE, "")


def test_a_failed_attempt_waits_out_its_back_off_then_the_row_gives_up(
    new: Callable[..., Outbox], bounds: time_machine.Traveller
) -> None:
    row = new()
    life = type(row).lifecycle
    waits: list[datetime | None] = []
    for attempt in (1, 2, 3):
        claimed_at = outbox.claim(one(row))
        assert claimed_at is not None
        row.refresh_from_db()
        failed = outbox.attempt_failed(
            [row],
            claimed_at,
            f"error {attempt}",
            retry_in=lambda attempts: outbox.backoff(attempts, 60, 3600),
        )
        waits.append(failed.retry_at)
        if attempt < 3:
            assert failed.spent == [] and failed.again == [row]
            assert state(row) == (life.waiting, attempt, failed.retry_at, f"error {attempt}")
            bounds.move_to(failed.retry_at)
    assert waits[:2] == [START + timedelta(minutes=1), START + timedelta(minutes=3)]
    assert waits[2] is None and state(row) == (life.failed, 3, None, "error 3")
    assert outbox.claim(one(row)) is None


def test_a_permanent_failure_gives_up_at_once_and_keeps_the_channels_values(
    new: Callable[..., Outbox],
) -> None:
    row = new()
    claimed_at = outbox.claim(one(row))
    assert claimed_at is not None
    row.refresh_from_db()
    failed = outbox.attempt_failed(
        [row], claimed_at, "x" * 600, retry_in=lambda _: timedelta(hours=1), permanent=True
    )
    assert failed.spent == [row] and failed.again == [] and failed.retry_at is None
    status, attempts, next_attempt_at, error = state(row)
    assert (status, attempts, next_attempt_at) == (type(row).lifecycle.failed, 1, None)
    assert error == "x" * 500


def test_spent_attempts_end_the_row_failed_without_an_attempt(
    new: Callable[..., Outbox], settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    life = new().lifecycle
    # The bound lowered under a waiting row: its last error kept.
    waiting = new(attempts=3, last_error="451 try again later")
    # A claim whose worker never reported, its lease over, its attempts spent.
    lost = new(status=life.claimed, attempts=3, claimed_at=START - LEASE, next_attempt_at=START)
    with caplog.at_level(logging.ERROR, logger="lib.outbox"):
        assert outbox.claim(one(waiting)) is None
        assert outbox.claim(one(lost)) is None
    assert state(waiting) == (life.failed, 3, None, "451 try again later")
    assert state(lost) == (life.failed, 3, None, outbox.LOST)
    assert [r.getMessage().split(" id=")[0] for r in caplog.records] == [
        f"outbox gave up table={type(lost)._meta.label}"
    ] * 2


def test_the_sweep_finds_the_rows_whose_next_attempt_has_come(
    new: Callable[..., Outbox],
) -> None:
    model = type(new())
    model.objects.all().delete()  # type: ignore[attr-defined]
    life = model.lifecycle
    lost_task = new(next_attempt_at=START)
    later = new(next_attempt_at=START + timedelta(seconds=1))
    lease_over = new(status=life.claimed, attempts=1, next_attempt_at=START)
    in_lease = new(status=life.claimed, attempts=1, next_attempt_at=START + LEASE)
    done = new(status=life.done, next_attempt_at=START)
    failed = new(status=life.failed, next_attempt_at=None)
    due = set(model.objects.filter(outbox.due(model, START)))  # type: ignore[attr-defined]
    assert due == {lost_task, lease_over}
    assert not due & {later, in_lease, done, failed}


def test_the_back_off_doubles_up_to_its_cap() -> None:
    assert [outbox.backoff(n, 60, 3600).total_seconds() for n in range(0, 9)] == [
        60,
        60,
        120,
        240,
        480,
        960,
        1920,
        3600,
        3600,
    ]
    assert outbox.backoff(10**6, 60, 3600) == timedelta(hours=1)


def test_a_task_is_queued_by_name_after_the_commit_and_a_broker_failure_is_only_logged(
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    queued: list[tuple[Any, ...]] = []

    class Task:
        def apply_async(self, args: tuple[Any, ...], countdown: float | None = None) -> None:
            if args == ("down",):
                raise ConnectionRefusedError(111, "Connection refused")
            queued.append((*args, countdown))

    monkeypatch.setattr("lib.outbox.current_app.tasks", {"rbank.test": Task()})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        outbox.dispatch_on_commit("rbank.test", 7)
        assert queued == []  # not before the commit
    assert len(callbacks) == 1 and queued == [(7, None)]
    assert outbox.dispatch("rbank.test", 8, countdown=2.5) is True
    assert queued[-1] == (8, 2.5)
    with caplog.at_level(logging.WARNING, logger="lib.outbox"):
        assert outbox.dispatch("rbank.test", "down") is False
        assert outbox.dispatch("rbank.no_such_task", 9) is False
    assert [r.getMessage().split("(")[0] for r in caplog.records] == [
        "could not queue rbank.test",
        "could not queue rbank.no_such_task",
    ]


PREVIOUS = [("webhooks", "0002_labels"), ("mailplay", "0004_authentication_verdict")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_to_one_outbox_keeps_every_row_and_its_status() -> None:
    """Inbound mail gains ``last_error`` (its error was in ``detail``); a webhook's
    claim moves to the delivery it was sending, due when the claim would have run out."""
    executor = MigrationExecutor(connection)
    executor.migrate(PREVIOUS)
    old = executor.loader.project_state(PREVIOUS).apps
    user = old.get_model("auth", "User").objects.create(username="alice")
    hook_model, delivery_model = (
        old.get_model("webhooks", "Webhook"),
        old.get_model("webhooks", "Delivery"),
    )
    held = hook_model.objects.create(
        user=user, url="http://a/", secret="s", claimed_at=START, claimed_until=START + LEASE
    )
    lost = hook_model.objects.create(user=user, url="http://b/", secret="s")
    sending = delivery_model.objects.create(webhook=held, kind="ping", status="sending", attempts=1)
    orphan = delivery_model.objects.create(webhook=lost, kind="ping", status="sending", attempts=2)
    waiting = delivery_model.objects.create(
        webhook=lost, kind="ping", status="pending", next_attempt_at=START, last_error="HTTP 500"
    )
    delivered = delivery_model.objects.create(webhook=held, kind="ping", status="delivered")
    inbound = old.get_model("mailplay", "InboundMail")
    mails = {
        status: inbound.objects.create(
            source="smtp",
            digest=status.ljust(64, "0"),
            recipient="play@example.com",
            raw=b"",
            size=0,
            status=status,
            detail=detail,
            attempts=1,
        )
        for status, detail in [
            ("received", "DnsUnavailable('no answer')"),
            ("handling", ""),
            ("done", "help"),
            ("failed", "ValueError('broken')"),
        ]
    }
    before = datetime.now(UTC)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Delivery.objects.count() == 4 and InboundMail.objects.count() == 4
    rows = {row.pk: row for row in Delivery.objects.all()}
    assert (rows[sending.pk].status, rows[sending.pk].next_attempt_at) == (
        "sending",
        START + LEASE,
    )
    orphaned = rows[orphan.pk]
    assert orphaned.status == "sending" and orphaned.attempts == 2
    assert orphaned.next_attempt_at is not None and orphaned.next_attempt_at >= before  # at once
    assert (rows[waiting.pk].status, rows[waiting.pk].next_attempt_at) == ("pending", START)
    assert rows[waiting.pk].last_error == "HTTP 500"
    assert (rows[delivered.pk].status, rows[delivered.pk].next_attempt_at) == ("delivered", None)
    after = {row.status: (row.detail, row.last_error) for row in InboundMail.objects.all()}
    assert after == {
        "received": ("DnsUnavailable('no answer')", "DnsUnavailable('no answer')"),
        "handling": ("", ""),
        "done": ("help", ""),
        "failed": ("ValueError('broken')", "ValueError('broken')"),
    }
    assert {row.pk for row in InboundMail.objects.all()} == {row.pk for row in mails.values()}
