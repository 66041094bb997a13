"""Replay: a deal seed and a move list rebuild the position (lichess-style snapshot + log)."""

from __future__ import annotations

from collections.abc import Iterable

from .deal import deal
from .moves import Move
from .position import Position
from .rules import Rules


def replay(
    seed: int | str,
    moves: Iterable[Move | str],
    rules: Rules | None = None,
    *,
    starter: int | None = None,
) -> Position:
    """The position reached by dealing ``seed`` and applying ``moves`` (text or ``Move``) in order.

    ``starter`` as for ``deal`` (a later game of a match that alternates, V3).
    Moves are checked as they are applied; the first refused one raises ``IllegalMove``.
    """
    position = deal(seed, rules, starter=starter)
    for move in moves:
        position.push(position.parse(move) if isinstance(move, str) else move)
    return position
