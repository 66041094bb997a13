"""The compact encoding of a game record, written as the game is played (``Encoder``).

The format is ``encoding.py``'s: a move is its index among the legal moves of its
position (in move-code order), all those indexes one number in mixed radix, the first
move the lowest digit; so a move appends one digit, ``number += digit * scale``, and
the encoding of a game in play grows by a few bits a move, never re-read. Whatever is
not a legal move (a classic game's slip, every event) is an exception stored apart,
with the gap since the previous one. The entries' text is checked by a CRC-32 kept as
they come (``zlib.crc32`` continues a running value).

``Encoder.state()`` is what a server keeps between two requests;
``Encoder.encoded()`` is the encoded record, which ``encoding.decode`` reads.
"""

from __future__ import annotations

import json
import zlib
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from .errors import RulesError
from .moves import (
    CARD,
    DISCARD,
    END_MOVE,
    FOUNDATION,
    HOUSE,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    TURN_MOVE,
    TURN_STOCK_MOVE,
    TURNED,
    WASTE,
    Move,
)
from .record import (
    CLASSIC,
    REFEREE,
    AgreeStalemate,
    BadRecord,
    DeclineStalemate,
    Entry,
    LostTurn,
    MoveEntry,
    OfferStalemate,
    Resign,
    StopCall,
    Timeout,
    WrongCall,
)
from .rules import Rules, rules_from_document

FORMAT: Final = 1
#: The flag bit of a game set up on a table of its own: its position document follows
#: the rules.
SETUP_BIT: Final = 4

# Exception kinds (the high bits of an exception's byte; the seat is in the low two).
SLIP: Final = 0
STOP: Final = 6
WRONG: Final = 7
EVENTS: Final[tuple[type[Entry], ...]] = (
    MoveEntry,
    Resign,
    Timeout,
    OfferStalemate,
    AgreeStalemate,
    DeclineStalemate,
    StopCall,
    WrongCall,
)
#: The events that name only their seat, by kind.
SEAT_EVENTS: Final[
    dict[int, type[Resign | Timeout | OfferStalemate | AgreeStalemate | DeclineStalemate]]
] = {
    kind: event
    for kind, event in enumerate(EVENTS)
    if event in (Resign, Timeout, OfferStalemate, AgreeStalemate, DeclineStalemate)
}


@cache
def layout_moves(seats: int, foundations: int, houses: int) -> tuple[Move, ...]:
    """Every move the notation can name in a layout, in code order: ``T``, ``E``, ``TR``,
    then every pair of piles (own reserve, waste and turned card, each opponent's
    reserve and waste, the foundations, the houses). A move's code is its index here:
    444 moves in the standard layout, 9 bits."""
    piles = [(RESERVE, 0), (WASTE, 0), (TURNED, 0)]
    piles += [(OPP_RESERVE, d) for d in range(1, seats)]
    piles += [(OPP_WASTE, d) for d in range(1, seats)]
    piles += [(FOUNDATION, i) for i in range(foundations)]
    piles += [(HOUSE, i) for i in range(houses)]
    moves = [TURN_MOVE, END_MOVE, TURN_STOCK_MOVE]
    for src, si in piles:
        for dst, di in piles:
            moves.append(DISCARD if (src, dst) == (TURNED, WASTE) else Move(CARD, src, si, dst, di))
    return tuple(moves)


@cache
def _codes(seats: int, foundations: int, houses: int) -> dict[Move, int]:
    return {move: code for code, move in enumerate(layout_moves(seats, foundations, houses))}


def move_codes(rules: Rules) -> dict[Move, int]:
    """Each move of the rules' layout and its code."""
    return _codes(rules.seats, rules.foundations, rules.houses)


def all_moves(rules: Rules) -> tuple[Move, ...]:
    return layout_moves(rules.seats, rules.foundations, rules.houses)


def varint(value: int, out: bytearray) -> None:
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


class Encoder:
    """The encoding of one game's record, entry by entry as the game writes them."""

    def __init__(
        self,
        seed: int | str,
        rules: Rules,
        stop_mode: str,
        starter: int | None,
        setup: dict[str, Any] | None = None,
    ) -> None:
        self.codes = move_codes(rules)
        head = bytearray([FORMAT, _flags(seed, stop_mode, starter, setup)])
        if isinstance(seed, str):
            text = seed.encode()
            varint(len(text), head)
            head += text
        else:
            varint(seed * 2 if seed >= 0 else -seed * 2 - 1, head)  # zigzag
        rules_text = json.dumps(rules.to_document(), sort_keys=True, separators=(",", ":"))
        varint(len(rules_text.encode()), head)
        head += rules_text.encode()
        if setup is not None:  # a game set up on a table of its own
            table = json.dumps(setup, sort_keys=True, separators=(",", ":")).encode()
            varint(len(table), head)
            head += table
        self.head = bytes(head)
        self.number = 0  # the moves' digits
        self.scale = 1  # the product of the radices so far: the next digit's weight
        self.actions = 0  # the entries the players acted (all but the lost turns)
        self.count = 0  # the exceptions
        self.previous = 0  # the action of the last exception
        self.exceptions = bytearray()
        self.entries = 0  # every entry, for the text check
        self.crc = 0

    def add(self, entry: Entry, legal: list[Move] | None = None) -> None:
        """Write ``entry``; for a move, ``legal`` is the legal moves of the position it
        was made in."""
        self.crc = zlib.crc32((b"\n" if self.entries else b"") + str(entry).encode(), self.crc)
        self.entries += 1
        if isinstance(entry, LostTurn):
            return  # the engine writes it with the wrong call before it
        codes = self.codes
        if isinstance(entry, MoveEntry) and entry.violation is None and legal is not None:
            ordered = sorted([codes[m] for m in legal])
            code = codes.get(entry.move, -1)
            digit = bisect_left(ordered, code)
            if digit < len(ordered) and ordered[digit] == code:
                if len(ordered) > 1:
                    self.number += digit * self.scale
                    self.scale *= len(ordered)
                self.actions += 1
                return
        varint(self.actions - self.previous, self.exceptions)
        self.previous = self.actions
        self.count += 1
        _exception(entry, codes, self.exceptions)
        self.actions += 1

    @staticmethod
    def crc_of(entries: tuple[Entry, ...]) -> bytes:
        """The check of what an encoding stands for: the text of its entries."""
        return zlib.crc32("\n".join(str(e) for e in entries).encode()).to_bytes(4, "little")

    def encoded(self) -> bytes:
        out = bytearray(self.head)
        varint(self.actions, out)
        varint(self.count, out)
        out += self.exceptions
        out += self.number.to_bytes((self.number.bit_length() + 7) // 8, "little")
        out += zlib.crc32(out).to_bytes(4, "little")
        out += self.crc.to_bytes(4, "little")
        return bytes(out)

    def state(self) -> dict[str, Any]:
        """What to keep to go on writing later (``from_state``): JSON-ready."""
        return {
            "number": format(self.number, "x"),
            "scale": format(self.scale, "x"),
            "actions": self.actions,
            "count": self.count,
            "previous": self.previous,
            "exceptions": self.exceptions.hex(),
            "entries": self.entries,
            "crc": self.crc,
        }

    @classmethod
    def from_state(
        cls,
        seed: int | str,
        rules: Rules,
        stop_mode: str,
        starter: int | None,
        state: dict[str, Any],
        setup: dict[str, Any] | None = None,
    ) -> Encoder:
        encoder = cls(seed, rules, stop_mode, starter, setup)
        encoder.number = int(state["number"], 16)
        encoder.scale = int(state["scale"], 16)
        encoder.actions = state["actions"]
        encoder.count = state["count"]
        encoder.previous = state["previous"]
        encoder.exceptions = bytearray.fromhex(state["exceptions"])
        encoder.entries = state["entries"]
        encoder.crc = state["crc"]
        return encoder

    def copy(self) -> Encoder:
        other = object.__new__(Encoder)
        other.__dict__.update(self.__dict__)
        other.exceptions = self.exceptions[:]
        return other


def _flags(
    seed: int | str, stop_mode: str, starter: int | None, setup: dict[str, Any] | None
) -> int:
    first = 0 if starter is None else starter + 1
    return (
        (stop_mode == CLASSIC)
        | (isinstance(seed, str) << 1)
        | (first << 2)
        | ((setup is not None) << SETUP_BIT)
    )


def _exception(entry: Entry, codes: dict[Move, int], out: bytearray) -> None:
    kind = EVENTS.index(type(entry))
    out.append(kind << 2 | entry.seat)
    if isinstance(entry, MoveEntry):
        if entry.move not in codes:
            raise BadRecord(f"{entry}: the layout has no such move")
        varint(codes[entry.move], out)
    elif isinstance(entry, StopCall | WrongCall):
        varint(entry.move_number, out)
        if isinstance(entry, StopCall):
            correction = entry.correction
            if correction is not None and correction not in codes:
                raise BadRecord(f"{entry}: the layout has no such move")
            varint(0 if correction is None else codes[correction] + 1, out)


# ------------------------------------------------------------------ reading


@dataclass(frozen=True, slots=True)
class Encoded:
    """An encoded record's parts: what ``Game.from_encoded`` replays."""

    seed: int | str
    rules: Rules
    stop_mode: str
    starter: int | None
    actions: int
    exceptions: dict[int, tuple[int, int, bytes]]
    number: int
    crc: bytes
    setup: dict[str, Any] | None = None


class Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise BadRecord("the encoded record is cut short")
        self.at += 1
        return self.data[self.at - 1]

    def varint(self) -> int:
        value = shift = 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 7 * 20:
                raise BadRecord("the encoded record holds a number too long to be one")

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise BadRecord("the encoded record is cut short")
        self.at += n
        return self.data[self.at - n : self.at]


def read(data: bytes) -> Encoded:
    """The parts of an encoded record, checked for damage; its moves are read by
    replaying it (``Game.from_encoded``). Raises ``BadRecord``."""
    if data[:1] and data[0] != FORMAT:
        raise BadRecord(f"the encoded record has format {data[0]}; this engine reads {FORMAT}")
    if len(data) < 10:
        raise BadRecord("the encoded record is cut short")
    if zlib.crc32(data[:-8]).to_bytes(4, "little") != data[-8:-4]:
        raise BadRecord("the encoded record is damaged")
    reader = Reader(data[:-8])
    reader.byte()  # the format
    flags = reader.byte()
    if flags >> (SETUP_BIT + 1):
        raise BadRecord("the encoded record has unknown flags")
    seed: int | str
    if flags & 2:
        try:
            seed = reader.take(reader.varint()).decode()
        except UnicodeDecodeError:
            raise BadRecord("the encoded record's seed is not text") from None
    else:
        zigzag = reader.varint()
        seed = zigzag // 2 if zigzag % 2 == 0 else -(zigzag + 1) // 2
    try:
        rules = rules_from_document(json.loads(reader.take(reader.varint())))
    except (RulesError, ValueError) as exc:
        raise BadRecord(f"the encoded record's rules cannot be read: {exc}") from None
    setup = None
    if flags >> SETUP_BIT & 1:
        try:
            setup = json.loads(reader.take(reader.varint()))
        except ValueError:
            raise BadRecord("the encoded record's table cannot be read") from None
    first = flags >> 2 & 3
    starter = first - 1 if first else None
    if starter is not None and starter >= rules.seats:
        raise BadRecord(f"the encoded record names seat {starter} to start")
    stop_mode = CLASSIC if flags & 1 else REFEREE
    actions = reader.varint()
    exceptions: dict[int, tuple[int, int, bytes]] = {}
    action = 0
    for _ in range(reader.varint()):
        gap = reader.varint()
        if exceptions and not gap:
            raise BadRecord("the encoded record has two exceptions at one action")
        action += gap
        byte = reader.byte()
        kind = byte >> 2
        if kind >= len(EVENTS):
            raise BadRecord(f"the encoded record has an exception of unknown kind {kind}")
        payload = bytearray()
        if kind == SLIP:
            varint(reader.varint(), payload)
        elif kind in (STOP, WRONG):
            varint(reader.varint(), payload)
            if kind == STOP:
                varint(reader.varint(), payload)
        exceptions[action] = (kind, byte & 3, bytes(payload))
    if exceptions and action >= actions:
        raise BadRecord("the encoded record has an exception after its last action")
    number = int.from_bytes(data[reader.at : -8], "little")
    number = int.from_bytes(data[reader.at : -8], "little")
    return Encoded(seed, rules, stop_mode, starter, actions, exceptions, number, data[-4:], setup)


def exception_entry(kind: int, seat: int, payload: bytes, moves: tuple[Move, ...]) -> Entry:
    values = Reader(payload)
    if kind == SLIP:
        return MoveEntry(seat, _move(values.varint(), moves))
    if kind == STOP:
        number, correction = values.varint(), values.varint()
        return StopCall(seat, number, "", None if not correction else _move(correction - 1, moves))
    if kind == WRONG:
        return WrongCall(seat, values.varint())
    return SEAT_EVENTS[kind](seat)


def _move(code: int, moves: tuple[Move, ...]) -> Move:
    if code >= len(moves):
        raise BadRecord(f"the encoded record has a move code {code} the layout lacks")
    return moves[code]
