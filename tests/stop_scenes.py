"""Classic games where the first turn commits given violations, found among real deals
(so every such game rebuilds from its seed and log)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User

from games.engine import IllegalMove, Position, deal, turn_violations
from games.models import Game, StopMode
from games.play.dealing import start_game
from games.play.services import play_moves

Codes = Sequence[str | None]


def violations_of(position: Position, moves: Sequence[str]) -> list[str | None] | None:
    """The violation each move commits, or None when the turn cannot be played at all."""
    try:
        return turn_violations(position, [position.parse(m) for m in moves])
    except IllegalMove:
        return None


def candidate_turns(position: Position) -> list[list[str]]:
    """Short turns worth trying: turn and discard; empty a house onto a foundation first."""
    turns = [["T", "C-W"]]
    for i, house in enumerate(position.houses):
        for f in range(len(position.foundations)):
            if len(house) == 1:
                turns.append([f"H{i + 1}-F{f + 1}", "T", "C-W"])
    return turns


def deal_with(codes: Codes) -> tuple[int, list[str]]:
    """The first seed whose opening turn can be played committing exactly ``codes``."""
    for seed in range(1, 3000):
        position = deal(seed)
        for moves in candidate_turns(position):
            if violations_of(position, moves) == list(codes):
                return seed, moves
    raise AssertionError(f"no deal lets a turn commit {codes}")


def classic_game(alice: User, bob: User, codes: Codes) -> tuple[Game, User, User, list[str]]:
    """A classic game after the offender's turn: (game, offender, caller, the turn)."""
    seed, moves = deal_with(codes)
    game = start_game(alice, bob, seed=seed, stop_mode=StopMode.CLASSIC)
    offender, caller = (alice, bob) if game.to_move == "A" else (bob, alice)
    play_moves(game_id=game.pk, user=offender, moves=moves)
    game.refresh_from_db()
    return game, offender, caller, moves
