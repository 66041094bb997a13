"""The flat tables move generation indexes: every card move of a layout, built once.

A layout (foundations, houses, seats) has a fixed set of card moves; building each
``Move`` once and only appending it during generation keeps ``legal_moves`` cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .moves import CARD, FOUNDATION, HOUSE, OPP_RESERVE, OPP_WASTE, RESERVE, TURNED, WASTE, Move


@dataclass(frozen=True, slots=True)
class MoveTable:
    """Every card move of a layout, built once, so generation only appends.

    Sources are numbered 0 = reserve, 1 = turned card, 2 + h = house h,
    2 + houses = the mover's own waste (available only with V1), 3 + houses = the
    next seat's waste (only in Foster's games, G4 and V14) and 4 + houses = the next
    seat's reserve (V14).
    """

    to_foundation: tuple[tuple[Move, ...], ...]
    to_house: tuple[tuple[Move, ...], ...]
    to_opp_reserve: tuple[tuple[Move, ...], ...]
    to_opp_waste: tuple[tuple[Move, ...], ...]
    #: The source numbers of the own waste, the next seat's waste and its reserve.
    waste: int
    opp_waste: int
    opp_reserve: int


@cache
def move_table(foundations: int, houses: int, seats: int) -> MoveTable:
    sources = [(RESERVE, 0), (TURNED, 0)] + [(HOUSE, h) for h in range(houses)]
    sources += [(WASTE, 0), (OPP_WASTE, 1), (OPP_RESERVE, 1)]

    def row(kind: int, count: int) -> tuple[tuple[Move, ...], ...]:
        return tuple(tuple(Move(CARD, s, si, kind, i) for i in range(count)) for s, si in sources)

    return MoveTable(
        row(FOUNDATION, foundations),
        row(HOUSE, houses),
        row(OPP_RESERVE, seats),
        row(OPP_WASTE, seats),
        waste=2 + houses,
        opp_waste=3 + houses,
        opp_reserve=4 + houses,
    )
