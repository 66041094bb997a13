"""Leagues: divisions, best first, each playing a round robin a season.

At the end of a season (``season_moves``), exactly:

* the top ``up`` of every division but the first go up one division;
* the bottom ``down`` of every division but the last go down one division.

So the first division loses ``down`` and gains ``up``, the last loses ``up`` and gains
``down``, and a division between keeps its size. A division too small to send both
(fewer than ``up + down`` players between two others) is refused with ``ValueError``
rather than moving fewer than stated.

New players (``place_newcomers``) join the lowest division, in the order given (the best
first), up to ``size`` players; the rest open new divisions below it, as few as hold them
(each at most ``size``), their sizes as equal as can be, none smaller than ``smallest``:
when the last would be smaller, fewer newcomers go to the lowest existing division and
more to the new one. When no arrangement keeps every division between ``smallest`` and
``size`` (too few newcomers for a new division and no room left), the lowest division
takes them all beyond ``size``; the first division of a league that has none yet is
made of whoever there is.
"""

from __future__ import annotations

from collections.abc import Sequence


def season_moves(divisions: Sequence[Sequence[int]], *, up: int, down: int) -> list[list[int]]:
    """Next season's divisions: who came down first, then who stayed, then who came up."""
    if up < 0 or down < 0:
        raise ValueError("up and down are counts")
    last = len(divisions) - 1
    for number, division in enumerate(divisions):
        leaving = (up if number > 0 else 0) + (down if number < last else 0)
        if leaving > len(division):
            raise ValueError(
                f"division {number + 1} has {len(division)} players for {leaving} moves"
            )
    staying: list[list[int]] = []
    rising: list[list[int]] = []
    falling: list[list[int]] = []
    for number, division in enumerate(divisions):
        top = up if number > 0 else 0
        bottom = down if number < last else 0
        rising.append(list(division[:top]))
        falling.append(list(division[len(division) - bottom :]))
        staying.append(list(division[top : len(division) - bottom]))
    return [
        [
            *(falling[number - 1] if number > 0 else []),
            *staying[number],
            *(rising[number + 1] if number < last else []),
        ]
        for number in range(len(divisions))
    ]


def place_newcomers(
    divisions: Sequence[Sequence[int]], newcomers: Sequence[int], *, size: int, smallest: int
) -> list[list[int]]:
    """The divisions with the newcomers placed at the bottom of the league."""
    if not 1 <= smallest <= size:
        raise ValueError("need 1 <= smallest <= size")
    placed = [list(division) for division in divisions]
    newcomers = list(newcomers)
    if not newcomers:
        return placed
    if not placed:
        return [newcomers[i : i + part] for i, part in _spread(newcomers, None, size, smallest)]
    lowest = placed[-1]
    room = max(0, size - len(lowest))
    for new_divisions in range(len(newcomers) // smallest + 1):
        # as many as fit in the lowest division, leaving the new ones at least `smallest` each
        into_lowest = min(room, len(newcomers) - new_divisions * smallest)
        rest = len(newcomers) - into_lowest
        if into_lowest >= 0 and rest <= new_divisions * size and (rest > 0) == (new_divisions > 0):
            lowest.extend(newcomers[:into_lowest])
            if new_divisions:
                rest_players = newcomers[into_lowest:]
                placed += [
                    rest_players[i : i + part]
                    for i, part in _spread(rest_players, new_divisions, size, smallest)
                ]
            return placed
    lowest.extend(newcomers)
    return placed


def _spread(
    players: Sequence[int], divisions: int | None, size: int, smallest: int
) -> list[tuple[int, int]]:
    """(start, length) of ``divisions`` parts as equal as can be (None: as few as hold
    them at most ``size`` each, but none under ``smallest`` while there are two)."""
    if divisions is None:
        divisions = max(1, -(-len(players) // size))
        while divisions > 1 and len(players) // divisions < smallest:
            divisions -= 1
    base, extra = divmod(len(players), divisions)
    parts, start = [], 0
    for number in range(divisions):
        length = base + (1 if number < extra else 0)
        parts.append((start, length))
        start += length
    return parts
