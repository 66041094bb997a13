"""The daily prune: e-mails done with and idempotency keys go after RETENTION_DAYS."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, IdempotentRequest, Notification
from games.retention import prune
from games.tasks import prune_old_rows

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 24, 3, 30, tzinfo=UTC)


def written(days_ago: float, **fields: Any) -> Notification:
    with time_machine.travel(NOW - timedelta(days=days_ago), tick=False):
        return Notification.objects.create(kind="your_turn", **fields)


def key_written(days_ago: float, user: User, game: Game, key: str) -> IdempotentRequest:
    with time_machine.travel(NOW - timedelta(days=days_ago), tick=False):
        return IdempotentRequest.objects.create(
            user=user, key=key, game=game, status_code=200, response={}
        )


def test_it_deletes_what_is_done_and_older_than_the_retention_and_keeps_the_rest(
    game: Game, alice: User, bob: User, settings: Any
) -> None:
    settings.RETENTION_DAYS = 30
    mail = {"user": alice, "email": alice.email, "game": game}
    old_done = [
        written(31, status=status, **mail)
        for status in ("sent", "sent", "failed", "outdated", "sent")
    ]
    young_done = [written(29, status=status, **mail) for status in ("sent", "failed", "outdated")]
    old_waiting = [
        written(40, status=status, **mail) for status in ("pending", "sending", "digest")
    ]
    old_keys = [key_written(31, alice, game, f"old-{n}") for n in range(3)]
    young_key = key_written(1, bob, game, "young")

    with CaptureQueriesContext(connection) as queries:
        assert prune(NOW, batch=2) == {
            "notifications": 5,
            "pushes": 0,
            "idempotency_keys": 3,
            "events": 0,
        }
    deletes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("DELETE")]
    assert len(deletes) == 3 + 2  # five rows two at a time, three keys two at a time

    left = set(Notification.objects.values_list("pk", flat=True))
    assert left == {row.pk for row in young_done + old_waiting}
    assert not left & {row.pk for row in old_done}
    assert list(IdempotentRequest.objects.values_list("pk", flat=True)) == [young_key.pk]
    assert not IdempotentRequest.objects.filter(pk__in=[k.pk for k in old_keys]).exists()


def test_it_prunes_from_the_daily_task_with_the_retention_setting(
    game: Game, alice: User, settings: Any
) -> None:
    settings.RETENTION_DAYS = 7
    mail = {"user": alice, "email": alice.email, "game": game, "status": "sent"}
    week_old, six_days_old = written(8, **mail), written(6, **mail)
    key_written(8, alice, game, "a-week-ago")
    with time_machine.travel(NOW, tick=False):
        assert prune_old_rows.apply().get() == {
            "notifications": 1,
            "pushes": 0,
            "idempotency_keys": 1,
            "events": 0,
        }
        assert prune_old_rows.apply().get() == {
            "notifications": 0,
            "pushes": 0,
            "idempotency_keys": 0,
            "events": 0,
        }
    assert list(Notification.objects.values_list("pk", flat=True)) == [six_days_old.pk]
    assert not Notification.objects.filter(pk=week_old.pk).exists()
    assert not IdempotentRequest.objects.exists()
