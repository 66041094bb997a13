"""Posting moves through the API: atomic lists, turn order, versions, retries, bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Game
from tests.stored import entries_of, position_of, replays

from .conftest import client_for, mover_and_other

pytestmark = pytest.mark.django_db


def url(game: Game, suffix: str = "") -> str:
    return f"/api/v1/games/{game.pk}/{suffix}"


def post_moves(user: User, game: Game, moves: Any, **headers: Any) -> Any:
    return client_for(user).post(url(game, "moves/"), {"moves": moves}, format="json", **headers)


def a_legal_move(game: Game) -> str:
    position = position_of(game)
    return str(position.legal_moves()[0])


def test_it_shows_the_game_from_the_callers_seat(game: Game, alice: User) -> None:
    response = client_for(alice).get(url(game))
    assert response.status_code == 200
    body = response.json()
    assert body["seat"] == "A"
    assert body["version"] == game.version
    assert body["position"]["A"]["hand"] == {"count": 35}
    assert "reserve" in body["position"]["B"] and "cards" not in body["position"]["B"]["waste"]
    assert body["seed"] is None and len(body["seed_hash"]) == 64
    assert response["ETag"] == f'"{game.version}"'


def test_it_lists_legal_moves_only_to_the_seat_to_move(game: Game, alice: User, bob: User) -> None:
    mover, other = mover_and_other(game, alice, bob)
    assert client_for(mover).get(url(game)).json()["legal_moves"]
    assert client_for(other).get(url(game)).json()["legal_moves"] == []


def test_it_hides_a_private_game_from_a_stranger(game: Game, charlie: User) -> None:
    Game.objects.filter(pk=game.pk).update(public=False)
    response = client_for(charlie).get(url(game))
    assert response.status_code == 404
    assert response.json()["error"] == "NOT_FOUND"
    assert post_moves(charlie, game, ["T"]).status_code == 404


def test_a_stranger_cannot_move_in_a_public_game(game: Game, charlie: User) -> None:
    assert client_for(charlie).get(url(game)).json()["seat"] is None  # a spectator
    assert post_moves(charlie, game, ["T"]).status_code == 404
    game.refresh_from_db()
    assert game.version == 1 and game.ply == 0


def test_moving_requires_authentication(game: Game) -> None:
    response = client_for(None).post(url(game, "moves/"), {"moves": ["T"]}, format="json")
    assert response.status_code in (401, 403)
    assert response.json()["error"] in ("NOT_AUTHENTICATED", "FORBIDDEN")
    Game.objects.filter(pk=game.pk).update(public=False)
    assert client_for(None).get(url(game)).status_code == 404


def test_it_applies_a_move_and_bumps_the_version(game: Game, alice: User, bob: User) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    move = a_legal_move(game)
    response = post_moves(mover, game, [move])
    assert response.status_code == 200, response.json()
    game.refresh_from_db()
    assert game.version == 2
    assert entries_of(game) == [move]


def test_it_refuses_a_move_out_of_turn(game: Game, alice: User, bob: User) -> None:
    _, other = mover_and_other(game, alice, bob)
    response = post_moves(other, game, ["T"])
    assert response.status_code == 409
    assert response.json()["error"] == "NOT_YOUR_TURN"
    game.refresh_from_db()
    assert game.version == 1 and game.ply == 0


def test_it_applies_a_list_all_or_none(game: Game, alice: User, bob: User) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    before = game.state
    response = post_moves(mover, game, [a_legal_move(game), "R-R"])
    assert response.status_code == 409
    body = response.json()
    assert body["index"] == 1 and body["move"] == "R-R"
    assert body["error"] in ("S4", "S1", "S2", "BAD_NOTATION")
    game.refresh_from_db()
    assert game.state == before and game.ply == 0


def test_it_refuses_a_stale_version(game: Game, alice: User, bob: User) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    response = client_for(mover).post(
        url(game, "moves/"), {"moves": ["T"], "expected_version": 7}, format="json"
    )
    assert response.status_code == 412
    assert response.json()["error"] == "STALE_VERSION"
    response = post_moves(mover, game, ["T"], HTTP_IF_MATCH='"9"')
    assert response.status_code == 412
    game.refresh_from_db()
    assert game.version == 1


def test_it_refuses_a_misspelt_version_instead_of_playing_unchecked(
    game: Game, alice: User, bob: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    response = client_for(mover).post(
        url(game, "moves/"),
        {"moves": [a_legal_move(game)], "expected_verison": 7},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "BAD_REQUEST",
        "message": "expected_verison: unknown field (this operation takes: expected_version, "
        "message, moves)",
    }
    game.refresh_from_db()
    assert game.ply == 0 and game.version == 1


def test_a_retried_post_with_the_same_idempotency_key_applies_once(
    game: Game, alice: User, bob: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    move = a_legal_move(game)
    first = post_moves(mover, game, [move], HTTP_IDEMPOTENCY_KEY="k-1")
    second = post_moves(mover, game, [move], HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == second.status_code == 200
    assert second["Idempotent-Replayed"] == "true"
    game.refresh_from_db()
    assert game.ply == 1 and game.version == 2


@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        json.dumps({"moves": "T"}),
        json.dumps({"moves": [1, 2]}),
        json.dumps({"moves": []}),
        json.dumps({"moves": ["x" * 5000]}),
        json.dumps({"moves": ["T"] * 10_000}),
        json.dumps([1, 2, 3]),
        json.dumps({"moves": ["ZZ-ZZ"]}),
        json.dumps({"moves": ["T"], "expected_version": "one"}),
        json.dumps({"moves": ["T"], "version": 1}),
        '{"moves": ' + "[" * 5000 + "]" * 5000 + "}",
        json.dumps({"moves": ["x" * 3_000_000]}),
    ],
)
def test_bad_input_is_a_clear_4xx_and_changes_nothing(
    game: Game, alice: User, bob: User, body: str
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    response = client_for(mover).post(url(game, "moves/"), body, content_type="application/json")
    assert 400 <= response.status_code < 500
    payload = response.json()
    assert set(payload) >= {"error", "message"} and payload["message"]
    game.refresh_from_db()
    assert game.ply == 0 and game.version == 1


def test_the_stored_game_rebuilds_from_its_seed_and_log(game: Game, alice: User, bob: User) -> None:
    for _ in range(30):
        game.refresh_from_db()
        if game.status != "playing":
            break
        mover, _ = mover_and_other(game, alice, bob)
        assert post_moves(mover, game, [a_legal_move(game)]).status_code == 200
    game.refresh_from_db()
    assert replays(game)


def test_queries_per_move_do_not_grow_with_the_game(
    game: Game, alice: User, bob: User, django_assert_max_num_queries: Any
) -> None:
    for _ in range(40):
        game.refresh_from_db()
        mover, _ = mover_and_other(game, alice, bob)
        # One INSERT for the move's events, one SELECT for the players' webhooks.
        with django_assert_max_num_queries(14):
            assert post_moves(mover, game, [a_legal_move(game)]).status_code == 200


def test_an_idempotency_key_reused_for_other_moves_is_refused(
    game: Game, alice: User, bob: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    legal = sorted(str(m) for m in position_of(game).legal_moves())
    assert post_moves(mover, game, [legal[0]], HTTP_IDEMPOTENCY_KEY="k-2").status_code == 200
    game.refresh_from_db()
    other = sorted(str(m) for m in position_of(game).legal_moves())[0]
    response = post_moves(mover, game, [other], HTTP_IDEMPOTENCY_KEY="k-2")
    assert response.status_code == 409 and response.json()["error"] == "IDEMPOTENCY_KEY_REUSED"
    game.refresh_from_db()
    assert game.ply == 1
