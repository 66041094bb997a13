"""Keeping unwanted players away through the API (docs/conduct.md): blocks
(``/api/v1/me/blocks/``), reports (``POST /api/v1/reports/``) and who may challenge
me (``challenges_from`` in ``/api/v1/me/``)."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User

from accounts.conduct import MAX_DETAILS, MAX_REPORTS_PER_DAY
from accounts.models import Block, Report
from games.lobby.challenges import create_challenge
from games.models import Challenge, Game
from games.play.services import resign, write_message

from .conftest import client_for

pytestmark = pytest.mark.django_db


def api(user: User | None, method: str, path: str, data: Any = None) -> Any:
    return getattr(client_for(user), method)(f"/api/v1/{path}", data, format="json")


def blocked_names(user: User) -> list[str]:
    response = api(user, "get", "me/blocks/")
    assert response.status_code == 200
    return [row["username"] for row in response.json()["results"]]


def challenge(by: User, **body: Any) -> Any:
    return api(by, "post", "challenges/", body)


def listed_challenges(user: User) -> set[int]:
    return {c["id"] for c in api(user, "get", "challenges/").json()["results"]}


# ------------------------------------------------------------------ blocks


def test_a_player_blocks_lists_and_unblocks(alice: User, bob: User, charlie: User) -> None:
    response = api(alice, "post", "me/blocks/", {"username": "Bob"})  # any case
    assert response.status_code == 201 and response.json() == {"username": "bob"}
    assert api(alice, "post", "me/blocks/", {"username": "charlie"}).status_code == 201
    assert blocked_names(alice) == ["bob", "charlie"]
    page = api(alice, "get", "me/blocks/?limit=1").json()
    assert page["count"] == 2 and page["results"] == [{"username": "bob"}]
    assert api(alice, "delete", "me/blocks/bob/").status_code == 204
    assert blocked_names(alice) == ["charlie"]
    # Lifting a block that is not there is no error.
    assert api(alice, "delete", "me/blocks/bob/").status_code == 204
    assert api(alice, "delete", "me/blocks/nobody-at-all/").status_code == 204


def test_blocking_twice_is_one_block(alice: User, bob: User) -> None:
    for _ in range(2):
        assert api(alice, "post", "me/blocks/", {"username": "bob"}).status_code == 201
    assert Block.objects.filter(blocker=alice, blocked=bob).count() == 1
    assert blocked_names(alice) == ["bob"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"username": "alice"}, 400, "SAME_PLAYER"),
        ({"username": "nobody"}, 404, "NO_SUCH_PLAYER"),
        ({"username": " bob"}, 404, "NO_SUCH_PLAYER"),
        ({"username": ""}, 400, "BAD_REQUEST"),
        ({"username": 7}, 400, "BAD_REQUEST"),
        ({}, 400, "BAD_REQUEST"),
        ({"username": "bob", "reason": "rude"}, 400, "BAD_REQUEST"),
    ],
)
def test_a_block_that_cannot_be_is_refused(
    alice: User, bob: User, body: dict[str, Any], status: int, code: str
) -> None:
    response = api(alice, "post", "me/blocks/", body)
    assert response.status_code == status and response.json()["error"] == code
    assert not Block.objects.exists()


def test_blocking_is_private(alice: User, bob: User) -> None:
    api(alice, "post", "me/blocks/", {"username": "bob"})
    assert blocked_names(bob) == []
    assert api(None, "get", "me/blocks/").status_code in (401, 403)
    assert api(None, "post", "me/blocks/", {"username": "bob"}).status_code in (401, 403)


def test_a_blocked_player_cannot_challenge_the_blocker(alice: User, bob: User) -> None:
    api(alice, "post", "me/blocks/", {"username": "bob"})
    response = challenge(bob, opponent="alice")
    assert response.status_code == 403
    refusal = response.json()
    assert refusal["error"] == "NOT_ACCEPTING_CHALLENGES" and refusal["player"] == "alice"
    assert not Challenge.objects.exists()
    # The very words a "nobody" setting gives: the block reads as a preference.
    api(alice, "delete", "me/blocks/bob/")
    api(alice, "patch", "me/", {"challenges_from": "nobody"})
    assert challenge(bob, opponent="alice").json() == refusal


def test_a_blocked_player_cannot_invite_the_blockers_address(alice: User, bob: User) -> None:
    EmailAddress.objects.create(user=alice, email=alice.email, verified=True, primary=True)
    api(alice, "post", "me/blocks/", {"username": "bob"})
    response = challenge(bob, email=alice.email)
    assert response.status_code == 403
    assert response.json()["error"] == "NOT_ACCEPTING_CHALLENGES"
    assert response.json()["player"] == alice.email
    assert not Challenge.objects.exists()


def test_open_challenges_are_hidden_both_ways(alice: User, bob: User, charlie: User) -> None:
    bobs = challenge(bob, open=True).json()["id"]
    alices = challenge(alice, open=True).json()["id"]
    assert {bobs, alices} <= listed_challenges(charlie)
    api(alice, "post", "me/blocks/", {"username": "bob"})
    assert bobs not in listed_challenges(alice)
    assert alices not in listed_challenges(bob)
    for user, other in ((alice, bobs), (bob, alices)):
        accepted = api(user, "post", f"challenges/{other}/accept/", {})
        assert accepted.status_code == 404 and accepted.json()["error"] == "NOT_FOUND"
    assert {bobs, alices} <= listed_challenges(charlie)
    assert not Game.objects.exists()


def test_the_blockers_pending_challenge_to_the_blocked_is_withdrawn(alice: User, bob: User) -> None:
    sent = challenge(alice, opponent="bob").json()["id"]
    api(alice, "post", "me/blocks/", {"username": "bob"})
    (seen,) = (c for c in api(bob, "get", "challenges/").json()["results"] if c["id"] == sent)
    assert seen["status"] == "cancelled"


# ------------------------------------------------------------------ reports


def test_a_player_reports_a_message_of_a_game_they_play(game: Game, alice: User, bob: User) -> None:
    message = write_message(game_id=game.pk, user=bob, text="you play like a robot")
    response = api(alice, "post", "reports/", {"message": message.pk, "reason": "abuse"})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == {"id", "reason", "created_at"} and body["reason"] == "abuse"
    report = Report.objects.get(pk=body["id"])
    assert (report.reporter, report.reported, report.game_id) == (alice, bob, game.pk)
    assert report.message_text == "you play like a robot"
    # A second report of it answers the first.
    again = api(alice, "post", "reports/", {"message": message.pk, "reason": "spam"})
    assert again.status_code == 201 and again.json() == body
    assert Report.objects.count() == 1


def test_a_player_cannot_report_their_own_message(game: Game, alice: User) -> None:
    message = write_message(game_id=game.pk, user=alice, text="mine")
    response = api(alice, "post", "reports/", {"message": message.pk, "reason": "spam"})
    assert response.status_code == 400 and response.json()["error"] == "SAME_PLAYER"
    assert not Report.objects.exists()


def test_a_message_one_may_not_read_is_404_to_report(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    message = write_message(game_id=game.pk, user=bob, text="secret")

    def report_it(user: User) -> Any:
        return api(user, "post", "reports/", {"message": message.pk, "reason": "abuse"})

    # A spectator reads no message while the game is played.
    assert report_it(charlie).status_code == 404
    # A blocker reads nothing the blocked player wrote.
    api(alice, "post", "me/blocks/", {"username": "bob"})
    assert report_it(alice).status_code == 404
    # Nor does anyone read the messages of a private game but its players.
    resign(game_id=game.pk, user=alice)
    Game.objects.filter(pk=game.pk).update(public=False)
    assert report_it(charlie).status_code == 404
    unknown = api(alice, "post", "reports/", {"message": 987654, "reason": "abuse"})
    for refused in (report_it(charlie), unknown):
        assert refused.json() == {"error": "NOT_FOUND", "message": "no such message"}
    assert not Report.objects.exists()
    # Once a public game is over, its spectators read its messages, and may report them.
    Game.objects.filter(pk=game.pk).update(public=True)
    assert report_it(charlie).status_code == 201


def test_a_player_reports_a_player(alice: User, bob: User) -> None:
    details = "Plays the first legal move, instantly, every time."
    response = api(
        alice, "post", "reports/", {"player": "Bob", "reason": "cheating", "details": details}
    )
    assert response.status_code == 201, response.json()
    report = Report.objects.get(pk=response.json()["id"])
    assert (report.reported, report.reason, report.details) == (bob, "cheating", details)
    assert report.message_id is None


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"player": "alice", "reason": "spam"}, 400, "SAME_PLAYER"),
        ({"player": "nobody", "reason": "spam"}, 404, "NO_SUCH_PLAYER"),
        ({"player": "bob", "message": 1, "reason": "spam"}, 400, "BAD_REQUEST"),
        ({"reason": "spam"}, 400, "BAD_REQUEST"),
        ({"player": "bob", "reason": "rude"}, 400, "BAD_REQUEST"),
        ({"player": "bob"}, 400, "BAD_REQUEST"),
        ({"player": "bob", "reason": "spam", "details": "x" * (MAX_DETAILS + 1)}, 400, None),
        ({"message": 0, "reason": "spam"}, 400, "BAD_REQUEST"),
        ({"message": "1", "reason": "spam"}, 400, "BAD_REQUEST"),
        ({"player": "bob", "reason": "spam", "game": 1}, 400, "BAD_REQUEST"),
    ],
)
def test_a_report_that_cannot_be_is_refused(
    alice: User, bob: User, body: dict[str, Any], status: int, code: str | None
) -> None:
    response = api(alice, "post", "reports/", body)
    assert response.status_code == status
    assert response.json()["error"] == (code or "BAD_REQUEST")
    assert not Report.objects.exists()


def test_at_most_so_many_reports_a_day(alice: User, bob: User) -> None:
    for _ in range(MAX_REPORTS_PER_DAY):
        assert (
            api(alice, "post", "reports/", {"player": "bob", "reason": "spam"}).status_code == 201
        )
    refused = api(alice, "post", "reports/", {"player": "bob", "reason": "spam"})
    assert refused.status_code == 429 and refused.json()["error"] == "TOO_MANY_REPORTS"


def test_reporting_needs_a_signed_in_player(bob: User) -> None:
    assert api(None, "post", "reports/", {"player": "bob", "reason": "spam"}).status_code in (
        401,
        403,
    )
    assert not Report.objects.exists()


# ------------------------------------------------------------------ who may challenge me


def test_challenges_from_is_read_and_changed_in_my_account(alice: User) -> None:
    assert api(alice, "get", "me/").json()["challenges_from"] == "anyone"
    for value in ("played", "nobody", "anyone"):
        response = api(alice, "patch", "me/", {"challenges_from": value})
        assert response.status_code == 200 and response.json()["challenges_from"] == value
        assert api(alice, "get", "me/").json()["challenges_from"] == value


@pytest.mark.parametrize("value", ["friends", "", None, 1])
def test_an_unknown_challenges_from_is_refused(alice: User, value: Any) -> None:
    response = api(alice, "patch", "me/", {"challenges_from": value})
    assert response.status_code == 400 and response.json()["error"] == "BAD_REQUEST"
    assert api(alice, "get", "me/").json()["challenges_from"] == "anyone"


def test_nobody_takes_open_challenges_only(alice: User, bob: User) -> None:
    api(alice, "patch", "me/", {"challenges_from": "nobody"})
    refused = challenge(bob, opponent="alice")
    assert refused.status_code == 403
    assert refused.json()["error"] == "NOT_ACCEPTING_CHALLENGES"
    assert refused.json()["player"] == "alice"
    opened = challenge(bob, open=True).json()["id"]
    accepted = api(alice, "post", f"challenges/{opened}/accept/", {})
    assert accepted.status_code == 200 and accepted.json()["game"] is not None


def test_played_takes_challenges_from_players_met_at_a_game(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    api(alice, "patch", "me/", {"challenges_from": "played"})
    assert challenge(bob, opponent="alice").status_code == 201  # they play the fixture game
    refused = challenge(charlie, opponent="alice")
    assert refused.status_code == 403 and refused.json()["error"] == "NOT_ACCEPTING_CHALLENGES"
    # Her own challenges are hers to send.
    assert challenge(alice, opponent="charlie").status_code == 201


def test_the_computer_players_take_every_challenge(alice: User) -> None:
    response = challenge(alice, opponent="computer-easy")
    assert response.status_code == 201 and response.json()["status"] == "accepted"


def test_the_setting_does_not_touch_a_challenge_already_made(alice: User, bob: User) -> None:
    made = create_challenge(bob, opponent="alice")
    api(alice, "patch", "me/", {"challenges_from": "nobody"})
    accepted = api(alice, "post", f"challenges/{made.pk}/accept/", {})
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
