"""Every write of the API takes ``If-Match`` and ``Idempotency-Key`` (games/api/writes.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Challenge, Game, IdempotentRequest

from .conftest import client_for

pytestmark = pytest.mark.django_db


def post(user: User, path: str, body: dict[str, Any] | None = None, **headers: Any) -> Any:
    return client_for(user).post(f"/api/v1/{path}", body or {}, format="json", **headers)


def test_a_retried_resignation_answers_the_first_answer(game: Game, alice: User) -> None:
    first = post(alice, f"games/{game.pk}/resign/", HTTP_IDEMPOTENCY_KEY="r-1")
    again = post(alice, f"games/{game.pk}/resign/", HTTP_IDEMPOTENCY_KEY="r-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert again["ETag"] == first["ETag"]
    # Without the key, the retry is a new request, refused: the game is over.
    assert post(alice, f"games/{game.pk}/resign/").status_code == 409


def test_a_retried_challenge_makes_one_challenge(alice: User, bob: User) -> None:
    answers = [
        post(alice, "challenges/", {"opponent": "bob"}, HTTP_IDEMPOTENCY_KEY="c-1")
        for _ in range(3)
    ]
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["id"] for a in answers}) == 1
    assert Challenge.objects.count() == 1


def test_a_retried_acceptance_starts_one_game(alice: User, bob: User) -> None:
    challenge = post(alice, "challenges/", {"opponent": "bob"}).json()
    path = f"challenges/{challenge['id']}/accept/"
    first = post(bob, path, HTTP_IDEMPOTENCY_KEY="a-1")
    again = post(bob, path, HTTP_IDEMPOTENCY_KEY="a-1")
    assert first.status_code == again.status_code == 200
    assert first.json()["game"] == again.json()["game"] and Game.objects.count() == 1


def test_a_key_used_for_another_request_is_refused(game: Game, alice: User) -> None:
    assert (
        post(alice, f"games/{game.pk}/stalemate/offer/", HTTP_IDEMPOTENCY_KEY="k").status_code
        == 200
    )
    response = post(alice, f"games/{game.pk}/resign/", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 409 and response.json()["error"] == "IDEMPOTENCY_KEY_REUSED"
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_keys_belong_to_their_user(game: Game, alice: User, bob: User) -> None:
    assert (
        post(alice, f"games/{game.pk}/stalemate/offer/", HTTP_IDEMPOTENCY_KEY="same").status_code
        == 200
    )
    answer = post(
        bob, f"games/{game.pk}/stalemate/answer/", {"accept": False}, HTTP_IDEMPOTENCY_KEY="same"
    )
    assert answer.status_code == 200 and "Idempotent-Replayed" not in answer


def test_a_refused_write_stores_nothing_and_its_retry_runs_again(game: Game, alice: User) -> None:
    stale = post(
        alice, f"games/{game.pk}/stalemate/offer/", HTTP_IF_MATCH='"99"', HTTP_IDEMPOTENCY_KEY="s"
    )
    assert stale.status_code == 412 and stale.json()["error"] == "STALE_VERSION"
    assert not IdempotentRequest.objects.exists()
    fresh = post(
        alice,
        f"games/{game.pk}/stalemate/offer/",
        HTTP_IF_MATCH=f'"{game.version}"',
        HTTP_IDEMPOTENCY_KEY="s",
    )
    assert fresh.status_code == 200 and "Idempotent-Replayed" not in fresh


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("resign/", {}),
        ("stalemate/offer/", {}),
        ("moves/", {"moves": ["T"]}),
        ("stop/", {"move": 1}),
    ],
)
def test_every_game_write_refuses_a_stale_if_match(
    game: Game, alice: User, path: str, body: dict[str, Any]
) -> None:
    response = post(alice, f"games/{game.pk}/{path}", body, HTTP_IF_MATCH=f'"{game.version + 1}"')
    assert response.status_code == 412 and response.json()["error"] == "STALE_VERSION"


def test_a_stale_if_match_refuses_a_stalemate_answer(game: Game, alice: User, bob: User) -> None:
    post(alice, f"games/{game.pk}/stalemate/offer/")
    response = post(
        bob, f"games/{game.pk}/stalemate/answer/", {"accept": True}, HTTP_IF_MATCH='"1"'
    )
    assert response.status_code == 412
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_an_overlong_key_is_a_clear_400(game: Game, alice: User) -> None:
    response = post(alice, f"games/{game.pk}/resign/", HTTP_IDEMPOTENCY_KEY="k" * 129)
    assert response.status_code == 400 and "Idempotency-Key" in response.json()["message"]
