"""Challenges by username, invitations by e-mail, open challenges; accept, decline, cancel."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.db import connection
from django.test import Client
from django.utils import translation

from games.lobby.challenges import accept_challenge, create_challenge
from games.models import Challenge, Game
from lib.errors import ServiceError

from .conftest import client_for

pytestmark = pytest.mark.django_db


def post(user: User, path: str, data: Any = None) -> Any:
    return client_for(user).post(f"/api/v1/{path}", data or {}, format="json")


def test_a_named_challenge_accepted_deals_a_game(alice: User, bob: User) -> None:
    created = post(alice, "challenges/", {"opponent": "bob"})
    assert created.status_code == 201
    challenge_id = created.json()["id"]
    assert [c["id"] for c in client_for(bob).get("/api/v1/challenges/").json()["results"]] == [
        challenge_id
    ]
    accepted = post(bob, f"challenges/{challenge_id}/accept/").json()
    assert accepted["status"] == "accepted"
    game = Game.objects.get(pk=accepted["game"])
    assert (game.user_at(0), game.user_at(1)) == (alice, bob)


def test_only_the_named_opponent_may_answer(alice: User, bob: User, charlie: User) -> None:
    challenge_id = post(alice, "challenges/", {"opponent": "bob"}).json()["id"]
    assert post(charlie, f"challenges/{challenge_id}/accept/").status_code == 404
    assert post(alice, f"challenges/{challenge_id}/accept/").json()["error"] == "SAME_PLAYER"
    assert post(bob, f"challenges/{challenge_id}/decline/").json()["status"] == "declined"
    assert post(bob, f"challenges/{challenge_id}/accept/").json()["error"] == "ALREADY_ANSWERED"
    assert not Game.objects.exists()


def test_a_stranger_does_not_see_a_private_challenge(alice: User, bob: User, charlie: User) -> None:
    post(alice, "challenges/", {"opponent": "bob"})
    post(alice, "challenges/", {"email": "dora@example.com"})
    assert client_for(charlie).get("/api/v1/challenges/").json()["results"] == []


def test_only_the_challenger_cancels(alice: User, bob: User) -> None:
    challenge_id = post(alice, "challenges/", {"opponent": "bob"}).json()["id"]
    assert post(bob, f"challenges/{challenge_id}/cancel/").status_code == 404
    assert post(alice, f"challenges/{challenge_id}/cancel/").json()["status"] == "cancelled"


def test_an_open_challenge_is_taken_by_the_first_to_accept(
    alice: User, bob: User, charlie: User
) -> None:
    challenge_id = post(alice, "challenges/", {"open": True}).json()["id"]
    listed = client_for(charlie).get("/api/v1/challenges/").json()["results"]
    assert [c["id"] for c in listed] == [challenge_id]
    assert post(charlie, f"challenges/{challenge_id}/accept/").json()["status"] == "accepted"
    assert post(bob, f"challenges/{challenge_id}/accept/").json()["error"] == "ALREADY_ANSWERED"
    assert Game.objects.get().user_at(1) == charlie


def test_a_match_challenge_starts_a_match(alice: User, bob: User) -> None:
    challenge_id = post(alice, "challenges/", {"opponent": "bob", "match_target": 150}).json()["id"]
    game = Game.objects.get(pk=post(bob, f"challenges/{challenge_id}/accept/").json()["game"])
    assert game.match is not None and game.match.target == 150


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"opponent": "bob", "open": True},
        {"opponent": "nobody-here"},
        {"opponent": "alice"},
        {"email": "not an address"},
        {"opponent": "bob", "rules": "calvinball"},
        {"opponent": "bob", "match_target": 0},
    ],
)
def test_a_bad_challenge_is_refused(alice: User, bob: User, body: dict[str, Any]) -> None:
    response = post(alice, "challenges/", body)
    assert 400 <= response.status_code < 500 and response.json()["message"]
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"reserve_size": 12}, "reserve_size 12"),
        ({"houses_same_suit": False}, "houses_same_suit false and group_moves true"),
    ],
)
def test_options_that_do_not_combine_with_the_preset_are_a_clear_400(
    alice: User, bob: User, options: dict[str, Any], named: str
) -> None:
    """``rules.CLASHES``: a challenge asking for options its preset's game cannot be
    played with is refused, the message naming the preset and the options."""
    body = {"opponent": "bob", "rules": "foster-one-pack", "options": options}
    response = post(alice, "challenges/", body)
    assert response.status_code == 400
    assert response.json()["error"] == "RULES_CLASH"
    assert f"the foster-one-pack rules do not combine with {named}: " in response.json()["message"]
    assert not Challenge.objects.exists()
    with translation.override("fr"), pytest.raises(ServiceError) as refused:
        create_challenge(alice, opponent="bob", rules="foster-one-pack", rule_options=options)
    assert named in refused.value.message and "foster-one-pack" in refused.value.message
    assert "do not combine" not in refused.value.message  # said in French


def test_an_email_invitation_signs_the_invitee_up_and_lands_them_in_the_game(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        assert post(alice, "challenges/", {"email": "dora@example.com"}).status_code == 201
    (invitation,) = mail.outbox
    assert invitation.to == ["dora@example.com"] and "alice" in invitation.subject
    assert isinstance(invitation, EmailMultiAlternatives)
    assert [mimetype for _, mimetype in invitation.alternatives] == ["text/html"]
    link = re.search(r"https?://\S+(/invitations/\S+/)", str(invitation.body))
    assert link is not None
    path = link.group(1)

    browser = Client()
    signup = browser.get(path)
    assert signup.status_code == 302 and "/accounts/signup/" in signup["Location"]
    signed_up = browser.post(
        signup["Location"],
        {
            "email": "dora@example.com",
            "username": "dora",
            "password1": "a-long-passphrase-42",
            "password2": "a-long-passphrase-42",
        },
    )
    # The invitation proved the address: signed in at once, no confirmation e-mail.
    assert signed_up.status_code == 302 and len(mail.outbox) == 1
    page = browser.get(path)
    assert page.status_code == 200 and b"alice invites you to a game" in page.content
    accepted = browser.post(path, {"answer": "accept"})
    game = Game.objects.get()
    assert accepted["Location"] == f"/games/{game.pk}/"
    assert game.user_at(1).get_username() == "dora"


def test_an_unknown_invitation_link_is_a_clear_404() -> None:
    response = Client().get("/invitations/not-a-token/")
    assert response.status_code == 404 and b"does not exist" in response.content


@pytest.mark.django_db(transaction=True)
def test_two_players_racing_for_an_open_challenge_start_one_game() -> None:
    alice = User.objects.create_user("alice", password="pw-alice-123")
    takers = [User.objects.create_user(f"p{i}", password="pw-123456") for i in range(2)]
    challenge = create_challenge(alice, is_open=True)
    barrier = threading.Barrier(2)
    results: list[str] = []

    def take(user: User) -> None:
        try:
            barrier.wait()
            accept_challenge(challenge.pk, user)
            results.append("accepted")
        except ServiceError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=take, args=(u,)) for u in takers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["ALREADY_ANSWERED", "accepted"]
    assert Game.objects.count() == 1


def test_the_player_who_took_an_open_challenge_still_sees_it(alice: User, charlie: User) -> None:
    challenge_id = post(alice, "challenges/", {"open": True}).json()["id"]
    post(charlie, f"challenges/{challenge_id}/accept/")
    listed = client_for(charlie).get("/api/v1/challenges/").json()["results"]
    assert [(c["id"], c["status"]) for c in listed] == [(challenge_id, "accepted")]


def test_e_mail_invitations_are_capped_per_day_even_when_cancelled(alice: User) -> None:
    for i in range(20):
        made = post(alice, "challenges/", {"email": f"x{i}@example.com"}).json()
        post(alice, f"challenges/{made['id']}/cancel/")
    response = post(alice, "challenges/", {"email": "one-more@example.com"})
    assert response.status_code == 409 and response.json()["error"] == "TOO_MANY_INVITATIONS"
