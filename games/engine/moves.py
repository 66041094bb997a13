"""Moves as small immutable values with a text form that round-trips (NOTATION.md, Moves).

A card move names its source and destination pile *relative to the seat to
move*: ``R`` (own reserve), ``C`` (own turned card), ``W`` (own waste), ``OR`` /
``OW`` (the opponent's reserve / waste), ``F1``.. (foundations), ``H1``.. (houses).
``T`` turns a hand card, ``E`` ends a turn without hand or waste cards, and
``C-W`` (the discard) is a card move that ends the turn. ``TR`` turns the top
card of a face-down reserve (Foster's "stock", V14) face up.

With three seats the opponents are told apart by their distance in turn order:
``OR``/``OW`` is the next seat, ``OR2``/``OW2`` the one after. Absolute names
(``RA``, ``WB``...) are accepted on input and read relative to the mover.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .errors import BadNotation
from .rules import SEAT_NAMES

# Pile kinds.
FOUNDATION: Final = 0
HOUSE: Final = 1
RESERVE: Final = 2  # the mover's own reserve
WASTE: Final = 3  # the mover's own waste
TURNED: Final = 4  # the mover's turned hand card
OPP_RESERVE: Final = 5  # index = distance of the opponent in turn order (1, 2)
OPP_WASTE: Final = 6

# Move kinds.
CARD: Final = 0
TURN: Final = 1
END: Final = 2
TURN_STOCK: Final = 3  # V14: turn the top card of the face-down reserve ("stock") face up

#: What a move's text looks like before it is read: one or two pile names (or ``T``,
#: ``TR``, ``E``), a hyphen between two. Whether the piles exist is ``parse_move``'s.
TEXT_PATTERN: Final = r"[A-Za-z0-9]{1,7}(-[A-Za-z0-9]{1,7})?"

_NAMES: Final = {RESERVE: "R", WASTE: "W", TURNED: "C", OPP_RESERVE: "OR", OPP_WASTE: "OW"}


def pile_name(kind: int, index: int) -> str:
    if kind == FOUNDATION:
        return f"F{index + 1}"
    if kind == HOUSE:
        return f"H{index + 1}"
    name = _NAMES[kind]
    return name + str(index) if kind in (OPP_RESERVE, OPP_WASTE) and index > 1 else name


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``src``/``dst`` are pile kinds, ``si``/``di`` their indexes."""

    kind: int
    src: int = 0
    si: int = 0
    dst: int = 0
    di: int = 0

    @property
    def is_discard(self) -> bool:
        return self.kind == CARD and self.src == TURNED and self.dst == WASTE

    @property
    def to_foundation(self) -> bool:
        return self.kind == CARD and self.dst == FOUNDATION

    def __str__(self) -> str:
        if self.kind == TURN:
            return "T"
        if self.kind == END:
            return "E"
        if self.kind == TURN_STOCK:
            return "TR"
        return f"{pile_name(self.src, self.si)}-{pile_name(self.dst, self.di)}"

    def __repr__(self) -> str:
        return f"Move({self})"


TURN_MOVE: Final = Move(TURN)
END_MOVE: Final = Move(END)
TURN_STOCK_MOVE: Final = Move(TURN_STOCK)
DISCARD: Final = Move(CARD, TURNED, 0, WASTE, 0)


def _is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts "²", which ``int`` refuses."""
    return text.isascii() and text.isdigit()


def _parse_pile(
    name: str, mover: int, seats: int, foundations: int, houses: int
) -> tuple[int, int]:
    if name[:1] in ("F", "H") and _is_number(name[1:]):
        number = int(name[1:])
        count = foundations if name[0] == "F" else houses
        if not 1 <= number <= count:
            raise BadNotation("no_such_pile", name=name, count=count)
        return (FOUNDATION if name[0] == "F" else HOUSE), number - 1
    if name in ("R", "W", "C"):
        return {"R": RESERVE, "W": WASTE, "C": TURNED}[name], 0
    if name[:2] in ("OR", "OW"):
        distance = int(name[2:]) if _is_number(name[2:]) else (1 if name[2:] == "" else 0)
        if not 1 <= distance < seats:
            raise BadNotation("no_such_opponent_pile", name=name)
        return (OPP_RESERVE if name[1] == "R" else OPP_WASTE), distance
    if len(name) == 2 and name[0] in "RW" and name[1] in SEAT_NAMES[:seats]:
        distance = (SEAT_NAMES.index(name[1]) - mover) % seats
        if distance == 0:
            return (RESERVE if name[0] == "R" else WASTE), 0
        return (OPP_RESERVE if name[0] == "R" else OPP_WASTE), distance
    raise BadNotation("not_a_pile", name=name, foundations=foundations, houses=houses)


@lru_cache(maxsize=4096)
def _parse(text: str, mover: int, seats: int, foundations: int, houses: int) -> Move:
    if text == "T":
        return TURN_MOVE
    if text == "E":
        return END_MOVE
    if text == "TR":
        return TURN_STOCK_MOVE
    parts = text.split("-")
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise BadNotation("not_a_move_shape", text=text)
    src, si = _parse_pile(parts[0], mover, seats, foundations, houses)
    dst, di = _parse_pile(parts[1], mover, seats, foundations, houses)
    if src == TURNED and dst == WASTE:
        return DISCARD
    return Move(CARD, src, si, dst, di)


def parse_move(
    text: str, mover: int = 0, *, seats: int = 2, foundations: int = 8, houses: int = 8
) -> Move:
    """Read one move. Raises ``BadNotation`` (code ``BAD_NOTATION``) for anything else."""
    if not isinstance(text, str) or len(text) > 16:
        raise BadNotation("not_a_move", text=str(text)[:20])
    return _parse(text.strip().upper(), mover, seats, foundations, houses)
