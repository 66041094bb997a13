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


#: Moves by target set: ``rows[src][mask]`` is the tuple of moves from source ``src``
#: to every pile whose bit is set in ``mask``, in pile order.
MaskRows = tuple[tuple[tuple[Move, ...], ...], ...]
#: Load moves: (rows by source then distance, distance) pairs.
LoadRows = tuple[tuple[tuple[tuple[Move, ...], ...], int], ...]


@dataclass(frozen=True, slots=True)
class MaskTable:
    """The card moves of a layout by target set, for the plain generator
    (``generate.Generator._plain_moves``): a whole row of targets is one lookup.

    A house top and the faces that may be built on it are matched through *keys*: two
    tops take the same faces exactly when they have the same key, so the houses a
    source face may go on are the bits set at ``where[need[face]]``, where each house
    with a top ``t`` has set its bit at ``where[key[t]]``. Key 0 is written by tops
    that take nothing, key 1 read by faces that go on nothing: neither meets a real
    key.
    """

    to_foundation: MaskRows
    to_house: MaskRows
    #: For each opponent, by distance: (distance, ((rows to its reserve, distance),),
    #: ((rows to its waste, distance),)), as the generator adds them to a face's loads.
    loads: tuple[tuple[int, LoadRows, LoadRows], ...]
    key: tuple[int, ...]
    need: tuple[int, ...]
    keys: int


def _subsets(row: tuple[Move, ...]) -> tuple[tuple[Move, ...], ...]:
    """Every subset of ``row`` in pile order, the subset of bits ``mask`` at ``mask``."""
    subsets: list[tuple[Move, ...]] = [()]
    for move in row:
        subsets += [(*subset, move) for subset in subsets]
    return tuple(subsets)


def _mask_rows(rows: tuple[tuple[Move, ...], ...]) -> MaskRows:
    return tuple(_subsets(row) for row in rows)


def fit_keys(
    house_fits: tuple[tuple[int, ...], ...],
) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """(key, need, how many keys) for a table of house fits, or None when a face goes
    on tops that take different sets of faces (G4 builds both ways: no keys)."""
    keys: dict[frozenset[int], int] = {}
    key = [0] * len(house_fits)
    need = [1] * len(house_fits)
    for top, fits in enumerate(house_fits):
        if not fits:
            continue
        k = keys.setdefault(frozenset(fits), len(keys) + 2)
        key[top] = k
        for face in fits:
            if need[face] not in (1, k):
                return None
            need[face] = k
    return tuple(key), tuple(need), len(keys) + 2


@cache
def mask_table(
    foundations: int, houses: int, seats: int, house_fits: tuple[tuple[int, ...], ...]
) -> MaskTable | None:
    """The ``MaskTable`` of a layout and a building rule, or None when the rule has no
    keys (``fit_keys``) or the layout too many piles for a row of every target set."""
    keys = fit_keys(house_fits)
    if keys is None or max(foundations, houses) > 10:
        return None
    table = move_table(foundations, houses, seats)
    loads = tuple(
        (d, ((table.to_opp_reserve, d),), ((table.to_opp_waste, d),)) for d in range(1, seats)
    )
    return MaskTable(_mask_rows(table.to_foundation), _mask_rows(table.to_house), loads, *keys)
