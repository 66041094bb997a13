"""Reads: what a participant may know of a game. Always built from a per-seat view."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from games.engine import from_document, view

from .models import Game, MoveRecord
from .services import GameError


def games_of(user: User) -> QuerySet[Game]:
    return Game.objects.filter(Q(player_a=user) | Q(player_b=user)).select_related(
        "player_a", "player_b"
    )


def game_for(user: User | AnonymousUser, game_id: int) -> Game:
    """The game if ``user`` plays in it; strangers get 404, as for a game that does not exist."""
    game = Game.objects.select_related("player_a", "player_b").filter(pk=game_id).first()
    if game is None or game.seat_of(user.pk) is None:
        raise GameError(404, "NOT_FOUND", "no such game")
    return game


def game_state(game: Game, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` sees it: the view, its legal moves, version, deadline, last turn."""
    position = from_document(game.position)
    finished = position.is_over
    last_turn = list(
        MoveRecord.objects.filter(
            game=game, index__gte=game.last_turn_start, index__lt=game.turn_start
        ).values_list("seat", "text")
    )
    my_turn = seat is not None and not finished and position.to_move == seat
    return {
        "id": game.pk,
        "version": game.version,
        "rules": game.rules,
        "players": {"A": game.player_a.get_username(), "B": game.player_b.get_username()},
        "seat": None if seat is None else "AB"[seat],
        "status": game.status,
        "to_move": game.to_move,
        "your_turn": my_turn,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "position": view(position, seat),
        "legal_moves": sorted(str(m) for m in position.legal_moves()) if my_turn else [],
        "last_turn": {
            "seat": last_turn[0][0] if last_turn else None,
            "moves": [text for _, text in last_turn],
        },
        "ply": game.ply,
        "seed_hash": game.seed_hash,
        "seed": game.seed if finished else None,
    }
