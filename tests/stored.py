"""Stored games as the tests read and set them: the engine's position of a game, a
game set up on a hand-made table, its record as the log lists it, and the check that
its record replays."""

from __future__ import annotations

from typing import Any

from games.engine import Game as EngineGame
from games.engine import Position, from_document, to_document
from games.management.commands.verify_games import differs
from games.models import Game
from games.play.selectors import last_turn, move_log
from games.play.store import engine_game, seed_of, stop_mode_of

#: A hand-made table where a stalemate is no draw: alice (A) to move, her count 6 (two
#: reserve cards, a hand and a waste card), bob's 2; a stalemate now scores bob 4 (R8.3).
UNEVEN_COUNTS: dict[str, Any] = {
    "format": "rbank-position/1",
    "rules": "pagat",
    "to_move": "A",
    "foundations": [[] for _ in range(8)],
    "houses": [["KS"], ["9D"], ["TS"], ["KH"], ["5S"], ["QC"], ["3D"], ["JH"]],
    "A": {"reserve": ["6C", "KC"], "hand": ["9H"], "waste": ["3C"], "turned": None},
    "B": {"reserve": ["5D"], "hand": [], "waste": [], "turned": None},
    "status": "playing",
    "winner": None,
    "score": None,
}


def position_of(game: Game) -> Position:
    """The game's position as it stands in the database (a copy, free to play on)."""
    game.refresh_from_db()
    return engine_game(game).position.copy()


def place(game: Game, document: dict[str, Any]) -> Game:
    """Set a game just dealt (nothing played yet) up on a hand-made table: its record
    starts there instead of at the deal (``games.engine.Game``'s ``setup``)."""
    table = to_document(from_document(document))
    engine = EngineGame(
        seed_of(game),
        game.game_rules(),
        stop_mode=stop_mode_of(game),
        encoding=True,
        setup=table,
    )
    game.state = engine.snapshot()
    game.to_move = table["to_move"]
    game.save()
    return game


def replays(game: Game) -> bool:
    """The game's record replays to what the row stores (``verify_games``)."""
    game.refresh_from_db()
    return differs(game) is None


def entries_of(game: Game) -> list[str]:
    """The record as the log lists it: each move, or the event (``resigns``...)."""
    return [move for _, move in log_of(game)]


def log_of(game: Game) -> list[tuple[str, str]]:
    """The record as the log lists it, each entry with its seat's letter."""
    game.refresh_from_db()
    return [(row["seat"], row["move"]) for row in move_log(engine_game(game))]


def last_turn_of(game: Game) -> dict[str, Any]:
    """The last finished turn: its seat's letter, moves, ``stopped``, ``correction``, ``lost``."""
    game.refresh_from_db()
    return last_turn(engine_game(game))


def current_turn_of(game: Game) -> list[str]:
    """The moves of the turn under way."""
    game.refresh_from_db()
    return [str(move) for move in engine_game(game).current_turn]
