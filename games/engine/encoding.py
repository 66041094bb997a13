"""A compact encoding of a game record, for storage: ``encode(record) -> bytes`` and
``decode(bytes) -> record``.

A move is stored as its index among the legal moves of its position, as lichess
stores chess moves, and all those indexes together as one number in mixed radix
(each position's count of legal moves is its radix): a move costs log2 of that count,
a forced move nothing, and a random pagat game of about 1,750 moves takes about 700
bytes. The legal moves are put in a fixed order first (their codes, below), so the
encoding depends on which moves are legal, never on the order ``legal_moves`` lists
them in. Whatever is not a legal move (a priority slip of a classic game, which
``legal_moves`` never lists, and every event) is an exception stored apart, with its
place in the record. Decoding replays the game; nothing more.

Layout (``FORMAT`` 1): the format byte; a flags byte (bit 0: classic; bit 1: the seed
is text; bits 2-3: the named starter + 1, 0 for none); the seed (a zigzag varint, or
a varint length and UTF-8); the rules (a varint length and the JSON of
``Rules.to_document``); the count of actions (entries but the lost turns, which the
engine writes itself); the count of exceptions, and for each the varint gap since the
previous one's action, a byte ``kind << 2 | seat`` and its payload (varints); the
moves' number, little-endian; a CRC-32 of all that, and a CRC-32 of the entries' text,
4 bytes each. The first finds damaged bytes before anything is replayed; the second a
decoding that drifted (an engine whose legal moves changed since the record was
written): either is an error, never another game.
"""

from __future__ import annotations

import json
import zlib
from bisect import bisect_left
from functools import cache
from typing import Final

from .errors import RulesError
from .game import Game
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
    MoveEntry,
    OfferStalemate,
    Record,
    Resign,
    StopCall,
    Timeout,
    WrongCall,
)
from .rules import Rules, rules_from_document

FORMAT: Final = 1

# Exception kinds (the high bits of an exception's byte; the seat is in the low two).
_SLIP: Final = 0
_STOP: Final = 6
_WRONG: Final = 7
_EVENTS: Final[tuple[type[Entry], ...]] = (
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
_SEAT_EVENTS: Final[
    dict[int, type[Resign | Timeout | OfferStalemate | AgreeStalemate | DeclineStalemate]]
] = {
    kind: event
    for kind, event in enumerate(_EVENTS)
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


# ------------------------------------------------------------------ varints


def _varint(value: int, out: bytearray) -> None:
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


class _Reader:
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


def _entries_crc(entries: tuple[Entry, ...]) -> bytes:
    """The check of what an encoding stands for: the text of its entries."""
    return zlib.crc32("\n".join(str(e) for e in entries).encode()).to_bytes(4, "little")


# ------------------------------------------------------------------ encode


def encode(record: Record) -> bytes:
    """The record in a few bytes. The record is replayed (and so checked: ``BadRecord``)."""
    rules = record.rules
    codes = move_codes(rules)
    game = Game(record.seed, rules, stop_mode=record.stop_mode, starter=record.starter)
    radices: list[int] = []
    digits: list[int] = []
    exceptions = bytearray()
    count = 0  # exceptions
    actions = 0
    previous = 0  # the action of the previous exception
    steps = game.feed(record.entries)
    for i, entry in enumerate(record.entries):
        if i < game.entry_count:  # written by the engine with the entry before
            next(steps)
            continue
        digit = -1
        if isinstance(entry, MoveEntry) and entry.violation is None and entry.move in codes:
            legal = sorted([codes[m] for m in game.position.legal_moves()])
            code = codes[entry.move]
            digit = bisect_left(legal, code)
            if digit == len(legal) or legal[digit] != code:
                digit = -1  # not a legal move: the check below refuses it
            elif len(legal) > 1:
                radices.append(len(legal))
                digits.append(digit)
        next(steps)  # applies and checks the entry
        if digit < 0:
            _varint(actions - previous, exceptions)
            previous = actions
            count += 1
            _exception(entry, codes, exceptions)
        actions += 1
    if game.entry_count != len(record.entries):
        raise BadRecord("the record stops before the lost turn its last wrong call brings")
    number = 0
    for radix, digit in zip(reversed(radices), reversed(digits), strict=True):
        number = number * radix + digit
    out = bytearray([FORMAT, _flags(record)])
    _seed(record.seed, out)
    rules_text = json.dumps(rules.to_document(), sort_keys=True, separators=(",", ":")).encode()
    _varint(len(rules_text), out)
    out += rules_text
    _varint(actions, out)
    _varint(count, out)
    out += exceptions
    out += number.to_bytes((number.bit_length() + 7) // 8, "little")
    out += zlib.crc32(out).to_bytes(4, "little")
    out += _entries_crc(record.entries)
    return bytes(out)


def _flags(record: Record) -> int:
    starter = 0 if record.starter is None else record.starter + 1
    return (record.stop_mode == CLASSIC) | (isinstance(record.seed, str) << 1) | (starter << 2)


def _seed(seed: int | str, out: bytearray) -> None:
    if isinstance(seed, str):
        text = seed.encode()
        _varint(len(text), out)
        out += text
    else:
        _varint(seed * 2 if seed >= 0 else -seed * 2 - 1, out)  # zigzag


def _exception(entry: Entry, codes: dict[Move, int], out: bytearray) -> None:
    kind = _EVENTS.index(type(entry))
    out.append(kind << 2 | entry.seat)
    if isinstance(entry, MoveEntry):
        if entry.move not in codes:
            raise BadRecord(f"{entry}: the layout has no such move")
        _varint(codes[entry.move], out)
    elif isinstance(entry, StopCall | WrongCall):
        _varint(entry.move_number, out)
        if isinstance(entry, StopCall):
            correction = entry.correction
            if correction is not None and correction not in codes:
                raise BadRecord(f"{entry}: the layout has no such move")
            _varint(0 if correction is None else codes[correction] + 1, out)


# ------------------------------------------------------------------ decode


def decode(data: bytes) -> Record:
    """The record ``encode`` made of it. Raises ``BadRecord`` for anything else."""
    if data[:1] and data[0] != FORMAT:
        raise BadRecord(f"the encoded record has format {data[0]}; this engine reads {FORMAT}")
    if len(data) < 10:
        raise BadRecord("the encoded record is cut short")
    if zlib.crc32(data[:-8]).to_bytes(4, "little") != data[-8:-4]:
        raise BadRecord("the encoded record is damaged")
    reader = _Reader(data[:-8])
    reader.byte()  # the format
    flags = reader.byte()
    if flags >> 4:
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
    starter = (flags >> 2) - 1 if flags >> 2 else None
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
        if kind >= len(_EVENTS):
            raise BadRecord(f"the encoded record has an exception of unknown kind {kind}")
        payload = bytearray()
        if kind == _SLIP:
            _varint(reader.varint(), payload)
        elif kind in (_STOP, _WRONG):
            _varint(reader.varint(), payload)
            if kind == _STOP:
                _varint(reader.varint(), payload)
        exceptions[action] = (kind, byte & 3, bytes(payload))
    if exceptions and action >= actions:
        raise BadRecord("the encoded record has an exception after its last action")
    number = int.from_bytes(data[reader.at : -8], "little")
    game = Game(seed, rules, stop_mode=stop_mode, starter=starter)
    moves = all_moves(rules)
    codes = move_codes(rules)
    try:
        for action in range(actions):
            if action in exceptions:
                game.act(_event(*exceptions[action], moves))
                continue
            legal = sorted(game.position.legal_moves(), key=codes.__getitem__)
            if not legal:
                raise BadRecord(f"action {action + 1} is a move, but none is legal there")
            number, digit = divmod(number, len(legal))
            game.act(MoveEntry(game.to_move, legal[digit]))
    except BadRecord:
        raise
    except RulesError as exc:
        raise BadRecord(f"the encoded record does not replay: {exc.message}") from None
    if number:
        raise BadRecord("the encoded record holds more moves than it says")
    record = game.record
    if _entries_crc(record.entries) != data[-4:]:
        raise BadRecord("the encoded record decodes to another game: have the rules changed?")
    return record


def _event(kind: int, seat: int, payload: bytes, moves: tuple[Move, ...]) -> Entry:
    values = _Reader(payload)
    if kind == _SLIP:
        return MoveEntry(seat, _move(values.varint(), moves))
    if kind == _STOP:
        number, correction = values.varint(), values.varint()
        return StopCall(seat, number, "", None if not correction else _move(correction - 1, moves))
    if kind == _WRONG:
        return WrongCall(seat, values.varint())
    return _SEAT_EVENTS[kind](seat)


def _move(code: int, moves: tuple[Move, ...]) -> Move:
    if code >= len(moves):
        raise BadRecord(f"the encoded record has a move code {code} the layout lacks")
    return moves[code]
