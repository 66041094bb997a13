"""Round robin by Berger tables (the circle method).

With an even count, the last player holds their place and the others turn one place a
round; the table pairs position ``k`` with position ``n - 1 - k``. The first position of
each pair takes seat A, except on the held player's board, where the seats alternate by
round. So every player has ``n/2 - 1`` games at each seat plus one (n - 1 games, seats
apart by one). With an odd count a place is left empty: the player facing it sits out
that round, and everyone ends with as many games at A as at B. ``double``: the whole
table again with the seats swapped (each pair meets twice, once at each seat).
"""

from __future__ import annotations

from collections.abc import Sequence


def rounds(players: Sequence[int], *, double: bool = False) -> list[list[tuple[int, int]]]:
    """Every round as a list of (seat A, seat B); a player sitting out is in no game."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if len(players) < 2:
        return []
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(None)  # the empty place: whoever faces it sits out
    n = len(seats)
    held, turning = seats[-1], seats[:-1]
    table: list[list[tuple[int, int]]] = []
    for number in range(n - 1):
        circle = [*turning[number:], *turning[:number]]
        games: list[tuple[int, int]] = []
        board = (held, circle[0]) if number % 2 else (circle[0], held)
        _append(games, *board)
        for k in range(1, n // 2):
            _append(games, circle[k], circle[n - 1 - k])
        table.append(games)
    if double:
        table += [[(b, a) for a, b in games] for games in table]
    return table


def _append(games: list[tuple[int, int]], a: int | None, b: int | None) -> None:
    if a is not None and b is not None:
        games.append((a, b))
