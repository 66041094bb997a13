"""Watching games through the API (docs/spectators.md): a public game's spectator,
signed in or not, reads the spectator's view and never a face-down card; a private
game is 404 to anyone but its players, as an id never used; the list of public games
being played, with its filters; and a spectator writes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.engine import view
from games.models import Game
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from games.play.store import engine_game
from tests.hidden_cards import assert_hides
from tests.stored import position_of

from .conftest import client_for, mover_and_other, play_turn
from .test_hidden_cards_api import a_random_turn

pytestmark = pytest.mark.django_db

#: Every read of a game, by path under /api/v1/games/{id}/.
READS = ["", "log/", "export/", "record/", "messages/"]


def get(user: User | None, game: Game | int, path: str = "", **params: Any) -> Any:
    game_id = game if isinstance(game, int) else game.pk
    return client_for(user).get(f"/api/v1/games/{game_id}/{path}", params)


def public_list(user: User | None = None, **params: Any) -> Any:
    return client_for(user).get("/api/v1/games/public/", params)


def listed(user: User | None = None, **params: Any) -> list[int]:
    response = public_list(user, **params)
    assert response.status_code == 200, response.json()
    return [g["id"] for g in response.json()["results"]]


# ------------------------------------------------------------------ private games


@pytest.mark.parametrize("over", [False, True])
def test_a_stranger_gets_404_on_every_read_of_a_private_game(
    alice: User, bob: User, charlie: User, over: bool
) -> None:
    game = start_game(alice, bob, seed=20261122, public=False)
    play_turn(game, alice, bob)
    if over:
        resign(game_id=game.pk, user=alice)
    unknown = get(charlie, 999999)
    assert unknown.status_code == 404
    for stranger in (charlie, None):
        for path in READS:
            response = get(stranger, game, path)
            # The very answer for an id that was never used: nothing tells it exists.
            assert response.status_code == 404, (stranger, path)
            assert response.json() == unknown.json(), path
    for player in (alice, bob):
        assert get(player, game).json()["public"] is False
    assert game.pk not in listed(charlie)


def test_a_private_challenge_makes_a_private_game(alice: User, bob: User, charlie: User) -> None:
    made = client_for(alice).post(
        "/api/v1/challenges/", {"opponent": "bob", "public": False}, format="json"
    )
    assert made.status_code == 201 and made.json()["public"] is False
    accepted = client_for(bob).post(f"/api/v1/challenges/{made.json()['id']}/accept/")
    assert accepted.json()["public"] is False
    game = Game.objects.get(pk=accepted.json()["game"])
    assert game.public is False
    assert get(charlie, game).status_code == 404
    summary = client_for(alice).get("/api/v1/games/").json()["results"][0]
    assert summary["id"] == game.pk and summary["public"] is False


def test_a_challenge_is_public_unless_it_says_so(alice: User, bob: User) -> None:
    made = client_for(alice).post("/api/v1/challenges/", {"opponent": "bob"}, format="json")
    assert made.json()["public"] is True
    listed_ = client_for(bob).get("/api/v1/challenges/").json()["results"]
    assert [c["public"] for c in listed_] == [True]
    bad = client_for(alice).post(
        "/api/v1/challenges/", {"opponent": "bob", "public": "no"}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["error"] == "BAD_REQUEST"


# ------------------------------------------------------------------ public games


@pytest.mark.parametrize("signed_in", [True, False])
def test_a_spectator_reads_a_public_game_from_the_spectators_seat(
    game: Game, alice: User, bob: User, charlie: User, signed_in: bool
) -> None:
    play_turn(game, alice, bob)
    spectator = charlie if signed_in else None
    response = get(spectator, game)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["seat"] is None and body["public"] is True
    assert body["legal_moves"] == [] and body["your_turn"] is False
    assert body["can_call_stop"] is False and body["seed"] is None
    assert body["position"] == view(position_of(game), None)
    assert body["players"] == {"A": "alice", "B": "bob"}
    assert body["last_turn"] == get(alice, game).json()["last_turn"]
    assert response["ETag"] == f'"{game.version}"'
    assert_hides(body, position_of(game))


def test_a_player_still_reads_their_own_seat(game: Game, alice: User, bob: User) -> None:
    mover, other = mover_and_other(game, alice, bob)
    assert get(mover, game).json()["seat"] == game.to_move
    assert get(mover, game).json()["legal_moves"]
    assert get(other, game).json()["seat"] != game.to_move


def test_a_spectator_reads_the_log_and_the_export(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    play_turn(game, alice, bob)
    play_turn(game, alice, bob)
    for spectator in (charlie, None):
        log = get(spectator, game, "log/", limit=100)
        assert log.status_code == 200
        assert log.json() == get(alice, game, "log/", limit=100).json()
        assert log.json()["count"] == game.ply
        export = get(spectator, game, "export/")
        assert export.status_code == 200 and export["Content-Type"].startswith("text/plain")
        assert f'[Game "{game.pk}"]' in export.content.decode()
        assert game.seed not in export.content.decode()


def test_a_spectator_reads_the_record_once_the_game_is_over(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    play_turn(game, alice, bob)
    for spectator in (charlie, None):
        playing = get(spectator, game, "record/")
        assert playing.status_code == 409 and playing.json()["error"] == "GAME_NOT_OVER"
    resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    for spectator in (charlie, None):
        record = get(spectator, game, "record/")
        assert record.status_code == 200 and record.json()["seed"] == game.seed
        over = get(spectator, game).json()
        assert over["seed"] == game.seed and over["status"] == game.status


def test_a_spectator_writes_nothing(game: Game, alice: User, bob: User, charlie: User) -> None:
    before = get(alice, game).json()
    client = client_for(charlie)
    base = f"/api/v1/games/{game.pk}/"
    for path, body in (
        ("moves/", {"moves": ["T"]}),
        ("resign/", {}),
        ("stalemate/offer/", {}),
        ("stalemate/answer/", {"accept": True}),
        ("stop/", {"move": 1}),
        ("messages/", {"text": "hello"}),
    ):
        response = client.post(base + path, body, format="json")
        assert response.status_code == 404, path
        assert response.json()["error"] == "NOT_FOUND", path
        anonymous = client_for(None).post(base + path, body, format="json")
        assert anonymous.status_code in (401, 403), path
    answer = client.put(base + "play-by-mail/", {"play_by_mail": True}, format="json")
    assert answer.status_code == 404
    assert get(alice, game).json() == before


# ------------------------------------------------------------------ the list


def test_the_list_holds_the_public_games_being_played(
    alice: User, bob: User, charlie: User
) -> None:
    playing = start_game(alice, bob, seed=1)
    private = start_game(alice, charlie, seed=2, public=False)
    over = start_game(bob, charlie, seed=3)
    resign(game_id=over.pk, user=bob)
    newest = start_game(charlie, alice, seed=4)
    for viewer in (None, charlie):
        assert listed(viewer) == [newest.pk, playing.pk]
    assert private.pk not in listed(alice)


def test_the_list_is_newest_activity_first(alice: User, bob: User, charlie: User) -> None:
    older = start_game(alice, bob, seed=1)
    newer = start_game(bob, charlie, seed=2)
    assert listed() == [newer.pk, older.pk]
    play_turn(older, alice, bob)
    assert listed() == [older.pk, newer.pk]


def test_the_list_is_filtered_by_rules_and_by_player(alice: User, bob: User, charlie: User) -> None:
    pagat = start_game(alice, bob, seed=1)
    foster = start_game(bob, charlie, seed=2, rules="foster")
    assert listed(rules="foster") == [foster.pk]
    assert listed(rules="pagat") == [pagat.pk]
    assert listed(rules="one-pack") == []
    assert listed(player="ALICE") == [pagat.pk]
    assert set(listed(player="bob")) == {pagat.pk, foster.pk}
    assert listed(player="bob", rules="foster") == [foster.pk]
    assert listed(player="nobody") == []
    assert listed(player="al") == []  # a username, not a part of one
    assert listed(player="a\x00lice") == [pagat.pk]


@pytest.mark.parametrize("rules", ["chess", "", "PAGAT"])
def test_an_unknown_rules_filter_is_a_bad_request_naming_the_presets(
    alice: User, rules: str
) -> None:
    response = public_list(alice, rules=rules)
    assert response.status_code == 400 and response.json()["error"] == "BAD_REQUEST"
    assert "pagat" in response.json()["message"] and "foster" in response.json()["message"]


def test_the_list_gives_summaries_from_the_callers_seat(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    (spectated,) = public_list(charlie).json()["results"]
    assert spectated["seat"] is None and spectated["your_turn"] is False
    assert spectated["public"] is True and "position" not in spectated
    mover, _ = mover_and_other(game, alice, bob)
    (mine,) = public_list(mover).json()["results"]
    assert mine["seat"] == game.to_move and mine["your_turn"] is True


def test_the_list_is_paginated(alice: User, bob: User) -> None:
    games = [start_game(alice, bob, seed=n).pk for n in range(3)]
    page = public_list(None, limit=2).json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert {g["id"] for g in page["results"]} | set(listed(limit=2, offset=2)) == set(games)


# ------------------------------------------------------------------ hidden cards


def spectator_outputs(spectator: User, game: Game) -> list[Any]:
    """What a spectator reads of the game after a turn: the game as anyone reads it
    (signed in or not), the newest page of its log, and the export's words."""
    body = get(spectator, game).json()
    assert body["seat"] is None and body["legal_moves"] == []
    assert get(None, game).json() == body
    log = get(spectator, game, "log/", limit=100, offset=max(0, body["ply"] - 100))
    assert log.status_code == 200 and log.json()["count"] == body["ply"]
    return [body, log.json(), get(spectator, game, "export/").content.decode().split()]


@pytest.mark.parametrize("seed", [3, 11])
def test_a_spectator_never_reads_a_face_down_card_in_a_whole_game(
    seed: int, alice: User, bob: User, charlie: User
) -> None:
    game = start_game(alice, bob, seed=seed)
    players = {"A": alice, "B": bob}
    rng = random.Random(seed)
    turns = 0
    while True:
        game.refresh_from_db()
        table = position_of(game)
        for output in spectator_outputs(charlie, game):
            assert_hides(output, table)
        if table.is_over:
            break
        play_moves(game_id=game.pk, user=players[game.to_move], moves=a_random_turn(table, rng))
        turns += 1
        assert turns < 400, "the game should end within 400 turns"
    # Once it is over the deal is revealed to spectators as to players.
    assert get(charlie, game, "record/").json()["seed"] == game.seed
    assert engine_game(game).is_over
