"""Push notifications (docs/notifications.md), against a real push service on
127.0.0.1 (``push_service``): the server's request is checked as a browser's push
service checks it (VAPID) and decrypted with the subscription's keys, as the browser
decrypts it. Every kind, in the player's language; the device stored from the
account page's endpoint; a gone subscription deleted; retries through the outbox."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone

from accounts import notices
from accounts.services import update_profile
from games.models import Challenge, Game, Message, PushMessage, PushSubscription
from games.notify.notifications import notify
from games.push import sending
from games.sweep import sweep

from .conftest import browser, client_for, play_turn
from .push_service import Device, PushService, push_service

pytestmark = pytest.mark.django_db
__all__ = ["push_service"]


def subscribe(user: User, service: PushService) -> Device:
    """A browser of ``user``'s subscribes: the account page's script POSTs this."""
    device = service.device()
    body = json.dumps(device.subscription())
    answer = browser(user).post("/account/push/", body, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return device


def prefer(user: User, mode: str, *kinds: str) -> None:
    update_profile(user, {"notifications": dict.fromkeys(kinds or notices.kinds(), mode)})


def test_a_turn_goes_by_push_in_the_players_language(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    update_profile(bob, {"language": "fr"})
    prefer(bob, "push", "your_turn")
    phone, laptop = subscribe(bob, push_service), subscribe(bob, push_service)
    run(play_turn, game, alice, bob)
    assert push_service.refused == []
    for device in (phone, laptop):  # every device of his gets it
        [turn] = push_service.to(device)
        assert turn["title"] == f"À vous de jouer contre alice (partie {game.pk})"
        assert turn["body"].startswith("Jouez avant le ")
        assert turn["url"] == f"/games/{game.pk}/" and turn["lang"] == "fr"
        assert turn["tag"] == f"game-{game.pk}"
    claims = push_service.pushes[0].claims  # checked by the push service, signature too
    assert (claims["aud"], claims["sub"]) == (push_service.origin, "mailto:games@example.com")
    assert push_service.pushes[0].headers["urgency"] == "high"
    assert mail.outbox == []  # push only: no e-mail
    assert set(PushMessage.objects.values_list("status", flat=True)) == {"sent"}


#: A notice of each kind as the games write it (their own happenings write the
#: commonest: a turn, a challenge, a resignation).
CONTEXTS: dict[str, dict[str, Any]] = {
    "reminder": {"hours_left": 2},
    "timeout": {},
    "stalemate_offer": {},
    "stalemate_declined": {},
    "stop_called": {
        "move_number": 2,
        "move": "H1-H5",
        "code": "S1",
        "reason": "an ace was free",
        "refusal": "",
        "correction": "H2-F1",
    },
    "vacation": {"until": "2026-12-01T00:00:00+00:00", "days": 3},
    "message": {},
    "challenge_declined": {"declined_by": "carol", "mine": True},
    # A competition's (competitions.services.telling): no game, its page.
    "competition_started": {"players": 8},
    "competition_round": {"round": 1, "opponent": "carol", "bye": False},
    "competition_finished": {"place": 2, "points": 3, "players": 8},
}
CUP = "/competitions/3/"


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_kind_goes_by_push_with_the_emails_words(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any, language: str
) -> None:
    """Push and e-mail: each kind reaches the device titled as its e-mail's subject."""
    assert set(notices.kinds()) == {*CONTEXTS, "invitation", "your_turn", "game_over"}
    for player in (alice, bob):
        update_profile(player, {"language": language, "email_after_push_minutes": 0})
        prefer(player, "push_and_email")
    device = subscribe(bob, push_service)
    answer = run(client_for(alice).post, "/api/v1/challenges/", {"opponent": "bob"}, format="json")
    assert answer.status_code == 201
    challenge = Challenge.objects.get(pk=answer.json()["id"])
    run(play_turn, game, alice, bob)  # your_turn
    for kind, context in CONTEXTS.items():
        if kind == "message":
            said = Message.objects.create(
                game=game, author=alice, seat="A", text="hi", ply=game.ply
            )
            context = {"message_ids": [said.pk]}
        about: dict[str, Any] = {"game": game}
        if kind == "challenge_declined":
            about = {"challenge": challenge}
        elif kind.startswith("competition_"):
            about = {"competition_name": "Cup", "competition_link": settings.SITE_URL + CUP}
        run(notify, kind, user=bob, **about, **context)
    answer = run(client_for(alice).post, f"/api/v1/games/{game.pk}/resign/", {}, format="json")
    assert answer.status_code == 200  # game_over
    pushed = push_service.to(device)
    subjects = [" ".join(m.subject.split()) for m in mail.outbox if m.to == [bob.email]]
    assert push_service.refused == []
    assert [p["title"] for p in pushed] == subjects and len(subjects) == len(notices.kinds())
    assert all(p["lang"] == language and p["body"] for p in pushed)
    # A challenge opens the lobby; a competition's notice, its page.
    assert {p["url"] for p in pushed} == {"/", f"/games/{game.pk}/", CUP}


def test_a_device_the_push_service_says_is_gone_is_deleted(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    prefer(bob, "push")
    old, new = subscribe(bob, push_service), subscribe(bob, push_service)
    push_service.answers[old.endpoint.removeprefix(push_service.origin)] = [410]
    run(play_turn, game, alice, bob)
    assert push_service.to(new) and not push_service.to(old)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [new.endpoint]
    gone = PushMessage.objects.get(status="gone")
    assert gone.subscription is None and gone.last_error.startswith("410")


def test_a_push_with_no_device_left_goes_by_email(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    """A kind set to push never goes unsaid: with no device, it is e-mailed."""
    prefer(bob, "push")
    run(play_turn, game, alice, bob)
    assert [m.to for m in mail.outbox] == [[bob.email]]
    assert not PushMessage.objects.exists()


def test_a_busy_push_service_is_tried_again_after_the_back_off_then_given_up(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any, settings: Any
) -> None:
    settings.PUSH_MAX_ATTEMPTS = 3
    prefer(bob, "push")
    device = subscribe(bob, push_service)
    path = device.endpoint.removeprefix(push_service.origin)
    push_service.answers[path] = [503, 429]
    run(play_turn, game, alice, bob)
    row = PushMessage.objects.get()
    assert (row.status, row.attempts, row.last_error[:3]) == ("pending", 1, "503")
    assert row.next_attempt_at is not None
    wait = row.next_attempt_at - timezone.now()
    assert timedelta(seconds=55) < wait <= timedelta(seconds=60)  # PUSH_RETRY_BACKOFF
    assert sweep()["pushes_resent"] == 0  # not due yet
    start = timezone.now()
    with time_machine.travel(start + timedelta(seconds=61)):
        assert sweep()["pushes_resent"] == 1  # 429: again, after twice as long
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error[:3]) == ("pending", 2, "429")
    assert row.next_attempt_at is not None
    assert row.next_attempt_at - start > timedelta(seconds=61 + 115)  # twice as long
    push_service.answers[path] = [500]
    with time_machine.travel(start + timedelta(seconds=61 + 125)):
        sweep()
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error[:3]) == ("failed", 3, "500")
    assert row.next_attempt_at is None and push_service.to(device) == []


def test_a_task_delivered_twice_pushes_once(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    prefer(bob, "push")
    device = subscribe(bob, push_service)
    run(play_turn, game, alice, bob)
    row = PushMessage.objects.get()
    assert sending.send(row.pk) is False  # already sent
    assert len(push_service.to(device)) == 1


def test_a_refused_request_fails_at_once(
    game: Game, alice: User, bob: User, push_service: PushService, run: Any
) -> None:
    prefer(bob, "push")
    device = subscribe(bob, push_service)
    push_service.answers[device.endpoint.removeprefix(push_service.origin)] = [413]
    run(play_turn, game, alice, bob)
    row = PushMessage.objects.get()
    assert (row.status, row.attempts) == ("failed", 1)
