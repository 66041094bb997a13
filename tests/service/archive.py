"""Finished games at chosen moments, for the open database's tests."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User

from games.models import Game, Seat
from games.play.dealing import start_game
from games.play.services import resign


def finished(
    loser: User,
    winner: User,
    at: datetime,
    *,
    public: bool = True,
    rules: str = "pagat",
    seed: int = 7,
) -> Game:
    """A game ``loser`` resigns, as if it had ended ``at``: the game's end and its
    seats' copies of it moved there."""
    game = start_game(loser, winner, public=public, rules=rules, seed=seed)
    resign(game_id=game.pk, user=loser)
    Game.objects.filter(pk=game.pk).update(finished_at=at)
    Seat.objects.filter(game=game).update(finished_at=at)
    game.refresh_from_db()
    return game
