"""The compact encoding of a record: ``decode(encode(record)) == record`` for random games
of every preset with every kind of event, small, versioned, and safe on bad bytes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    CLASSIC,
    PRESETS,
    BadNotation,
    BadRecord,
    Game,
    LostTurn,
    Position,
    Record,
    Rules,
    decode,
    encode,
)
from games.engine import game as game_module
from games.engine.encoding import FORMAT, all_moves, layout_moves, move_codes
from tests.engine.random_records import Plan, plans, play_random
from tests.engine.test_properties import ALL_MOVE_TEXTS, rules_strategy

EVERY_PRESET = [PRESETS[name] for name in sorted(PRESETS)]


def round_trip(record: Record) -> bytes:
    data = encode(record)
    assert data[0] == FORMAT
    assert decode(data) == record
    return data


@settings(max_examples=30, deadline=None)
@given(plan=plans(rules_strategy))
def test_it_decodes_what_it_encodes(plan: Plan) -> None:
    round_trip(play_random(plan).record)


@settings(max_examples=4, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("rules", EVERY_PRESET, ids=lambda r: r.preset)
def test_it_decodes_random_games_of_every_preset(rules: Rules, data: st.DataObject) -> None:
    plan = data.draw(plans(st.just(rules)))
    round_trip(play_random(plan).record)


@pytest.mark.parametrize("rules", EVERY_PRESET, ids=lambda r: r.preset)
def test_it_decodes_a_classic_game_with_every_kind_of_event(rules: Rules) -> None:
    wanted = {"MoveEntry", "StopCall", "WrongCall", "LostTurn"}
    for rng_seed in range(20):
        game = play_random(Plan(seed=8, rng_seed=rng_seed, rules=rules, classic=True))
        if wanted <= {type(entry).__name__ for entry in game.entries}:
            break
    else:
        raise AssertionError("no game made every kind of call")
    round_trip(game.record)


def test_it_encodes_seeds_of_every_kind_starters_and_modes() -> None:
    for seed in (0, 1, 2**64 - 1, 2**128 + 5, -7, "", "7", "a seed é"):
        for starter in (None, 0, 1):
            for mode in ("referee", "classic"):
                record = Record(seed, stop_mode=mode, starter=starter)
                assert decode(encode(record)) == record
                game = Game(seed, stop_mode=mode, starter=starter)
                game.play(game.to_move, [game.legal_moves(game.to_move)[0]])
                round_trip(game.record)
    three = Game(1, PRESETS["three-player"], starter=2)
    round_trip(three.record)


def test_it_keeps_the_rules_options() -> None:
    rules = Rules(reserve_size=11, houses_same_suit=True, starter="alternate")
    game = play_random(Plan(seed=4, rng_seed=4, rules=rules, steps=300))
    assert decode(encode(game.record)).rules == rules


def test_a_random_pagat_game_takes_well_under_2500_bytes() -> None:
    sizes = []
    rng = random.Random(12)
    for _ in range(6):
        game = play_random(
            Plan(seed=rng.getrandbits(64), rng_seed=rng.getrandbits(32), events=False)
        )
        assert game.is_over
        sizes.append(len(round_trip(game.record)))
    assert max(sizes) < 2500
    assert sum(sizes) / len(sizes) < 1200  # about 700 (bench/record_size.py)


def test_it_does_not_depend_on_the_order_legal_moves_lists_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = play_random(Plan(seed=9, rng_seed=9, classic=True))
    data = encode(game.record)
    listed = Position.legal_moves
    monkeypatch.setattr(Position, "legal_moves", lambda self: listed(self)[::-1])
    assert encode(game.record) == data
    assert decode(data) == game.record


def test_it_codes_every_move_of_a_layout_once() -> None:
    standard = layout_moves(2, 8, 8)
    assert len(standard) == len(set(standard)) == 444  # 9 bits
    for rules in EVERY_PRESET:
        moves = all_moves(rules)
        assert len(set(moves)) == len(moves) == len(move_codes(rules))
        position = Game(1, rules).position
        for text in ALL_MOVE_TEXTS:
            try:
                move = position.parse(text)
            except BadNotation:
                continue
            assert move in move_codes(rules), text


def test_it_refuses_another_format_and_a_cut_record() -> None:
    game = play_random(Plan(seed=2, rng_seed=2, classic=True, steps=500))
    data = encode(game.record)
    with pytest.raises(BadRecord, match="format"):
        decode(bytes([FORMAT + 1]) + data[1:])
    for cut in (0, 1, 2, 5, len(data) // 2, len(data) - 1):
        with pytest.raises(BadRecord):
            decode(data[:cut])


GAME = play_random(Plan(seed=7, rng_seed=7, classic=True, steps=600))
DATA = encode(GAME.record)


@settings(max_examples=60, deadline=None)
@given(where=st.integers(min_value=1), flip=st.integers(min_value=1, max_value=255))
def test_a_changed_byte_is_found(where: int, flip: int) -> None:
    """A changed byte is found (the CRC of the bytes), before anything is replayed."""
    data = bytearray(DATA)
    data[where % len(data)] ^= flip
    with pytest.raises(BadRecord):
        decode(bytes(data))


def test_it_refuses_to_encode_a_record_the_rules_do_not_allow() -> None:
    game = Game(1, stop_mode=CLASSIC)
    good = game.play(game.to_move, ["T"])[0]
    wrong_seat = type(good)(1 - good.seat, good.move)
    with pytest.raises(BadRecord):
        encode(Record(1, stop_mode=CLASSIC, entries=(wrong_seat,)))


def test_a_decoding_that_drifts_to_another_game_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Read with the legal moves in another order (as an engine whose rules changed might
    list them), the same bytes replay to another game, legal all through: the CRC of
    the entries refuses it."""
    game = play_random(Plan(seed=3, rng_seed=3, events=False, steps=300))
    data = encode(game.record)
    codes = dict(move_codes(game.rules))
    monkeypatch.setattr(game_module, "move_codes", lambda rules: {m: -c for m, c in codes.items()})
    with pytest.raises(BadRecord, match="another game"):
        decode(data)


def test_it_refuses_to_encode_a_lost_turn_alone_or_a_record_cut_before_one() -> None:
    game = play_random(Plan(seed=8, rng_seed=3, classic=True, events=False))
    lost = next(i for i, e in enumerate(game.entries) if isinstance(e, LostTurn))
    for entries in (game.entries[:lost], (game.entries[lost],)):
        with pytest.raises(BadRecord):
            encode(Record(8, stop_mode=CLASSIC, entries=entries))
