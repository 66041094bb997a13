"""The quiet rules (docs/notifications.md): no push of a game to a player looking at
it (its page, or its stream, open), and a "your turn" by push and e-mail whose e-mail
waits for the game to be opened; reminders by the chosen channels at the chosen hours."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from accounts.services import update_profile
from games.api.stream import FORMATS, SSE, flow
from games.feed.stream import Stream
from games.feed.stream_auth import Credential
from games.models import Game, Notification, PushMessage
from games.play import presence
from games.sweep import sweep

from .conftest import browser, play_turn, wait_until
from .push_service import PushService, push_service
from .test_push import prefer, subscribe

pytestmark = pytest.mark.django_db
__all__ = ["push_service"]


def pushes(user: User) -> list[str]:
    return list(
        PushMessage.objects.filter(user=user).order_by("pk").values_list("status", flat=True)
    )


@override_settings(PRESENCE_SECONDS=2)
def test_no_push_to_a_player_looking_at_the_game_until_they_leave(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    prefer(bob, "push")
    device = subscribe(bob, push_service)
    assert browser(bob).get(f"/games/{game.pk}/").status_code == 200  # bob looks
    run(play_turn, game, alice, bob)
    assert pushes(bob) == ["outdated"] and push_service.to(device) == []
    assert mail.outbox == []  # nor an e-mail in its place
    with time_machine.travel(timezone.now() + timedelta(seconds=3)):  # he has gone
        run(play_turn, game, alice, bob)  # alice's turn: nothing for bob
        run(play_turn, game, alice, bob)
    assert pushes(bob) == ["outdated", "sent"] and len(push_service.to(device)) == 1


@override_settings(STREAM_HEARTBEAT_SECONDS=0.05)
def test_no_push_while_the_games_stream_is_open(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    """Bob's game page holds its event stream open (no page load, no poll): a real
    stream, in a thread of its own, marks him present while the turn comes."""
    prefer(bob, "push")
    device = subscribe(bob, push_service)
    done = threading.Event()

    async def hold() -> None:
        events = flow(Stream(Credential(bob.pk)), None, FORMATS[SSE], looking=(bob.pk, game.pk))
        while not done.is_set():  # the preamble, heartbeats, the turn's events
            await anext(events)
        await events.aclose()

    with ThreadPoolExecutor(1) as thread:
        held = thread.submit(asyncio.run, hold())
        assert wait_until(lambda: presence.is_present(bob.pk, game.pk), 10)
        run(play_turn, game, alice, bob)
        done.set()
        held.result(timeout=10)
    assert pushes(bob) == ["outdated"] and push_service.to(device) == []


def test_a_turn_by_push_is_emailed_when_the_game_is_not_opened_in_time(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    prefer(bob, "push_and_email", "your_turn")
    update_profile(bob, {"email_after_push_minutes": 10})
    device = subscribe(bob, push_service)
    start = timezone.now()
    run(play_turn, game, alice, bob)
    assert len(push_service.to(device)) == 1 and mail.outbox == []  # the push at once
    row = Notification.objects.get(user=bob, kind="your_turn")
    assert row.status == "pending" and row.next_attempt_at is not None
    assert timedelta(minutes=9) < row.next_attempt_at - start <= timedelta(minutes=10, seconds=5)
    with time_machine.travel(start + timedelta(minutes=9)):
        assert sweep()["resent"] == 0 and mail.outbox == []
    with time_machine.travel(start + timedelta(minutes=11)):
        assert sweep()["resent"] == 1
    assert [m.to for m in mail.outbox] == [[bob.email]]
    assert mail.outbox[0].subject == f"Your turn against alice (game {game.pk})"


def test_no_email_after_the_push_once_the_game_was_opened(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    prefer(bob, "push_and_email", "your_turn")
    update_profile(bob, {"email_after_push_minutes": 10})
    subscribe(bob, push_service)
    start = timezone.now()
    run(play_turn, game, alice, bob)
    with time_machine.travel(start + timedelta(minutes=4)):
        assert browser(bob).get(f"/games/{game.pk}/").status_code == 200  # the push worked
    with time_machine.travel(start + timedelta(minutes=11)):
        sweep()
    assert mail.outbox == []
    assert Notification.objects.get(user=bob, kind="your_turn").status == "outdated"


def test_push_and_email_at_once_with_no_wait(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    prefer(bob, "push_and_email", "your_turn")
    update_profile(bob, {"email_after_push_minutes": 0})
    device = subscribe(bob, push_service)
    run(play_turn, game, alice, bob)
    assert len(push_service.to(device)) == 1 and len(mail.outbox) == 1


def test_reminders_go_at_the_chosen_hours_by_the_chosen_channel(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    prefer(bob, "push", "reminder")
    update_profile(bob, {"reminder_hours": [5]})
    device = subscribe(bob, push_service)
    run(play_turn, game, alice, bob)
    game.refresh_from_db()
    assert game.deadline is not None
    with time_machine.travel(game.deadline - timedelta(hours=6)):
        assert run(sweep)["reminded"] == 0
    with time_machine.travel(game.deadline - timedelta(hours=4, minutes=59)):
        assert run(sweep)["reminded"] == 1
    titles = [p["title"] for p in push_service.to(device)]
    assert titles == [f"5 hours left for your turn against alice (game {game.pk})"]
    assert [m.subject for m in mail.outbox] == [f"Your turn against alice (game {game.pk})"]
