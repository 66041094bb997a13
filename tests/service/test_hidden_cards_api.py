"""Hidden cards never leave the server: whole games played through the API, every
response read by both players and a stranger, checked against the table. (A public
game's spectator: test_spectators_api.py.)"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.engine import Position
from games.models import Game
from games.play.dealing import start_game
from tests.hidden_cards import assert_hides
from tests.stored import position_of

from .conftest import client_for

pytestmark = pytest.mark.django_db


def outputs_for(user: User, game: Game) -> list[Any]:
    """Everything a participant can fetch about the game."""
    client = client_for(user)
    base = f"/api/v1/games/{game.pk}/"
    return [
        client.get(base).json(),
        client.get(base + "log/").json(),
        client.get(base + "export/").content.decode(),
        client.get("/api/v1/games/").json(),
    ]


def a_random_turn(position: Position, rng: random.Random) -> list[str]:
    """A turn of random legal moves that ends within a few dozen moves."""
    turns = position.turns
    moves: list[str] = []
    while position.turns == turns and not position.is_over:
        legal = [str(m) for m in position.legal_moves()]
        enders = [m for m in legal if m in ("C-W", "E", "T")]
        move = rng.choice(enders if enders and len(moves) > 30 else legal)
        position.play(move)
        moves.append(move)
    return moves


def play_checking_every_response(
    game: Game, players: dict[str, User], rng: random.Random, turns: int, stranger: User
) -> Position:
    """Play random turns through the API; before each, every output for both players
    hides what is face down, and the stranger gets nothing of a private game, and of a
    public one only the spectator's view, which hides as much. Returns the last table."""
    table = position_of(game)
    for _ in range(turns):
        game.refresh_from_db()
        table = position_of(game)
        for user in players.values():
            for output in outputs_for(user, game):
                # The export is text: check its words.
                assert_hides(output.split() if isinstance(output, str) else output, table)
        seen = client_for(stranger).get(f"/api/v1/games/{game.pk}/")
        if game.public:
            assert seen.status_code == 200 and seen.json()["seat"] is None
            assert seen.json()["legal_moves"] == []
            assert_hides(seen.json(), table)
        else:
            assert seen.status_code == 404 and set(seen.json()) == {"error", "message"}
        if table.is_over:
            break
        moves = a_random_turn(position_of(game), rng)
        response = client_for(players[game.to_move]).post(
            f"/api/v1/games/{game.pk}/moves/", {"moves": moves}, format="json"
        )
        assert response.status_code == 200, response.json()
        assert_hides(response.json(), position_of(game))
    return table


@pytest.mark.parametrize("seed", [3, 11])
def test_no_response_shows_a_face_down_card(
    seed: int, alice: User, bob: User, charlie: User
) -> None:
    game = start_game(alice, bob, seed=seed, public=False)
    table = play_checking_every_response(
        game, {"A": alice, "B": bob}, random.Random(seed), 400, charlie
    )
    assert table.is_over, "the game should end within 400 turns"
