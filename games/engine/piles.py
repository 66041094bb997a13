"""Pile names beyond a single move: how a seat names every seat's reserve and waste
(docs/notation.md, Piles), the table's own names for the piles a move touches, and the
largest layout any preset deals (what a move may name before its game is known).

The table's names are absolute: ``F1``.., ``H1``.., and for each seat's piles the pile
and the seat letter, ``RA`` (its reserve), ``WA`` (its waste), ``CA`` (its turned card)
and ``HANDA`` (its hand). ``RA`` and ``WA`` are read in moves too (``parse_move``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .errors import BadNotation
from .moves import (
    CARD,
    FOUNDATION,
    HOUSE,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    TURN,
    TURNED,
    WASTE,
    Move,
    parse_move,
    pile_name,
)
from .rules import PRESETS, SEAT_NAMES, Rules


@dataclass(frozen=True, slots=True)
class Layout:
    """How many seats, foundations and houses a table has."""

    seats: int
    foundations: int
    houses: int

    @classmethod
    def of(cls, rules: Rules) -> Layout:
        return cls(rules.seats, rules.foundations, rules.houses)


#: The largest layout of the presets (three seats, eight foundations, nine houses): a
#: move of any game the presets deal names no pile beyond it.
LARGEST_LAYOUT: Final = Layout(
    seats=max(rules.seats for rules in PRESETS.values()),
    foundations=max(rules.foundations for rules in PRESETS.values()),
    houses=max(rules.houses for rules in PRESETS.values()),
)


def reads_as_move(text: str, layout: Layout = LARGEST_LAYOUT) -> bool:
    """Whether ``text`` is a move in the notation that ``layout`` has the piles of (by
    default any preset's: whether that game's own layout has them is its own question)."""
    try:
        parse_move(text, seats=layout.seats, foundations=layout.foundations, houses=layout.houses)
    except BadNotation:
        return False
    return True


def seat_pile_names(seat: int, seats: int) -> dict[str, str]:
    """How ``seat`` names each seat's reserve, waste and turned card in its moves, by the
    table's names: ``{"RA": "R", "WA": "W", "CA": "C", "RB": "OR", "WB": "OW"}`` for A
    with two seats; with three, the seat after next is ``OR2``/``OW2``. Another seat's
    turned card is in no move."""
    names = {f"C{SEAT_NAMES[seat]}": pile_name(TURNED, 0)}
    for distance in range(seats):
        letter = SEAT_NAMES[(seat + distance) % seats]
        own = distance == 0
        names[f"R{letter}"] = pile_name(RESERVE if own else OPP_RESERVE, distance)
        names[f"W{letter}"] = pile_name(WASTE if own else OPP_WASTE, distance)
    return names


#: The letter of each seat pile's table name (``RA``, ``WB``, ``CA``).
_SEAT_PILES: Final = {RESERVE: "R", OPP_RESERVE: "R", WASTE: "W", OPP_WASTE: "W", TURNED: "C"}


def _table_name(kind: int, index: int, mover: int, seats: int) -> str:
    """A pile of ``mover``'s move by the table's name: ``OR`` is the next seat's ``R``."""
    if kind in (FOUNDATION, HOUSE):
        return pile_name(kind, index)
    distance = index if kind in (OPP_RESERVE, OPP_WASTE) else 0
    return _SEAT_PILES[kind] + SEAT_NAMES[(mover + distance) % seats]


def moved_piles(moves: Iterable[Move | str], mover: int, layout: Layout) -> set[str]:
    """The table's names of the piles ``mover``'s ``moves`` took a card from or put one
    on (``T``: the hand and the turned card; ``TR`` and ``E`` move no card). Moves
    given as text are read as ``mover`` writes them; a record's event in their place
    touches no pile."""
    letter = SEAT_NAMES[mover]
    touched: set[str] = set()
    for move in moves:
        if isinstance(move, str):
            try:
                move = parse_move(
                    move,
                    mover,
                    seats=layout.seats,
                    foundations=layout.foundations,
                    houses=layout.houses,
                )
            except BadNotation:
                continue  # an event of the record (``resigns``, ``stop 2 S3``) moves no card
        if move.kind == TURN:
            touched |= {f"HAND{letter}", f"C{letter}"}
        elif move.kind == CARD:
            touched.add(_table_name(move.src, move.si, mover, layout.seats))
            touched.add(_table_name(move.dst, move.di, mover, layout.seats))
    return touched
