"""Every link in every e-mail leads somewhere, for the player it was sent to.

A game's whole life runs with the e-mails going to a real SMTP server: challenges
(one declined), an e-mail invitation, turns, a message, a stalemate offer, a vacation, the daily
digest, a reminder, a timeout, a resignation, Stop!, and django-allauth's sign-up and
password e-mails. Then every link of every e-mail, in its text and its HTML part, is
followed as its recipient would: signed in as that player, or signed out for the
links made for that (unsubscribing, an invitation, allauth's account links).
"""

from __future__ import annotations

import html
import re
from datetime import timedelta
from email.message import EmailMessage
from urllib.parse import urlsplit

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client

from accounts.services import start_vacation, update_profile
from games.models import Game, Notification
from games.notify.kinds import KINDS as NOTIFICATION_EVENTS
from games.play.dealing import start_game
from games.play.services import resign
from games.play.stops import call_stop_on
from games.sweep import sweep
from games.tasks import send_digests
from tests.stop_scenes import classic_game

from .conftest import client_for, mover_and_other, play_turn
from .smtp import Inbox, smtp_inbox, text_of

__all__ = ["smtp_inbox"]

HOSTS = {"127.0.0.1:8000", "testserver"}  # SITE_URL's, and the test requests' for allauth
#: Links made for a signed-out reader.
SIGNED_OUT = ("/unsubscribe/", "/invitations/", "/accounts/")


def links_in(message: EmailMessage) -> set[str]:
    text = text_of(message)
    found = set(re.findall(r"https?://[^\s<>\"]+", text))
    part = message.get_body(preferencelist=("html",))
    if part is not None:
        found |= {html.unescape(href) for href in re.findall(r'href="([^"]+)"', part.get_content())}
    return found


def live_a_games_whole_life(alice: User, bob: User, charlie: User) -> None:
    api = client_for(alice)
    # Challenges: a named one, an e-mail invitation, one declined.
    to_bob = api.post("/api/v1/challenges/", {"opponent": "bob"}, format="json").json()
    assert api.post("/api/v1/challenges/", {"email": "dora@example.com"}, format="json")
    declined = api.post("/api/v1/challenges/", {"opponent": "charlie"}, format="json").json()
    assert client_for(charlie).post(f"/api/v1/challenges/{declined['id']}/decline/")
    # From now on alice reads some kinds in her daily digest.
    update_profile(alice, {"notifications": {"challenge_declined": "daily_digest"}})
    update_profile(alice, {"notifications": {"vacation": "daily_digest"}})
    again = api.post("/api/v1/challenges/", {"opponent": "charlie"}, format="json").json()
    client_for(charlie).post(f"/api/v1/challenges/{again['id']}/decline/")
    accepted = client_for(bob).post(f"/api/v1/challenges/{to_bob['id']}/accept/").json()
    game = Game.objects.get(pk=accepted["game"])
    # Turns, a stalemate offer declined, a vacation, the digest.
    play_turn(game, alice, bob)
    play_turn(game, alice, bob)
    mover, waiting = mover_and_other(game, alice, bob)
    client_for(waiting).post(  # a message between turns: e-mailed at once
        f"/api/v1/games/{game.pk}/messages/", {"text": "take your time"}, format="json"
    )
    client_for(waiting).post(f"/api/v1/games/{game.pk}/stalemate/offer/")
    client_for(mover).post(
        f"/api/v1/games/{game.pk}/stalemate/answer/", {"accept": False}, format="json"
    )
    start_vacation(bob, 2)
    assert send_digests() == 1
    # A reminder, then the timeout.
    game.refresh_from_db()
    assert game.reminder_at is not None and game.deadline is not None
    with time_machine.travel(game.reminder_at + timedelta(seconds=1), tick=False):
        assert sweep()["reminded"] == 1
    with time_machine.travel(game.deadline + timedelta(seconds=1), tick=False):
        assert sweep()["timed_out"] == 1
    # A resignation, and Stop! in a classic game.
    resign(game_id=start_game(alice, bob, seed=3).pk, user=bob)
    classic, _offender, caller, _moves = classic_game(alice, charlie, ["S2", "S2"])
    call_stop_on(game_id=classic.pk, user=caller, move_number=2)
    # django-allauth's e-mails: a sign-up's confirmation, a password reset.
    Client().post(
        "/accounts/signup/",
        {
            "email": "erin@example.com",
            "username": "erin",
            "password1": "a-long-passphrase-42",
            "password2": "a-long-passphrase-42",
        },
    )
    Client().post("/accounts/password/reset/", {"email": "alice@example.com"})


@pytest.mark.django_db(transaction=True)
def test_it_answers_every_link_of_every_email_of_a_games_life(smtp_inbox: Inbox) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    charlie = User.objects.create_user("charlie", "charlie@example.com", "pw-charlie-123")
    live_a_games_whole_life(alice, bob, charlie)

    sent = set(Notification.objects.filter(status="sent").values_list("kind", flat=True))
    assert sent >= set(NOTIFICATION_EVENTS), f"no e-mail of {set(NOTIFICATION_EVENTS) - sent}"
    subjects = [str(m["Subject"]).strip() for m in smtp_inbox.messages]
    assert any(s.startswith("Your Russian Bank digest") for s in subjects)
    assert sum(s.startswith("[Russian Bank]") for s in subjects) == 2  # allauth's

    followed = []
    for message in smtp_inbox.messages:
        address = str(message["To"]).strip()
        reader = User.objects.filter(email=address).first()
        links = links_in(message)
        assert links, f"no link in {message['Subject']}"
        for link in links:
            parts = urlsplit(link)
            assert parts.netloc in HOSTS, link
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            as_whom: list[User | None] = (
                [None] if reader is None or path.startswith(SIGNED_OUT) else [reader]
            )
            if reader is not None and path.startswith("/invitations/"):
                as_whom.append(reader)  # a player with an account may be signed in too
            for who in as_whom:
                client = Client()
                if who is not None:
                    client.force_login(who)
                response = client.get(path, follow=True)
                assert response.status_code == 200, (
                    f"{message['Subject']} to {address}: {link} answers "
                    f"{response.status_code} {'signed in' if who else 'signed out'}"
                )
                followed.append(path)
    assert any("/replay/" in path for path in followed)
    assert any(path.startswith("/invitations/") for path in followed)
