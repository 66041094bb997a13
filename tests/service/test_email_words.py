"""What the e-mails say: a declined challenge, the site's name, results for every seat."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.services import update_profile
from games.lobby.challenges import accept_challenge, create_challenge, decline_challenge
from games.models import Game, Notification
from games.notify.writing import build_message
from games.play.dealing import start_game
from games.play.services import resign
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.play.sweep import timeout_game
from tests.stored import UNEVEN_COUNTS, place, position_of

from .conftest import client_for
from .smtp import Inbox, smtp_inbox, text_of

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
__all__ = ["smtp_inbox"]


def subject_of(message: EmailMessage) -> str:
    return str(message["Subject"]).strip()


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol", "carol@example.com", "pw-carol-123")


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Any:
    """Run what waits for the commit (the e-mails' sending) when the block ends."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_it_tells_the_challenger_that_a_challenge_was_declined(
    alice: User, bob: User, smtp_inbox: Inbox, on_commit: Any
) -> None:
    with on_commit():
        challenge = create_challenge(alice, opponent="bob", match_target=300)
    with on_commit():
        response = client_for(bob).post(f"/api/v1/challenges/{challenge.pk}/decline/")
    assert response.status_code == 200
    (message,) = smtp_inbox.to(alice.email)
    assert subject_of(message) == "bob declined your challenge"
    body = text_of(message)
    assert "bob has declined your challenge to a match to 300 points" in body
    assert "http://127.0.0.1:8000/" in body  # the lobby, to challenge someone else
    assert str(message["List-Unsubscribe"]).strip().startswith("<http")


def test_it_sends_no_declined_email_to_a_challenger_who_wants_none(
    alice: User, bob: User, smtp_inbox: Inbox, on_commit: Any
) -> None:
    update_profile(alice, {"notifications": {"challenge_declined": "never"}})
    challenge = create_challenge(alice, opponent="bob")
    with on_commit():
        decline_challenge(challenge.pk, bob)
    assert not smtp_inbox.to(alice.email)


def test_it_tells_the_challenger_and_who_had_accepted_when_a_third_player_declines(
    alice: User, bob: User, carol: User, smtp_inbox: Inbox, on_commit: Any
) -> None:
    challenge = create_challenge(
        alice, opponent="bob", second_opponent="carol", rules="three-player"
    )
    accept_challenge(challenge.pk, bob)
    with on_commit():
        decline_challenge(challenge.pk, carol)
    assert subject_of(smtp_inbox.to(alice.email)[0]) == "carol declined your challenge"
    (to_bob,) = smtp_inbox.to(bob.email)
    assert subject_of(to_bob) == "carol declined alice's challenge"
    assert "The game you accepted will not start." in text_of(to_bob)
    assert not smtp_inbox.to(carol.email)


def test_it_names_the_site_not_the_host_in_the_sign_up_and_password_emails(
    smtp_inbox: Inbox,
) -> None:
    signup = {
        "email": "dora@example.com",
        "username": "dora",
        "password1": "a-long-passphrase-42",
        "password2": "a-long-passphrase-42",
    }
    assert Client().post("/accounts/signup/", signup).status_code == 302
    assert Client().post("/accounts/password/reset/", {"email": "dora@example.com"}).status_code
    confirm, reset = smtp_inbox.to("dora@example.com")
    for message in (confirm, reset):
        body = text_of(message)
        assert subject_of(message).startswith("[Russian Bank] ")
        assert body.startswith("Hello from Russian Bank!")
        assert "testserver!" not in body and "Thank you for playing Russian Bank" in body
    assert "an account on Russian Bank" in text_of(confirm)


def test_it_says_who_resigned_and_every_score_in_a_three_player_result(
    alice: User, bob: User, carol: User, smtp_inbox: Inbox, on_commit: Any
) -> None:
    game = start_game(alice, bob, carol, rules="three-player", seed=5)
    owed = 30 + 20 + position_of(game).seats[1].count
    with on_commit():
        resign(game_id=game.pk, user=bob)
    subject = {
        name: subject_of(smtp_inbox.to(f"{name}@example.com")[0])
        for name in ("alice", "bob", "carol")
    }
    assert subject["alice"] == (
        f"Game {game.pk} against bob and carol is over: bob resigned "
        f"(you {owed}, bob 0, carol {owed})"
    )
    assert subject["bob"] == (  # the scores in turn order from the reader, as on the pages
        f"Game {game.pk} against alice and carol is over: you resigned "
        f"(you 0, carol {owed}, alice {owed})"
    )
    assert subject["carol"].endswith(
        f"against alice and bob is over: bob resigned (you {owed}, alice {owed}, bob 0)"
    )


def test_it_says_who_ran_out_of_time_and_who_won_in_a_timeout_email(
    alice: User, bob: User, smtp_inbox: Inbox, on_commit: Any
) -> None:
    game = start_game(alice, bob, seed=7)
    idle = game.user_at(game.letters.index(game.to_move))
    other = bob if idle == alice else alice
    owed = 30 + 20 + position_of(game).seats[game.seat_of(idle.pk) or 0].count
    assert game.deadline is not None
    with time_machine.travel(game.deadline + timedelta(seconds=1)), on_commit():
        assert timeout_game(game.pk, timezone.now())
    assert Game.objects.get(pk=game.pk).ending == "timeout"
    (to_other,) = smtp_inbox.to(other.email)
    assert subject_of(to_other) == (
        f"Game {game.pk} against {idle.username} is over: {idle.username} ran out of time, "
        f"you won (you {owed}, {idle.username} 0)"
    )
    assert f"{idle.username} ran out of time, you won." in text_of(to_other)
    (to_idle,) = smtp_inbox.to(idle.email)
    # Worded as the pages word it (games/words/results.py).
    assert f"is over: your time ran out, {other.username} won (you 0" in subject_of(to_idle)


def test_a_timeout_email_is_written_as_a_game_over_email(alice: User, bob: User) -> None:
    """One set of templates for every end: the two kinds' words cannot drift apart."""
    game = start_game(alice, bob, seed=7)
    resign(game_id=game.pk, user=bob)
    over = Notification.objects.filter(kind="game_over", user=alice).get()
    timeout = Notification.objects.create(
        kind="timeout", user=alice, email=alice.email, game=over.game, ply=over.ply
    )

    def words(row: Notification) -> list[str]:
        """The e-mail's texts, but for the unsubscribe link (one per kind)."""
        message = build_message(row)
        texts = [
            str(message.subject),
            str(message.body),
            *(str(a[0]) for a in message.alternatives),
        ]
        return [re.sub(r"/unsubscribe/[^/]+/", "/unsubscribe/-/", text) for text in texts]

    assert words(over) == words(timeout)
    assert not list((ROOT / "templates" / "emails").glob("timeout-*"))


def test_it_words_an_agreed_stalemate_from_each_side_as_the_pages_do(
    alice: User, bob: User, smtp_inbox: Inbox, on_commit: Any
) -> None:
    """Scored by the counts (R8.3): a loss for the higher count, never "a stalemate" as
    if nobody had won."""
    game = start_game(alice, bob, seed=7)
    place(game, UNEVEN_COUNTS)
    with on_commit():
        offer_stalemate(game_id=game.pk, user=alice)
    # The offer says what agreeing would give its reader, as the page does.
    (offer,) = smtp_inbox.to(bob.email)
    assert subject_of(offer) == (
        f"alice offers to end game {game.pk} by the counts (4-0, you would win)"
    )
    assert (
        "Agreed now, the game ends 4-0: you have the lower count, so you would win. "
        "Counts now: you 2, alice 6." in text_of(offer)
    )
    with on_commit():
        answer_stalemate(game_id=game.pk, user=bob, accept=True)
    to_alice = [m for m in smtp_inbox.to(alice.email) if "is over" in subject_of(m)]
    to_bob = [m for m in smtp_inbox.to(bob.email) if "is over" in subject_of(m)]
    assert [subject_of(m) for m in to_alice] == [
        f"Game {game.pk} against bob is over: stalemate agreed, bob had the lower count, "
        "bob won (you 0, bob 4)"
    ]
    assert [subject_of(m) for m in to_bob] == [
        f"Game {game.pk} against alice is over: stalemate agreed, you had the lower count, "
        "you won (you 4, alice 0)"
    ]


def test_it_writes_a_subject_as_plain_text(
    alice: User, bob: User, smtp_inbox: Inbox, on_commit: Any
) -> None:
    """A subject is no HTML: the French "blocage d'un commun accord" went out as
    "d&#x27;un" in the subject of the game-over e-mail."""
    update_profile(alice, {"language": "fr"})
    game = start_game(alice, bob, seed=7)
    place(game, UNEVEN_COUNTS)
    with on_commit():
        offer_stalemate(game_id=game.pk, user=bob)
    with on_commit():
        answer_stalemate(game_id=game.pk, user=alice, accept=True)
    subjects = [subject_of(message) for message in smtp_inbox.to(alice.email)]
    assert any("blocage d'un commun accord" in subject for subject in subjects), subjects
    assert not [subject for subject in subjects if "&#" in subject or "&amp;" in subject]


def test_every_subject_is_rendered_as_plain_text() -> None:
    """The same for the subjects no test sends: each template turns escaping off."""
    folder = ROOT / "templates" / "emails"
    subjects = sorted(folder.glob("*-subject.txt"))
    escaped = [path.name for path in subjects if "{% autoescape off %}" not in path.read_text()]
    assert subjects and escaped == []
