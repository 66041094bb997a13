"""What counts per deployment, not per process: a player's open streams (leases in the
database, across every web process), beat's lock (one beat sends the schedule), and the
deadline sweep, which several workers may run at once and which handles each due game
once. The whole cluster, in processes, is tests/service/test_cluster.py."""

from __future__ import annotations

import time
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.clocks import TimeControl
from games.feed import stream_leases
from games.models import Game, Lock, Notification, StreamLease
from games.play.dealing import start_game
from games.play.sweep import due_deadlines

from .racing import race


@pytest.mark.django_db
def test_a_players_streams_are_counted_across_processes(
    alice: User, bob: User, settings: Any
) -> None:
    settings.STREAM_MAX_PER_USER = 2
    first = stream_leases.take(alice.pk, "web-1")
    second = stream_leases.take(alice.pk, "web-2")
    assert first and second
    assert stream_leases.take(alice.pk, "web-1") is None  # the third, on any process
    assert stream_leases.take(bob.pk, "web-2")  # another player's are their own
    stream_leases.release([first])
    assert stream_leases.take(alice.pk, "web-2")


@pytest.mark.django_db
def test_a_dead_processs_streams_stop_counting_when_their_leases_run_out(
    alice: User, settings: Any
) -> None:
    settings.STREAM_MAX_PER_USER = 2
    kept, lost = stream_leases.take(alice.pk, "web-1"), stream_leases.take(alice.pk, "dead")
    assert kept and lost
    assert stream_leases.take(alice.pk, "web-1") is None
    past = timezone.now() - timedelta(seconds=settings.STREAM_LEASE_SECONDS + 1)
    StreamLease.objects.filter(hub="dead").update(renewed_at=past)  # no longer renewed
    StreamLease.objects.filter(hub="web-1").update(renewed_at=past)
    stream_leases.renew("web-1", [kept])  # web-1 lives on, and renews what it holds
    assert stream_leases.take(alice.pk, "web-1")  # the dead one's place
    assert stream_leases.take(alice.pk, "web-1") is None
    assert not StreamLease.objects.filter(hub="dead").exists()


@pytest.mark.django_db
def test_a_hub_drops_the_leases_it_no_longer_holds(alice: User) -> None:
    held, forgotten = stream_leases.take(alice.pk, "web-1"), stream_leases.take(alice.pk, "web-1")
    assert held and forgotten
    stream_leases.renew("web-1", [held])
    assert list(StreamLease.objects.values_list("pk", flat=True)) == [held]


@pytest.mark.django_db(transaction=True)
def test_racing_opens_never_take_more_than_the_limit(settings: Any) -> None:
    settings.STREAM_MAX_PER_USER = 3
    player = User.objects.create_user("racer", "racer@example.com", "pw-racer-123")
    taken: list[int | None] = []
    race(6, lambda: taken.append(stream_leases.take(player.pk, "web")))
    assert sum(1 for lease in taken if lease) == 3
    assert StreamLease.objects.filter(user=player).count() == 3


@pytest.mark.django_db
def test_one_holder_has_a_lock_until_it_runs_out() -> None:
    assert Lock.take("beat", "first", 60)
    assert not Lock.take("beat", "second", 60)
    assert Lock.take("beat", "first", 60)  # renewed by its holder
    Lock.objects.filter(name="beat").update(expires_at=timezone.now() - timedelta(seconds=1))
    assert Lock.take("beat", "second", 60)  # the first died: its lock ran out
    assert not Lock.take("beat", "first", 60)
    Lock.release("beat", "first")  # not its to give up
    assert Lock.objects.get(name="beat").holder == "second"
    Lock.release("beat", "second")
    assert Lock.take("beat", "first", 60)


@pytest.mark.django_db(transaction=True)
def test_workers_sweeping_at_once_handle_each_due_game_once() -> None:
    players = [
        User.objects.create_user(f"p{i}", f"p{i}@example.com", "pw-1234567") for i in range(8)
    ]
    games = [
        start_game(players[i], players[i + 1], seed=i, clock=TimeControl(days_per_turn=1))
        for i in range(0, 8, 2)
    ]
    later = timezone.now() + timedelta(days=2)
    results: list[dict[str, int]] = []
    race(3, lambda: results.append(due_deadlines(later)))
    assert sum(result["timed_out"] for result in results) == len(games)
    assert Game.objects.filter(pk__in=[g.pk for g in games], ending="timeout").count() == len(games)
    told = Counter(Notification.objects.filter(kind="timeout").values_list("game_id", "user_id"))
    assert told and max(told.values()) == 1  # no player told twice of one timeout


@pytest.mark.django_db(transaction=True)
def test_requests_at_once_are_each_counted_by_the_throttle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each process, each thread here, counts in the shared cache: of 12 requests sent
    at the same moment with a rate of 5 a minute, 5 pass, whatever their order."""
    from django.core.cache import cache
    from django.test import Client
    from rest_framework.throttling import UserRateThrottle

    from accounts.services import create_token

    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "5/min", "anon": "5/min"})
    player = User.objects.create_user("busy", "busy@example.com", "pw-busy-12345")
    header = f"Token {create_token(player, 'burst')[1]}"
    if time.time() % 60 > 55:  # the burst within one minute's window
        time.sleep(60 - time.time() % 60 + 0.1)
    window = int(time.time() // 60)
    cache.delete(f"throttle_user_{player.pk}:{window}")  # an earlier run's, in a kept Redis
    codes: list[int] = []

    def ask() -> None:
        codes.append(Client().get("/api/v1/me/", HTTP_AUTHORIZATION=header).status_code)

    race(12, ask)
    assert sorted(codes) == [200] * 5 + [429] * 7
