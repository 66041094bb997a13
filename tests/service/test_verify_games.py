"""Every stored game rebuilds from its deal seed and its move log."""

from __future__ import annotations

import io
import random

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games.models import Game
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from tests.stored import position_of

pytestmark = pytest.mark.django_db


def play_random_turns(game: Game, turns: int, rng: random.Random) -> None:
    for _ in range(turns):
        game.refresh_from_db()
        if game.status != "playing":
            return
        position = position_of(game)
        user = game.user_at(0) if game.to_move == "A" else game.user_at(1)
        moves = []
        start = position.turns
        while position.turns == start and not position.is_over:
            move = rng.choice(position.legal_moves())
            position.push(move)
            moves.append(str(move))
        play_moves(game_id=game.pk, user=user, moves=moves)


def test_it_rebuilds_every_stored_game(alice: User, bob: User) -> None:
    rng = random.Random(8)
    games = [start_game(alice, bob, seed=s) for s in (1, 2, 3, 4)]
    for game, turns in zip(games, (0, 3, 12, 40), strict=True):
        play_random_turns(game, turns, rng)
    resign(game_id=games[1].pk, user=bob)
    out = io.StringIO()
    call_command("verify_games", stdout=out)
    assert "4 games checked, 0 differ" in out.getvalue()


def test_it_reports_a_snapshot_that_differs_from_its_log(alice: User, bob: User) -> None:
    game = start_game(alice, bob, seed=5)
    play_random_turns(game, 2, random.Random(1))
    game.refresh_from_db()
    assert game.state is not None
    tampered = dict(game.state)
    tampered["position"] = {
        **tampered["position"],
        "houses": [list(reversed(p)) for p in tampered["position"]["houses"]][::-1],
    }
    Game.objects.filter(pk=game.pk).update(state=tampered)
    err = io.StringIO()
    with pytest.raises(CommandError, match=str(game.pk)):
        call_command("verify_games", stdout=io.StringIO(), stderr=err)
    assert f"game {game.pk}" in err.getvalue()
