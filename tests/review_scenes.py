"""A finished classic game whose review marks a compulsory move missed and a Stop!
chance let pass (tests of the review's page, API and export)."""

from __future__ import annotations

from django.contrib.auth.models import User

from games.models import Game, StopMode
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from games.review.services import review_game
from tests.service.conftest import play_turn


def reviewed_game(alice: User, bob: User) -> Game:
    """Seed 2: the first turn, ``T C-W``, leaves the turned card off its foundation (S2);
    the next seat plays a turn without calling Stop!, then the first resigns. Reviewed
    (at the end, or here where on-commit work does not run)."""
    game = start_game(alice, bob, seed=2, stop_mode=StopMode.CLASSIC)
    first = alice if game.to_move == "A" else bob
    play_moves(game_id=game.pk, user=first, moves=["T", "C-W"])
    game.refresh_from_db()
    play_turn(game, alice, bob)
    resign(game_id=game.pk, user=first)
    review_game(game.pk)
    game.refresh_from_db()
    return game
