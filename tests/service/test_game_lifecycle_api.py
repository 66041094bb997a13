"""Lists, the move log, export, resignation, stalemate offers and matches through the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.engine import from_document, seed_commitment
from games.lobby.matches import start_match
from games.models import Game, Match
from tests.stored import position_of

from .conftest import client_for, mover_and_other

pytestmark = pytest.mark.django_db


def api(user: User, method: str, path: str, data: Any = None) -> Any:
    client = client_for(user)
    return getattr(client, method)(f"/api/v1/{path}", data, format="json")


def play_one_turn(game: Game, alice: User, bob: User) -> None:
    """The seat to move turns and discards (or plays what the rules force first)."""
    game.refresh_from_db()
    mover, _ = mover_and_other(game, alice, bob)
    position = position_of(game)
    moves: list[str] = []
    while position.turns == position_of(game).turns and not position.is_over:
        legal = [str(m) for m in position.legal_moves()]
        move = next((m for m in ("C-W", "E", "T") if m in legal), legal[0])
        position.play(move)
        moves.append(move)
    response = api(mover, "post", f"games/{game.pk}/moves/", {"moves": moves})
    assert response.status_code == 200, response.json()


def test_it_lists_my_games_with_filters(game: Game, alice: User, bob: User, charlie: User) -> None:
    mover, other = mover_and_other(game, alice, bob)
    assert [g["id"] for g in api(mover, "get", "games/?filter=my_turn").json()["results"]] == [
        game.pk
    ]
    assert api(other, "get", "games/?filter=my_turn").json()["results"] == []
    assert api(other, "get", "games/?filter=active").json()["count"] == 1
    assert api(charlie, "get", "games/").json()["count"] == 0
    assert api(mover, "get", "games/?filter=nonsense").status_code == 400


def test_it_gives_the_move_log_and_the_last_turn(game: Game, alice: User, bob: User) -> None:
    play_one_turn(game, alice, bob)
    log = api(alice, "get", f"games/{game.pk}/log/").json()["results"]
    assert log and log[-1]["move"] in ("C-W", "E") and {e["turn"] for e in log} == {0}
    state = api(alice, "get", f"games/{game.pk}/").json()
    assert state["last_turn"]["moves"] == [e["move"] for e in log]


def test_it_refuses_a_private_games_log_to_a_stranger(game: Game, charlie: User) -> None:
    Game.objects.filter(pk=game.pk).update(public=False)
    assert api(charlie, "get", f"games/{game.pk}/log/").status_code == 404
    assert api(charlie, "get", f"games/{game.pk}/export/").status_code == 404


def test_resigning_ends_the_game_with_the_forfeit_score(game: Game, alice: User, bob: User) -> None:
    response = api(alice, "post", f"games/{game.pk}/resign/", {})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "won"
    position = position_of(game)
    assert position.winner == 1
    assert position.score is not None and position.score[1] == 30 + 20 + position.seats[0].count
    # The seed is revealed and matches the commitment shown from the deal on.
    assert body["seed"] and seed_commitment(body["seed"]) == body["seed_hash"]
    assert api(bob, "post", f"games/{game.pk}/resign/", {}).json()["error"] == "GAME_OVER"


def test_a_stalemate_offer_can_be_accepted(game: Game, alice: User, bob: User) -> None:
    assert api(alice, "post", f"games/{game.pk}/stalemate/offer/").status_code == 200
    assert api(alice, "post", f"games/{game.pk}/stalemate/offer/").json()["error"] == (
        "ALREADY_OFFERED"
    )
    assert api(alice, "post", f"games/{game.pk}/stalemate/answer/", {"accept": True}).json()[
        "error"
    ] == ("NO_OFFER")
    body = api(bob, "post", f"games/{game.pk}/stalemate/answer/", {"accept": True}).json()
    assert body["status"] == "stalemate"
    game.refresh_from_db()
    assert game.ending == "agreed"


def test_a_declined_offer_leaves_the_game_going(game: Game, alice: User, bob: User) -> None:
    api(bob, "post", f"games/{game.pk}/stalemate/offer/")
    body = api(alice, "post", f"games/{game.pk}/stalemate/answer/", {"accept": False}).json()
    assert body["status"] == "playing" and body["stalemate_offer"] is None


def test_playing_on_declines_the_opponents_offer(game: Game, alice: User, bob: User) -> None:
    _, other = mover_and_other(game, alice, bob)
    api(other, "post", f"games/{game.pk}/stalemate/offer/")
    play_one_turn(game, alice, bob)
    game.refresh_from_db()
    assert game.stalemate_offer == ""


def test_the_export_is_in_the_notation_and_hides_the_seed_until_the_end(
    game: Game, alice: User, bob: User
) -> None:
    play_one_turn(game, alice, bob)
    text = client_for(alice).get(f"/api/v1/games/{game.pk}/export/").content.decode()
    assert '[Rules "pagat"]' in text and "[Seed " not in text
    assert "\n1 " in text
    api(bob, "post", f"games/{game.pk}/resign/", {})
    text = client_for(alice).get(f"/api/v1/games/{game.pk}/export/").content.decode()
    assert f'[Seed "{Game.objects.get(pk=game.pk).seed}"]' in text
    assert text.rstrip().endswith("B resigns")


def test_a_match_deals_the_next_game_until_the_target(alice: User, bob: User) -> None:
    match = start_match(alice, bob, target=150)  # a resignation at the deal scores 111
    first = match.games.get()
    api(alice, "post", f"games/{first.pk}/resign/", {})
    match.refresh_from_db()
    assert match.totals[1] == 111 and not match.winner
    assert match.games.count() == 2
    second = match.games.exclude(pk=first.pk).get()
    api(alice, "post", f"games/{second.pk}/resign/", {})
    match = Match.objects.get(pk=match.pk)
    assert match.winner == "B" and match.totals[1] == 222 and match.games.count() == 2


def test_the_record_reveals_the_deal_only_after_the_game(
    game: Game, alice: User, bob: User
) -> None:
    play_one_turn(game, alice, bob)
    early = api(alice, "get", f"games/{game.pk}/record/")
    assert early.status_code == 409 and early.json()["error"] == "GAME_NOT_OVER"
    api(bob, "post", f"games/{game.pk}/resign/", {})
    record = api(alice, "get", f"games/{game.pk}/record/").json()
    assert seed_commitment(record["seed"]) == record["seed_hash"]
    replayed = from_document(record["start"])
    for entry in record["moves"]:
        if entry["move"] != "resigns":
            replayed.play(entry["move"])
    final = from_document(record["final"])
    assert replayed.foundations == final.foundations and replayed.houses == final.houses
    assert record["winner"] == "A" and record["score"]["A"] > 50
