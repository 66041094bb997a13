"""A ladder: one ordered list per family of rules, the best first.

A player may challenge anyone at most ``reach`` places above them. When the lower player
wins, they take the loser's place and everyone from the loser down to the place the
winner left moves down one; when the higher player wins, nothing moves.
"""

from __future__ import annotations

from collections.abc import Sequence


def may_challenge(ladder: Sequence[int], challenger: int, target: int, *, reach: int) -> bool:
    """Both on the ladder, the target above the challenger and at most ``reach`` places."""
    if challenger not in ladder or target not in ladder:
        return False
    distance = ladder.index(challenger) - ladder.index(target)
    return 0 < distance <= reach


def after_game(ladder: Sequence[int], winner: int, loser: int) -> list[int]:
    """The ladder after a game between two of its players."""
    order = list(ladder)
    if winner == loser or winner not in order or loser not in order:
        raise ValueError("a game between two players of the ladder")
    above = order.index(loser)
    if order.index(winner) < above:
        return order
    order.remove(winner)
    order.insert(above, winner)
    return order
