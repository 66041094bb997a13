"""Knockout brackets: the first round by seed, then the winners in bracket order.

The bracket has the next power of two places. Seeds are placed in the standard order
(1 v N, and seeds 1 and 2 can meet only in the final, 1 to 4 only in the semi-finals,
and so on); the places past the last entrant are byes, so the top seeds get them. The
higher seed takes seat A in the first round; afterwards the winner of the upper tie of
the two that meet takes seat A.
"""

from __future__ import annotations

from collections.abc import Sequence


def seed_order(places: int) -> list[int]:
    """Seeds 1..places in bracket order: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    if places < 1 or places & (places - 1):
        raise ValueError("a bracket has a power of two places")
    order = [1]
    while len(order) < places:
        size = 2 * len(order)
        order = [seed for top in order for seed in (top, size + 1 - top)]
    return order


def bracket(seeded: Sequence[int]) -> list[tuple[int, int | None]]:
    """The first round, best seed first in ``seeded``: (seat A, seat B or None for a bye)."""
    if len(set(seeded)) != len(seeded):
        raise ValueError("a player is listed twice")
    if len(seeded) < 2:
        return [(player, None) for player in seeded]  # a lone entrant has nobody to meet
    places = 2
    while places < len(seeded):
        places *= 2
    order = seed_order(places)
    return [
        (seeded[upper - 1], seeded[lower - 1] if lower <= len(seeded) else None)
        for upper, lower in zip(order[::2], order[1::2], strict=True)
    ]


def next_round(winners_in_bracket_order: Sequence[int]) -> list[tuple[int, int]]:
    """The next round: the winners of ties 1 and 2 meet, then 3 and 4, and so on."""
    winners = list(winners_in_bracket_order)
    if len(winners) % 2 or len(set(winners)) != len(winners):
        raise ValueError("a round needs an even number of distinct winners")
    return list(zip(winners[::2], winners[1::2], strict=True))
