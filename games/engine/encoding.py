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

from .encoder import FORMAT, Encoder, all_moves, layout_moves, move_codes
from .game import Game
from .record import BadRecord, Record

__all__ = ["FORMAT", "Encoder", "all_moves", "decode", "encode", "layout_moves", "move_codes"]


def encode(record: Record) -> bytes:
    """The record in a few bytes. The record is replayed (and so checked: ``BadRecord``)."""
    game = Game(
        record.seed, record.rules, stop_mode=record.stop_mode, starter=record.starter, encoding=True
    )
    for _ in game.feed(record.entries):
        pass
    if game.entry_count != len(record.entries):
        raise BadRecord("the record stops before the lost turn its last wrong call brings")
    return game.encoded()


def decode(data: bytes) -> Record:
    """The record ``encode`` made of it. Raises ``BadRecord`` for anything else."""
    return Game.from_encoded(data).record
