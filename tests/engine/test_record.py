"""The typed game record: every entry's text form round-trips (docs/notation.md, "The
game record"), and a priority slip stays secret while the game is played (R7.4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    CLASSIC,
    PRESETS,
    AgreeStalemate,
    BadRecord,
    DeclineStalemate,
    Entry,
    Game,
    LostTurn,
    MoveEntry,
    OfferStalemate,
    Record,
    Resign,
    Rules,
    StopCall,
    Timeout,
    WrongCall,
    parse_entry,
    parse_move,
    public,
)
from games.engine.encoding import all_moves
from tests.engine.random_records import Plan, plans, play_random

EVERY_PRESET = [PRESETS[name] for name in sorted(PRESETS)]

H3_F1 = parse_move("H3-F1")
C_F3 = parse_move("C-F3")
OR2_H9 = parse_move("OR2-H9", seats=3, houses=9)

HAND_MADE: list[tuple[Entry, str]] = [
    (MoveEntry(0, H3_F1), "A H3-F1"),
    (MoveEntry(1, parse_move("C-W"), "S2"), "B C-W S2"),
    (MoveEntry(2, OR2_H9), "C OR2-H9"),
    (MoveEntry(0, parse_move("TR"), "S3"), "A TR S3"),
    (Resign(1), "B resigns"),
    (Timeout(0), "A times-out"),
    (OfferStalemate(2), "C offers-stalemate"),
    (AgreeStalemate(0), "A agrees-stalemate"),
    (DeclineStalemate(1), "B declines-stalemate"),
    (StopCall(1, 2, "S2", C_F3), "B stop 2 S2 C-F3"),
    (StopCall(0, 1, "S3"), "A stop 1 S3"),
    (StopCall(2, 12, "S11", OR2_H9), "C stop 12 S11 OR2-H9"),
    (WrongCall(1, 3), "B wrong-stop 3"),
    (LostTurn(1), "B loses-turn"),
]


@pytest.mark.parametrize(("entry", "text"), HAND_MADE, ids=[t for _, t in HAND_MADE])
def test_it_writes_and_reads_every_kind_of_entry(entry: Entry, text: str) -> None:
    assert str(entry) == text
    assert parse_entry(text) == entry
    three = PRESETS["three-player"]
    assert parse_entry(text, three) == entry  # every hand-made entry fits three seats


def test_it_reads_an_entry_against_the_layout_of_its_rules() -> None:
    assert parse_entry("B h2-f1") == MoveEntry(1, parse_move("H2-F1"))  # as the notation reads
    for text in ("C H1-F1", "A OR2-H1", "A H9-F1"):
        parse_entry(text, PRESETS["three-player"])
        with pytest.raises(BadRecord):
            parse_entry(text, PRESETS["pagat"])
    with pytest.raises(BadRecord):
        parse_entry("A H7-F1", PRESETS["one-pack"])  # three houses each: H1-H6


@pytest.mark.parametrize(
    "text",
    [
        "",
        "A",
        "H3-F1",
        "D H3-F1",
        "AB H3-F1",
        "A H3-F1 S4",  # a building violation is never accepted, so never recorded
        "A H3-F1 S2 S3",
        "A H3-X1",
        "A resigns now",
        "B stop",
        "B stop 2",
        "B stop 0 S2 C-F3",
        "B stop two S2 C-F3",
        "B stop 2 SX C-F3",
        "B stop 2 S2 C-F3 H1-F1",
        "B wrong-stop",
        "B wrong-stop 1 2",
        "B wrong-stop ²",
    ],
)
def test_it_refuses_what_is_not_an_entry(text: str) -> None:
    with pytest.raises(BadRecord) as refused:
        parse_entry(text)
    assert refused.value.code == "BAD_RECORD"


def test_R7_4_a_slip_is_stripped_from_the_public_entry_and_nothing_else() -> None:
    slip = MoveEntry(0, H3_F1, "S1")
    assert public(slip) == MoveEntry(0, H3_F1)
    assert str(public(slip)) == "A H3-F1"
    for entry, _ in HAND_MADE:
        if not isinstance(entry, MoveEntry):
            assert public(entry) is entry  # a Stop!'s verdict was announced when it was called


def test_it_reads_every_move_of_every_layout() -> None:
    for rules in EVERY_PRESET:
        for move in all_moves(rules):
            for seat in range(rules.seats):
                entry = MoveEntry(seat, move)
                assert parse_entry(str(entry), rules) == entry


@settings(max_examples=12, deadline=None)
@given(plan=plans(st.sampled_from(EVERY_PRESET)))
def test_it_round_trips_every_entry_of_random_games(plan: Plan) -> None:
    game = play_random(plan)
    record = game.record
    for entry, line in zip(record.entries, record.lines(), strict=True):
        assert parse_entry(line, plan.rules) == entry
        assert parse_entry(line) == entry
    assert Record(plan.seed, plan.rules, game.stop_mode, game.starter, record.entries) == record


@pytest.mark.parametrize("rules", EVERY_PRESET, ids=lambda r: r.preset)
def test_it_round_trips_a_classic_game_with_events_under_every_preset(rules: Rules) -> None:
    game = play_random(Plan(seed=11, rng_seed=5, rules=rules, classic=True))
    kinds = {type(entry) for entry in game.entries}
    assert MoveEntry in kinds
    for line in game.record.lines():
        assert str(parse_entry(line, rules)) == line


def test_the_record_in_the_notation_document_replays_to_its_export() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text()
    section = text.split("## The game record", 1)[1]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    record, export = blocks[0], blocks[1]
    entries = tuple(parse_entry(line) for line in record.splitlines())
    game = Game.from_record(Record(8, stop_mode=CLASSIC, entries=entries))
    assert game.export() == export
