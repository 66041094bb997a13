"""RULES.md §9: the rule options (V1-V13; V14 in test_variants_v14.py) and the presets
that combine them.

Each option is checked on a small position where it matters, with the option on
and off. The properties every preset must keep (cards never change, views hide
what is face down, documents round-trip, legal_moves agrees with refusal) run
over every preset in ``test_properties.py``; self-play per preset is here.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from dataclasses import fields, replace
from typing import Any

import pytest

from games.engine import (
    PRESETS,
    BadPosition,
    IllegalMove,
    Position,
    Rules,
    RulesClash,
    WrongStop,
    alternating_starter,
    call_stop,
    deal,
    from_document,
    replay,
    seed_commitment,
    to_document,
    turn_violations,
    view,
)
from games.engine.cards import card_name, full_pack, rank_of, suit_of
from games.engine.deal import SeedStream, cut_for_start, first_seat
from games.engine.rules import (
    OPTION_DESCRIPTIONS,
    PRESET_DESCRIPTIONS,
    STARTERS,
    clash,
    rules_from_document,
)
from games.engine.selfplay import play_random_game, selfplay
from tests.engine.builders import dealt_cards, document, legal, position
from tests.engine.rules_support import QUIET, refuse
from tests.engine.test_cli import ok, run
from tests.engine.test_selfplay_all_end import Game, check_the_end

PAGAT = PRESETS["pagat"]
TWO_PACKS = sorted(full_pack(0) + full_pack(1))


def with_options(**options: Any) -> Rules:
    """The pagat rules with some options changed."""
    return replace(PAGAT, **options)


def rules_doc(**options: Any) -> dict[str, Any]:
    """The ``rules`` field of a document: pagat with these options."""
    return {"preset": "pagat", **options}


# ------------------------------------------------------------------ V1 own waste


V1 = rules_doc(own_waste_available=True)


def waste_position(rules: Any, waste: str, **extra: Any) -> Position:
    """A to move with a hand and a waste; quiet houses unless given."""
    H = extra.pop("H", QUIET)
    A = {"reserve": "9C", "hand": "2D 5S", "waste": waste, **extra.pop("A", {})}
    return position(rules=rules, H=H, A=A, B=extra.pop("B", {"reserve": "6H", "hand": "4C"}))


def test_V1_own_waste_available_the_top_must_go_to_a_foundation() -> None:
    f = {1: "AS"}
    b = {"reserve": "8C", "hand": "4C"}
    on = position(rules=V1, H=QUIET, F=f, A={"reserve": "9C", "hand": "2D", "waste": "5D 2S"}, B=b)
    assert legal(on) == ["W-F1"]  # P2: nothing else while it fits
    for text in ("T", "R-OR"):
        refuse(on, text, "S2")
    on.play("W-F1")
    assert to_document(on)["A"]["waste"] == ["5D"]
    assert to_document(on)["foundations"][0] == ["AS", "2S"]

    off = position(H=QUIET, F=f, A={"reserve": "9C", "hand": "2D", "waste": "5D 2S"})
    assert "W-F1" not in legal(off) and "T" in legal(off)
    message = refuse(off, "W-F1", "S5")
    assert "waste" in message


def test_V1_own_waste_available_builds_on_houses_and_loads() -> None:
    houses = {**QUIET, 3: "8S"}
    b = {"reserve": "6H", "hand": "4C", "waste": "8H"}
    on = waste_position(V1, "5D 7H", H=houses, B=b)
    assert {"W-H3", "W-OR", "W-OW"} <= set(legal(on))  # 7H on 8S; on 6H and 8H
    assert not any(m.startswith("W-") and m not in ("W-H3", "W-OR", "W-OW") for m in legal(on))
    on.play("W-H3")
    assert on.turn_productive  # the mover got rid of a card (R8.4)
    assert to_document(on)["houses"][2] == ["8S", "7H"]

    off = waste_position("pagat", "5D 7H", H=houses, B=b)
    for text in ("W-H3", "W-OR", "W-OW"):
        refuse(off, text, "S5")


def test_V1_own_waste_available_fills_an_empty_house() -> None:
    houses = {**QUIET, 6: ""}
    on = waste_position(V1, "QD", H=houses, A={"reserve": ""})
    assert "W-H6" in legal(on)
    refuse(waste_position("pagat", "QD", H=houses, A={"reserve": ""}), "W-H6", "S5")


def test_V1_own_waste_available_but_nothing_goes_back_on_it() -> None:
    on = waste_position(V1, "5D 7H", H={**QUIET, 3: "8S"})
    refuse(on, "W-W", "S4")
    refuse(on, "H3-W", "S4")
    refuse(on, "W-R", "S4")
    empty = waste_position(V1, "")
    assert "your waste is empty" in refuse(empty, "W-H1", "S5")
    on.play("T")
    assert "C-W" in legal(on)  # the discard is still C-W
    on.play("C-W")
    assert to_document(on)["A"]["waste"][-1] == "5S"


def test_V1_own_waste_available_the_reserve_still_comes_first() -> None:
    f = {1: "AS", 2: "AH"}
    on = position(rules=V1, H=QUIET, F=f, A={"reserve": "2H", "hand": "4D", "waste": "2S"})
    assert legal(on) == ["R-F2"]
    refuse(on, "W-F1", "S1")
    on.play("R-F2")
    assert legal(on) == ["W-F1"]


def test_V1_own_waste_available_emptying_the_waste_can_win() -> None:
    on = position(rules=V1, H=QUIET, F={1: "AS"}, A={"waste": "2S"}, B={"hand": "4C"})
    on.play("W-F1")
    assert on.status == "won" and on.winner == 0


def test_V1_own_waste_available_stop_plays_the_waste_card() -> None:
    """Classic play: turning while the waste top fitted is S2; Stop! plays it (R7.2)."""
    start = position(rules=V1, H=QUIET, F={1: "AS"}, A={"hand": "4D", "waste": "2S"})
    moves = [start.parse("T"), start.parse("C-W")]
    assert turn_violations(start, moves) == ["S2", "S2"]  # the discard too
    after = call_stop(start, moves, 0)
    assert to_document(after)["foundations"][0] == ["AS", "2S"]
    assert after.to_move == 1


# ------------------------------------------------------------------ V2 reserve size


@pytest.mark.parametrize("size", [11, 12, 13])
def test_V2_reserve_size_the_deal_and_the_hand_follow(size: int) -> None:
    rules = rules_from_document(rules_doc(reserve_size=size))
    for seed in range(5):
        pos = deal(seed, rules)
        for seat in pos.seats:
            assert len(seat.reserve) == size
            assert len(seat.hand) == 52 - 4 - size
        assert all(len(h) == 1 for h in pos.houses)
        assert sorted(pos.cards()) == TWO_PACKS


def test_V2_reserve_size_is_written_only_when_it_differs_from_the_preset() -> None:
    assert to_document(deal(1))["rules"] == "pagat"
    doc = to_document(deal(1, with_options(reserve_size=11)))
    assert doc["rules"] == {"preset": "pagat", "reserve_size": 11}
    again = from_document(json.loads(json.dumps(doc)))
    assert again.rules.reserve_size == 11
    assert to_document(again) == doc


@pytest.mark.parametrize("bad", [10, 14, 0, 52, True, "12", 12.0, None])
def test_V2_reserve_size_a_document_allows_only_11_12_or_13(bad: object) -> None:
    with pytest.raises(BadPosition, match="reserve_size must be one of 11, 12, 13"):
        rules_from_document(rules_doc(reserve_size=bad))


def test_V2_reserve_size_other_sizes_can_still_be_built_in_code() -> None:
    pos = deal(3, with_options(reserve_size=5))
    assert [len(s.reserve) for s in pos.seats] == [5, 5]
    assert [len(s.hand) for s in pos.seats] == [43, 43]


# ------------------------------------------------------------------ V3 who starts


def starter_position(
    starter: str, a: str, b: str, houses: dict[int, str] | None = None
) -> Position:
    return position(
        rules=rules_doc(starter=starter),
        H=houses or QUIET,
        A={"reserve": f"3D {a}"},
        B={"reserve": f"4D {b}"},
    )


@pytest.mark.parametrize(
    ("a", "b", "starter"),
    [
        ("5S", "9H", 1),  # the higher rank starts
        ("AD", "QH", 0),  # ace high
        ("QH", "AD", 1),
        ("7S", "7H", 0),  # equal ranks: spades > hearts > diamonds > clubs
        ("7D", "7H", 1),
        ("7C", "7D", 1),
    ],
)
def test_V3_higher_reserve_starts_ace_high_then_by_suit(a: str, b: str, starter: int) -> None:
    pos = starter_position("higher_reserve", a, b)
    assert first_seat(pos, SeedStream(0)) == starter
    # Without aces, the standard rule (lower reserve, suits ignored) picks the other seat.
    lower = starter_position("lower_reserve", a, b)
    ranks = [rank_of(seat.reserve[-1]) for seat in lower.seats]
    if ranks[0] != ranks[1] and 1 not in ranks:
        assert first_seat(lower, SeedStream(0)) == 1 - starter


def test_V3_higher_reserve_identical_cards_compare_the_houses() -> None:
    houses = {**QUIET, 1: "4C", 5: "4H"}  # H1/H5: hearts outrank clubs, so B
    pos = starter_position("higher_reserve", "9S", "9S", houses)
    assert first_seat(pos, SeedStream(0)) == 1


def test_V3_tableau_ignores_the_reserve() -> None:
    houses = {1: "3C", 2: "4D", 3: "5S", 4: "QH", 5: "3H", 6: "2S", 7: "5D", 8: "JC"}
    # The reserves alone would let A start (2 < K); the houses say B (H6 2 < H2 4).
    pos = starter_position("tableau", "2S", "KS", houses)
    assert first_seat(pos, SeedStream(0)) == 1
    assert first_seat(starter_position("lower_reserve", "2S", "KS", houses), SeedStream(0)) == 0


def test_V3_tableau_a_complete_tie_is_settled_by_the_seed() -> None:
    houses = {1: "3C", 2: "4D", 3: "5S", 4: "QH", 5: "3H", 6: "4S", 7: "5D", 8: "QC"}
    pos = starter_position("tableau", "2S", "KS", houses)
    picks = {first_seat(pos, SeedStream(seed)) for seed in range(32)}
    assert picks == {0, 1}
    assert all(first_seat(pos, SeedStream(s)) == SeedStream(s).below(2) for s in range(32))


@pytest.mark.parametrize("higher", [False, True])
def test_V3_cut_lower_and_higher_follow_the_cut_cards(higher: bool) -> None:
    starter = "cut_higher" if higher else "cut_lower"
    rules = with_options(starter=starter)
    recuts = 0
    starters: Counter[int] = Counter()
    for seed in range(200):
        pos = deal(seed, rules)
        # The cut draws from the deal's stream after both packs are shuffled.
        stream = SeedStream(seed)
        for s in range(2):
            stream.shuffle(full_pack(s))
        seat, rounds = cut_for_start(stream, 2, higher=higher)
        assert pos.to_move == seat
        starters[seat] += 1
        for cards in rounds[:-1]:  # every round but the last is a tie
            assert rank_of(cards[0]) == rank_of(cards[1])
        last = [rank_of(c) for c in rounds[-1]]
        assert last[seat] == (max(last) if higher else min(last))
        assert last[0] != last[1]
        assert all(c >> 6 == s for cards in rounds for s, c in enumerate(cards))  # own pack
        recuts += len(rounds) - 1
        # The cut does not change the cards dealt.
        assert to_document(pos)["A"] == to_document(deal(seed))["A"]
    assert recuts > 0
    assert min(starters.values()) > 60


def test_V3_cut_suits_do_not_count() -> None:
    """Ties are on rank alone: a tied round may hold two suits."""
    suits_differ = False
    for seed in range(400):
        stream = SeedStream(seed)
        _, rounds = cut_for_start(stream, 2, higher=False)
        for cards in rounds[:-1]:
            suits_differ |= suit_of(cards[0]) != suit_of(cards[1])
    assert suits_differ


def test_V3_alternate_first_game_as_standard_later_games_named_by_the_caller() -> None:
    rules = with_options(starter="alternate")
    for seed in range(30):
        first = deal(seed, rules)
        assert first.to_move == deal(seed).to_move  # game 1: R3
        for game in range(1, 4):
            starter = alternating_starter(first.to_move, game)
            later = deal(seed, rules, starter=starter)
            assert later.to_move == starter == (first.to_move + game) % 2
            assert later.seats == first.seats and later.houses == first.houses
            assert replay(seed, [], rules, starter=starter) == later


def test_V3_the_command_line_names_the_starter() -> None:
    for letter in "AB":
        doc = json.loads(ok("deal", "--seed", "4", "--rules", "pagat", "--starter", letter))
        assert doc["to_move"] == letter
        assert doc["A"] == to_document(deal(4))["A"]
    result = run("deal", "--seed", "4", "--starter", "C")
    assert result.returncode == 2
    assert json.loads(result.stdout)["error"] == "BAD_INPUT"
    wikipedia = json.loads(ok("deal", "--seed", "4", "--rules", "wikipedia"))
    assert wikipedia["rules"] == "wikipedia"
    assert wikipedia["to_move"] == "AB"[deal(4, PRESETS["wikipedia"]).to_move]


def test_V3_a_named_starter_must_be_a_seat() -> None:
    with pytest.raises(ValueError, match="no seat"):
        deal(1, starter=2)


@pytest.mark.parametrize("starter", STARTERS)
def test_V3_every_starter_round_trips_and_the_default_is_not_written(starter: str) -> None:
    doc = to_document(deal(8, with_options(starter=starter)))
    if starter == "lower_reserve":
        assert doc["rules"] == "pagat"
    else:
        assert doc["rules"] == {"preset": "pagat", "starter": starter}
    assert from_document(doc).rules.starter == starter


@pytest.mark.parametrize("bad", ["lower", "", 1, True, None, ["cut_lower"]])
def test_V3_starter_refuses_unknown_values(bad: object) -> None:
    with pytest.raises(BadPosition, match="starter must be one of lower_reserve"):
        rules_from_document(rules_doc(starter=bad))


# ------------------------------------------------------------------ V4 strict release

V4 = rules_doc(strict_release="on")
V4_FEWEST = rules_doc(strict_release="fewest")


def buried_position(rules: Any, **extra: Any) -> Position:
    """The 3♠ on H3 fits F1 (A♠ 2♠) under the 9♥; the T♣ on H4 takes the 9♥."""
    return position(
        rules=rules,
        F={1: "AS 2S"},
        H={**QUIET, 3: "3S 9H", 4: "TC", **extra.pop("H", {})},
        A={"reserve": "QD 9D", "hand": "5S 3D", **extra.pop("A", {})},
        B={"reserve": "QH", "hand": "4C", **extra.pop("B", {})},
        **extra,
    )


def test_V4_strict_release_the_covering_card_must_move() -> None:
    on = buried_position(V4)
    assert legal(on) == ["H3-H4"]
    for text in ("T", "R-H4"):
        message = refuse(on, text, "S8")
        assert "3♠" in message and "H3" in message and "released" in message
    on.play("H3-H4")
    assert legal(on) == ["H3-F1"]  # released: P2 takes over
    on.play("H3-F1")
    assert "R-H3" in legal(on)  # nothing else buried: the usual rules again (P3 here)
    off = buried_position("pagat")
    assert {"H3-H4", "R-H4", "T"} <= set(legal(off))  # R6.1: no need to dig it out


def test_V4_strict_release_only_when_every_covering_card_can_move() -> None:
    """The 9♥ and the 9♣ above it: the 9♣ has nowhere to go, so nothing is compulsory."""
    stuck = buried_position(V4, H={3: "3S 9H 9C"})
    assert "T" in legal(stuck)
    assert stuck.rules.strict_release == "on"
    # A load, a space and a house top are all places a covering card may go.
    loaded = buried_position(V4, H={4: "QC"}, B={"reserve": "QH", "waste": "TH"})
    assert legal(loaded) == ["H3-OW"]  # 9♥ on the T♥ of B's waste
    spaced = buried_position(V4, H={4: "QC", 6: ""})
    assert legal(spaced) == ["H3-H6"]


def test_V4_strict_release_of_several_cards() -> None:
    """Two covering cards: the 8♣ goes on the 9♦, then the 9♥ on the T♣."""
    on = buried_position(V4, H={3: "3S 9H 8C", 5: "9D"})
    assert legal(on) == ["H3-H5"]
    on.play("H3-H5")
    assert legal(on) == ["H3-H4"]
    on.play("H3-H4")
    assert legal(on) == ["H3-F1"]
    # The 8♣ could go on the 9♦ first only: the 9♥ cannot go on the 9♦ after it.
    blocked = buried_position(V4, H={3: "3S 9H 8C", 5: "9D", 4: "QC"})
    assert "T" in legal(blocked)


def test_V4_strict_release_the_mover_chooses_or_the_fewest_moves() -> None:
    """Two buried cards: the 3♠ (one card on it) and the A♥ (two cards on it)."""
    extra = {"H": {5: "AH 6D 9S", 6: "7C", 7: "TD"}}
    on = buried_position(V4, **extra)
    assert legal(on) == ["H3-H4", "H5-H7"]
    fewest = buried_position(V4_FEWEST, **extra)
    assert legal(fewest) == ["H3-H4"]
    message = refuse(fewest, "H5-H7", "S8")
    assert "fewest moves" in message


def test_V4_strict_release_fewest_counts_a_group_move_once() -> None:
    """Under V10 the run 9♥ 8♣ goes onto the T♣ in one move; the A♥ needs two."""
    rules = rules_doc(strict_release="fewest", group_moves=True)
    pos = buried_position(rules, H={3: "3S 9H 8C", 5: "AH 6D 9S", 6: "7C", 7: "TD"})
    assert legal(pos) == ["H3-H4"]
    pos.play("H3-H4")
    assert to_document(pos)["houses"][3] == ["TC", "9H", "8C"]


def test_V4_strict_release_never_onto_another_buried_card() -> None:
    """The 9♥ fits the T♣ on H5, but H5 holds the buried A♥: that would only bury it
    deeper, and the two could trade cards for ever. The A♥'s release is compulsory."""
    on = buried_position(V4, H={4: "QC", 5: "AH TC", 6: "JH"})
    assert legal(on) == ["H5-H6"]
    on.play("H5-H6")
    assert legal(on) == [f"H5-F{i}" for i in range(2, 9)]


def test_V4_strict_release_waits_for_foundation_moves() -> None:
    on = buried_position(V4, H={7: "AD"})
    assert legal(on) == [f"H7-F{i}" for i in range(2, 9)]
    refuse(on, "H3-H4", "S2")


def test_V4_strict_release_the_discard_waits() -> None:
    on = buried_position(V4, A={"turned": "5S"})
    assert legal(on) == ["H3-H4"]
    assert "discard" in refuse(on, "C-W", "S8")


def test_V4_strict_release_stop_carries_out_the_release() -> None:
    start = buried_position(V4)
    moves = [start.parse("T"), start.parse("C-W")]
    assert turn_violations(start, moves) == ["S8", "S8"]
    after = call_stop(start, moves, 0)
    assert to_document(after)["houses"][3] == ["TC", "9H"]
    assert to_document(after)["A"]["hand"] == ["5S", "3D"]
    assert after.to_move == 1
    several = buried_position(V4, H={5: "AH 6D 9S", 6: "7C", 7: "TD"})
    moves = [several.parse("T")]
    choice = several.parse("H5-H7")
    after = call_stop(several, moves, 0, choice)
    assert to_document(after)["houses"][6] == ["TD", "9S"]
    with pytest.raises(WrongStop):
        call_stop(several, moves, 0, several.parse("R-H4"))


def test_V4_strict_release_lapses_at_the_turn_cap_and_for_the_lenient_turn() -> None:
    capped = buried_position(V4, engine={"turn_moves": 500})
    assert "T" in legal(capped)
    lenient = buried_position(rules_doc(strict_release="on", lenient_turn=True))
    assert legal(lenient) == ["H3-H4", "T"]


def test_V4_strict_release_round_trips_and_refuses_bad_values() -> None:
    for value in ("on", "fewest"):
        rules = with_options(strict_release=value)
        pos = deal(4, rules)
        doc = to_document(pos)
        assert doc["rules"] == {"preset": "pagat", "strict_release": value}
        assert from_document(json.loads(json.dumps(doc))) == pos
        assert rules.priority_violations == {"S1", "S2", "S3", "S8"}
    assert to_document(deal(4, with_options(strict_release="off")))["rules"] == "pagat"
    for bad in (True, "yes", 1, None, ""):
        with pytest.raises(BadPosition, match="strict_release must be one of off, on, fewest"):
            rules_from_document(rules_doc(strict_release=bad))


# ------------------------------------------------------------------ V5 compulsory loading

V5 = rules_doc(compulsory_loading=True)


def loading_position(rules: Any, **extra: Any) -> Position:
    """The 7♥ on H3 can load B's reserve (8♥); the 6♣ on H7 could go on the 7♥."""
    return position(
        rules=rules,
        H={**QUIET, 3: "5C 7H", 7: "6C", **extra.pop("H", {})},
        A={"reserve": "9C 2D", "hand": "5S 3D", **extra.pop("A", {})},
        B={"reserve": "8H", "hand": "4C", **extra.pop("B", {})},
        **extra,
    )


def test_V5_compulsory_loading_comes_before_other_moves() -> None:
    on = loading_position(V5)
    assert legal(on) == ["H3-OR"]
    for text in ("H7-H3", "T"):
        message = refuse(on, text, "S6")
        assert "7♥" in message and "reserve" in message
    off = loading_position("pagat")
    assert {"H3-OR", "H7-H3", "T"} <= set(legal(off))


def test_V5_compulsory_loading_the_mover_chooses_and_loading_goes_on() -> None:
    on = loading_position(V5, B={"reserve": "8H", "waste": "3D"}, A={"reserve": "9C 2D"})
    assert legal(on) == ["H3-OR", "R-OW"]  # 7♥ on 8♥, 2♦ on 3♦
    on.play("R-OW")
    assert legal(on) == ["H3-OR"]  # the 9♣ loads nothing; the 7♥ still does
    on.play("H3-OR")
    assert "T" in legal(on)  # nothing left to load


def test_V5_compulsory_loading_the_turned_card_instead_of_the_discard() -> None:
    on = loading_position(V5, H={3: "QC"}, A={"hand": "5S 7H"})
    assert "T" in legal(on)
    on.play("T")  # the 7♥ turned: it fits B's 8♥
    assert legal(on) == ["C-OR"]
    assert "discard" in refuse(on, "C-W", "S6")
    start = loading_position(V5, H={3: "QC"}, A={"hand": "5S 7H"})
    moves = [start.parse("T"), start.parse("C-W")]
    assert turn_violations(start, moves) == [None, "S6"]
    after = call_stop(start, moves, 1)  # Stop!: the 7♥ is loaded instead
    assert to_document(after)["B"]["reserve"] == ["8H", "7H"]
    assert after.to_move == 1


def test_V5_compulsory_loading_foundation_moves_still_come_first() -> None:
    on = loading_position(V5, H={5: "AS"})
    assert legal(on) == [f"H5-F{i}" for i in range(1, 9)]
    refuse(on, "H3-OR", "S2")
    on.play("H5-F1")
    assert legal(on) == ["H3-OR"]


def test_V5_compulsory_loading_blocks_E() -> None:
    on = loading_position(V5, A={"reserve": "", "hand": ""})
    assert legal(on) == ["H3-OR"]
    refuse(on, "E", "S6")
    on.play("H3-OR")
    assert legal(on) == ["E"]


def test_V5_compulsory_loading_stop_on_another_move() -> None:
    start = loading_position(V5)
    moves = [start.parse("H7-H3")]
    assert turn_violations(start, moves) == ["S6"]
    after = call_stop(start, moves, 0)
    assert to_document(after)["B"]["reserve"] == ["8H", "7H"]
    assert to_document(after)["houses"][6] == ["6C"]


def test_V5_compulsory_loading_lapses_at_the_turn_cap() -> None:
    capped = loading_position(V5, engine={"turn_moves": 500})
    assert "T" in legal(capped)
    capped.play("T")


def test_V5_compulsory_loading_with_the_lenient_turn() -> None:
    both = loading_position(rules_doc(compulsory_loading=True, lenient_turn=True))
    assert legal(both) == ["H3-OR", "T"]
    both.play("T")
    assert legal(both) == ["H3-OR"]


# ------------------------------------------------------------------ V12 reserve to a house

V12 = rules_doc(reserve_to_house_compulsory=True)


def reserve_position(rules: Any, **extra: Any) -> Position:
    """A's reserve card 7♥ fits the 8♠ on H3; the 6♣ on H7 could go on the 7♦ on H4."""
    return position(
        rules=rules,
        H={**QUIET, 3: "8S", 4: "7D", 7: "6C", **extra.pop("H", {})},
        A={"reserve": "9C 7H", "hand": "5S 3D", **extra.pop("A", {})},
        B={"reserve": "QH", "hand": "4C", **extra.pop("B", {})},
        **extra,
    )


def test_V12_reserve_to_house_compulsory_before_other_moves() -> None:
    on = reserve_position(V12)
    assert legal(on) == ["R-H3"]
    for text in ("H7-H4", "T"):
        message = refuse(on, text, "S7")
        assert "7♥" in message and "H3" in message
    on.play("R-H3")
    assert "H7-H4" in legal(on) and "T" in legal(on)  # the 9♣ fits no house
    off = reserve_position("pagat")
    assert {"R-H3", "H7-H4", "T"} <= set(legal(off))


def test_V12_reserve_to_house_compulsory_an_empty_house_counts() -> None:
    on = reserve_position(V12, H={3: "QC", 6: ""})
    assert legal(on) == ["R-H6"]
    refuse(on, "T", "S7")  # S7 names the omitted move; P3 (S3) would also forbid it
    refuse(reserve_position("pagat", H={3: "QC", 6: ""}), "T", "S3")


def test_V12_reserve_to_house_compulsory_after_foundation_moves() -> None:
    on = reserve_position(V12, H={5: "AS"})
    assert legal(on) == [f"H5-F{i}" for i in range(1, 9)]
    refuse(on, "R-H3", "S2")


def test_V12_reserve_to_house_compulsory_the_discard_waits() -> None:
    on = reserve_position(V12, A={"turned": "5S"})
    assert legal(on) == ["R-H3"]
    assert "discard" in refuse(on, "C-W", "S7")
    on.play("R-H3")
    assert "C-W" in legal(on)


def test_V12_reserve_to_house_compulsory_stop() -> None:
    start = reserve_position(V12)
    moves = [start.parse("H7-H4")]
    assert turn_violations(start, moves) == ["S7"]
    after = call_stop(start, moves, 0)
    assert to_document(after)["houses"][2] == ["8S", "7H"]
    assert after.to_move == 1


def test_V12_reserve_to_house_compulsory_lapses_at_the_turn_cap() -> None:
    capped = reserve_position(V12, engine={"turn_moves": 500})
    assert "T" in legal(capped)


def test_V5_and_V12_together_loading_comes_first() -> None:
    both = reserve_position(
        rules_doc(compulsory_loading=True, reserve_to_house_compulsory=True),
        B={"reserve": "5C"},  # the 6♣ on H7 can load it
    )
    assert legal(both) == ["H7-OR"]
    refuse(both, "R-H3", "S6")
    both.play("H7-OR")
    assert legal(both) == ["R-H3", "R-H7"]  # the 7♥ fits the 8♠ and the emptied H7


# ------------------------------------------------------------------ V6 make spaces

V6 = rules_doc(make_spaces=True)


def spaces_position(rules: Any, **extra: Any) -> Position:
    """No house is empty; the 7♥ alone on H5 could go onto the 8♠ on H3."""
    return position(
        rules=rules,
        H={**QUIET, 3: "8S", 5: "7H", **extra.pop("H", {})},
        A={"reserve": "9C 2D", "hand": "5S 3D", **extra.pop("A", {})},
        B={"reserve": "2C", "hand": "4C", **extra.pop("B", {})},
        **extra,
    )


def test_V6_make_spaces_before_turning() -> None:
    on = spaces_position(V6)
    assert "T" not in legal(on)
    message = refuse(on, "T", "S9")
    assert "H5" in message and "reserve" in message
    assert "H5-H3" in legal(on)  # the other moves stay open, as under P3
    on.play("H5-H3")
    refuse(on, "T", "S3")  # the space is made: P3 fills it
    on.play("R-H5")  # the 2♦ fits nowhere, so no new space can be made
    assert "T" in legal(on)
    off = spaces_position("pagat")
    assert "T" in legal(off)


def test_V6_make_spaces_as_many_as_possible() -> None:
    """After the 7♥ goes, the reserve's 6♣ fills H5 and can itself go on the 7♥:
    another space, filled by the 2♦."""
    on = spaces_position(V6, A={"reserve": "9C 2D 6C"})
    for text in ("H5-H3", "R-H5"):
        on.play(text)
        refuse(on, "T", "S3" if text == "H5-H3" else "S9")
    on.play("H5-H3")
    on.play("R-H5")
    assert to_document(on)["houses"][2] == ["8S", "7H", "6C"]
    assert "T" in legal(on)


def test_V6_make_spaces_by_loading_and_with_several_cards() -> None:
    loads = spaces_position(V6, H={3: "QC"}, B={"reserve": "2C", "waste": "8H"})
    refuse(loads, "T", "S9")  # the 7♥ loads B's waste
    assert "H5-OW" in legal(loads)
    # Two cards: the 8♣ goes on the 9♥, then the 9♦ on the T♠.
    two = spaces_position(V6, H={5: "9D 8C", 3: "9H", 6: "TS"})
    refuse(two, "T", "S9")
    assert legal(two).count("H5-H3") == 1
    # Without the 9♥ the 8♣ has nowhere to go, so H5 cannot be emptied.
    assert "T" in legal(spaces_position(V6, H={5: "9D 8C", 6: "TS"}))


def test_V6_make_spaces_only_while_the_reserve_has_cards() -> None:
    on = spaces_position(V6, A={"reserve": ""})
    assert "T" in legal(on)


def test_V6_make_spaces_stop_makes_the_space() -> None:
    start = spaces_position(V6)
    moves = [start.parse("T"), start.parse("C-W")]
    assert turn_violations(start, moves) == ["S9", None]
    after = call_stop(start, moves, 0)
    assert to_document(after)["houses"][4] == []
    assert to_document(after)["houses"][2] == ["8S", "7H"]
    assert to_document(after)["A"]["hand"] == ["5S", "3D"]
    assert after.to_move == 1


def test_V6_make_spaces_lapses_at_the_turn_cap_and_for_the_lenient_turn() -> None:
    assert "T" in legal(spaces_position(V6, engine={"turn_moves": 500}))
    lenient = spaces_position(rules_doc(make_spaces=True, lenient_turn=True))
    assert "T" in legal(lenient)
    lenient.play("T")
    assert "C-W" in legal(lenient)  # V6 holds back only the turning


def test_pagat_strict_preset_is_V4_V5_V6() -> None:
    strict = PRESETS["pagat-strict"]
    assert strict == replace(
        PAGAT,
        preset="pagat-strict",
        strict_release="on",
        compulsory_loading=True,
        make_spaces=True,
    )
    assert strict.priority_violations == {"S1", "S2", "S3", "S6", "S8", "S9"}
    # Release (rule 1) before loading (rule 2): the 9♥ covering the 3♠ must move
    # even though the 7♥ on H5 could load B's reserve.
    pos = buried_position("pagat-strict", H={5: "7H"}, B={"reserve": "6H"})
    assert legal(pos) == ["H3-H4"]
    refuse(pos, "H5-OR", "S8")
    pos.play("H3-H4")
    pos.play("H3-F1")
    assert legal(pos) == ["H5-OR"]  # now loading
    pos.play("H5-OR")
    refuse(pos, "T", "S3")  # H3 and H5 are empty: P3
    pos.play("R-H3")
    pos.play("R-H5")
    assert to_document(pos)["houses"][4] == ["QD"]


# ------------------------------------------------------------------ V7 face-down tableau

V7 = rules_doc(face_down_tableau=1)
V7_STRICT = rules_doc(face_down_tableau=1, uncover_compulsory=True)


def face_down_position(rules: Any, down: dict[int, str], **extra: Any) -> Position:
    """Houses with face-down cards under them (``down``: house number -> cards)."""
    doc = document(
        rules=rules,
        H={**QUIET, 3: "9H", 4: "TC", **extra.pop("H", {})},
        A={"reserve": "QD 9D", "hand": "5S 3D", **extra.pop("A", {})},
        B={"reserve": "2C", "hand": "4C", **extra.pop("B", {})},
        **extra,
    )
    doc["engine"] = {
        **doc.get("engine", {}),
        "houses_down": [down.get(i, "").split() for i in range(1, 9)],
    }
    return from_document(doc)


@pytest.mark.parametrize("rows", [1, 2])
def test_V7_face_down_tableau_the_deal(rows: int) -> None:
    rules = with_options(face_down_tableau=rows)
    for seed in range(5):
        pos = deal(seed, rules)
        assert [len(p) for p in pos.houses_down] == [rows] * 8
        assert all(len(p) == 1 for p in pos.houses)
        assert [len(s.hand) for s in pos.seats] == [35 - 4 * rows] * 2
        assert sorted(pos.cards()) == TWO_PACKS
        # The reserve, then the face-down rows, then the face-up row, from each pack.
        stream = SeedStream(seed)
        for s, seat in enumerate(pos.seats):
            pack = full_pack(s)
            stream.shuffle(pack)
            assert seat.reserve == pack[:13]
            below = pack[13 : 13 + 4 * rows]
            assert [pos.houses_down[4 * s + k] for k in range(4)] == [below[k::4] for k in range(4)]
            assert [pos.houses[4 * s + k] for k in range(4)] == [
                [c] for c in pack[13 + 4 * rows : 17 + 4 * rows]
            ]
    # Without the option the deal is as before, card for card.
    assert to_document(deal(7, with_options(face_down_tableau=0))) == to_document(deal(7))


def test_V7_face_down_tableau_a_card_turns_up_when_uncovered() -> None:
    pos = face_down_position(V7, {3: "2D 5C"})
    pos.play("H3-H4")  # the 9♥ onto the T♣
    doc = to_document(pos)
    assert doc["houses"][2] == ["5C"]  # the top face-down card, turned up
    assert doc["engine"]["houses_down"][2] == ["2D"]
    assert view(pos)["houses_down"][2] == 1
    # A run moved as a group (V10) uncovers the card too.
    grouped = face_down_position(
        rules_doc(face_down_tableau=1, group_moves=True), {3: "2D"}, H={3: "9H 8C"}
    )
    grouped.play("H3-H4")
    assert to_document(grouped)["houses"][2] == ["2D"]
    assert to_document(grouped)["engine"]["houses_down"][2] == []


def test_V7_face_down_tableau_views_show_only_a_count() -> None:
    pos = deal(11, with_options(face_down_tableau=2))
    hidden = {card_name(c) for pile in pos.houses_down for c in pile}
    up = {card_name(c) for pile in pos.houses for c in pile}
    for viewer in (0, 1, None):
        seen = view(pos, viewer)
        assert seen["houses_down"] == [2] * 8
        text = json.dumps(seen)
        for name in hidden - up:
            assert f'"{name}"' not in text
    assert "houses_down" not in view(deal(11))


def test_V7_face_down_tableau_uncovering_is_compulsory_with_the_fourth_rule() -> None:
    on = face_down_position(V7_STRICT, {3: "5C"})
    assert legal(on) == ["H3-H4"]
    message = refuse(on, "T", "S10")
    assert "face-down" in message and "H3" in message
    on.play("H3-H4")
    assert "T" in legal(on)  # the 5♣ is up; nothing else lies face down
    off = face_down_position(V7, {3: "5C"})
    assert {"H3-H4", "T"} <= set(legal(off))


def test_V7_face_down_tableau_uncovering_uses_empty_houses_not_other_face_down_cards() -> None:
    spaced = face_down_position(V7_STRICT, {3: "5C"}, H={4: "QC", 6: ""})
    assert legal(spaced) == ["H3-H6"]
    # The T♣ lies on a face-down card too: putting the 9♥ there would only cover it.
    both = face_down_position(V7_STRICT, {3: "5C", 4: "6C"}, H={5: "JD"})
    assert legal(both) == ["H4-H5"]  # the T♣ onto the J♦ uncovers H4
    stuck = face_down_position(V7_STRICT, {3: "5C", 4: "6C"})
    assert "T" in legal(stuck)


def test_V7_face_down_tableau_foundations_come_first_then_the_other_strict_rules() -> None:
    first = face_down_position(V7_STRICT, {3: "5C"}, H={7: "AD"})
    assert legal(first) == [f"H7-F{i}" for i in range(1, 9)]
    refuse(first, "H3-H4", "S2")
    # pagat's order: release (S8), then loading (S6), then uncovering (S10).
    preset = face_down_position("pagat-face-down", {3: "5C"}, H={5: "7H"}, B={"reserve": "6H"})
    assert legal(preset) == ["H5-OR"]
    refuse(preset, "H3-H4", "S6")
    preset.play("H5-OR")
    assert legal(preset) == ["H3-H4", "H3-H5"]  # onto the T♣, or into the new space


def test_V7_face_down_tableau_stop_uncovers() -> None:
    start = face_down_position(V7_STRICT, {3: "5C"})
    moves = [start.parse("T")]
    assert turn_violations(start, moves) == ["S10"]
    after = call_stop(start, moves, 0)
    assert to_document(after)["houses"][2] == ["5C"]
    assert after.to_move == 1


def test_V7_face_down_tableau_a_house_with_face_down_cards_is_no_space_for_V6() -> None:
    rules = rules_doc(face_down_tableau=1, make_spaces=True)
    down = {k: f"{rank}S" for k, rank in zip(range(1, 9), "23456789", strict=True)}
    pos = face_down_position(rules, down, H={3: "9H", 4: "TC"})
    assert "T" in legal(pos)  # the 9♥ can move, but H3 would not be empty


def test_V7_face_down_tableau_documents() -> None:
    pos = deal(9, with_options(face_down_tableau=2, uncover_compulsory=True))
    doc = to_document(pos)
    assert doc["rules"] == {"preset": "pagat", "face_down_tableau": 2, "uncover_compulsory": True}
    assert [len(p) for p in doc["engine"]["packs"]["houses_down"]] == [2] * 8
    assert from_document(json.loads(json.dumps(doc))) == pos
    assert "houses_down" not in to_document(deal(9))["engine"]
    # A house cannot lie empty on top of face-down cards.
    bad = to_document(pos)
    bad["houses"][0] = []
    del bad["engine"]["packs"]
    with pytest.raises(BadPosition, match="houses_down"):
        from_document(bad)
    for value in (3, -1, True, "1", None):
        with pytest.raises(BadPosition, match="face_down_tableau must be one of 0, 1, 2"):
            rules_from_document(rules_doc(face_down_tableau=value))
    assert PRESETS["pagat-face-down"].priority_violations == {
        "S1",
        "S2",
        "S3",
        "S6",
        "S8",
        "S9",
        "S10",
    }


# ------------------------------------------------------------------ V8 lenient turn

V8 = rules_doc(lenient_turn=True)


def space_position(rules: Any, turn_moves: int = 0) -> Position:
    """H6 is empty and A's reserve is not: P3 forbids turning."""
    return position(
        rules=rules,
        H={**QUIET, 6: "", 3: "8S"},
        A={"reserve": "9C 5H", "hand": "2D 7H"},
        B={"reserve": "6H", "hand": "4C"},
        engine={"turn_moves": turn_moves} if turn_moves else None,
    )


def test_V8_lenient_turn_at_the_start_despite_an_empty_house() -> None:
    refuse(space_position("pagat"), "T", "S3")
    on = space_position(V8)
    assert "T" in legal(on)
    on.play("T")  # the 7♥: it may go on the 8♠ or fill the space
    assert {"C-H3", "C-H6", "R-H6"} <= set(legal(on))
    on.play("C-H3")
    refuse(on, "T", "S3")  # no longer the start of the turn: P3 again


def test_V8_lenient_turn_only_as_the_first_action() -> None:
    refuse(space_position(V8, turn_moves=1), "T", "S3")
    two_spaces = position(
        rules=V8,
        H={**QUIET, 6: "", 7: ""},
        A={"reserve": "9C 5H", "hand": "2D 7H"},
        B={"reserve": "6H", "hand": "4C"},
    )
    two_spaces.play("R-H6")
    refuse(two_spaces, "T", "S3")  # H7 is still empty and the turn has begun


def foundation_position(rules: Any, reserve: str = "9C 5H") -> Position:
    """The A♠ on H3 fits a foundation: P2 forbids turning."""
    return position(
        rules=rules,
        H={**QUIET, 3: "AS"},
        A={"reserve": reserve, "hand": "2D 7H"},
        B={"reserve": "6H", "hand": "4C"},
    )


def test_V8_lenient_turn_before_a_foundation_move() -> None:
    refuse(foundation_position("pagat"), "T", "S2")
    on = foundation_position(V8)
    assert legal(on) == sorted([*(f"H3-F{i}" for i in range(1, 9)), "T"])
    on.play("T")
    # The foundation move is still compulsory: no discard, no other move before it.
    assert legal(on) == sorted(f"H3-F{i}" for i in range(1, 9))
    refuse(on, "C-W", "S2")
    on.play("H3-F1")
    assert "C-W" in legal(on)


def test_V8_lenient_turn_before_the_reserve_card_goes_up() -> None:
    refuse(foundation_position("pagat", "9C AH"), "T", "S1")
    on = foundation_position(V8, "9C AH")
    assert "T" in legal(on)
    on.play("T")
    assert legal(on) == sorted(f"R-F{i}" for i in range(1, 9))


def test_V8_lenient_turn_is_not_a_stop() -> None:
    start = space_position(V8)
    moves = [start.parse("T"), start.parse("C-W")]
    assert turn_violations(start, moves) == [None, None]
    with pytest.raises(WrongStop):
        call_stop(start, moves, 0)


# ------------------------------------------------------------------ V9 reserve face down

V9 = rules_doc(reserve_face_down=True)


def face_down_reserve(rules: Any, **extra: Any) -> Position:
    """Both reserves face down; the A♦ on H7 fits a foundation."""
    doc = document(
        rules=rules,
        H={**QUIET, 3: "8S", 7: "AD", **extra.pop("H", {})},
        A={"reserve": "9C 7H", "hand": "5S 3D", **extra.pop("A", {})},
        B={"reserve": "QD 6S", "hand": "4C", **extra.pop("B", {})},
        **extra,
    )
    doc["engine"] = {"reserve_down": {"A": True, "B": True}}
    return from_document(doc)


def test_V9_reserve_face_down_the_tableau_goes_to_the_foundations_first() -> None:
    on = face_down_reserve(V9)
    assert on.seats[0].reserve_down and not on.seats[0].reserve
    assert legal(on) == [f"H7-F{i}" for i in range(1, 9)]
    message = refuse(on, "R-H3", "S5")
    assert "face down" in message
    assert view(on, 0)["A"]["reserve"] == {"count": 2, "top": None}
    on.play("H7-F1")  # nothing else fits: A's reserve is turned up
    assert to_document(on)["engine"]["reserve_down"] == {"A": False, "B": True}
    assert view(on, 1)["A"]["reserve"] == {"count": 2, "top": "7H"}
    assert "R-H3" in legal(on)  # the 7♥ onto the 8♠
    # B's reserve stays face down until B's own turn: it cannot be loaded.
    assert "face down" in refuse(on, "R-OR", "S4")
    off = position(
        H={**QUIET, 3: "8S", 7: "AD"},
        A={"reserve": "9C 7H", "hand": "5S 3D"},
        B={"reserve": "QD 6S", "hand": "4C"},
    )
    refuse(off, "R-H3", "S2")  # the reserve card is there, but the A♦ comes first


def test_V9_reserve_face_down_then_P1() -> None:
    """Once turned up, a reserve card that fits a foundation must go first (P1)."""
    on = face_down_reserve(V9, A={"reserve": "9C 2D"})
    on.play("H7-F1")
    assert legal(on) == ["R-F1"]


def test_V9_reserve_face_down_turned_up_at_the_start_of_each_seat_first_turn() -> None:
    on = face_down_reserve(V9, H={7: "KD"})  # no house card fits a foundation
    assert on.seats[0].reserve and not on.seats[0].reserve_down  # A's, at once
    assert on.seats[1].reserve_down
    on.play("T")
    on.play("C-W")
    assert on.to_move == 1  # B's first turn: B's reserve is turned up at its start
    assert to_document(on)["engine"]["reserve_down"] == {"A": False, "B": False}
    assert view(on, 0)["B"]["reserve"] == {"count": 2, "top": "6S"}


def test_V9_reserve_face_down_the_deal_and_who_starts() -> None:
    rules = with_options(reserve_face_down=True)
    for seed in range(20):
        pos = deal(seed, rules)
        plain = deal(seed)
        assert sorted(pos.cards()) == TWO_PACKS
        starter, other = pos.seats[pos.to_move], pos.seats[1 - pos.to_move]
        assert other.reserve_down == plain.seats[1 - pos.to_move].reserve
        aces = any(rank_of(h[-1]) == 1 for h in pos.houses)
        assert bool(starter.reserve_down) == aces
        # Who starts looks at the houses only, as if the reserve cards tied (R3.2).
        tied = [h[0] for h in pos.houses]
        a, b = [rank_of(c) for c in tied[:4]], [rank_of(c) for c in tied[4:]]
        if a != b:
            assert pos.to_move == (0 if a < b else 1)
        for viewer in (0, 1, None):
            assert view(pos, viewer)[pos.seat_name(1 - pos.to_move)]["reserve"]["top"] is None
        assert from_document(json.loads(json.dumps(to_document(pos)))) == pos


def test_V9_reserve_face_down_documents() -> None:
    doc = to_document(face_down_reserve(V9))
    assert doc["A"]["reserve"] == ["9C", "7H"]  # the referee lists every card
    assert doc["engine"]["reserve_down"] == {"A": True, "B": True}
    assert "reserve_down" not in to_document(deal(1))["engine"]
    for bad in ({"A": 1}, ["A"], {"A": "yes"}):
        doc["engine"]["reserve_down"] = bad
        with pytest.raises(BadPosition, match="reserve_down"):
            from_document(doc)


# ------------------------------------------------------------------ V10 group moves

V10 = rules_doc(group_moves=True)


def run_position(rules: Any, **extra: Any) -> Position:
    """H3 holds the run 9♠ 8♥ 7♣; the 9♣ on H5 takes the 8♥; H6 is empty."""
    return position(
        rules=rules,
        H={**QUIET, 3: "9S 8H 7C", 5: "TD 9C", 6: "", **extra.pop("H", {})},
        A={"reserve": "", "hand": "2D 5S", **extra.pop("A", {})},
        B={"reserve": "QH", "hand": "4C"},
        **extra,
    )


def test_V10_group_moves_a_run_goes_onto_a_house() -> None:
    on = run_position(V10)
    assert "H3-H5" in legal(on)
    on.play("H3-H5")
    doc = to_document(on)
    assert doc["houses"][2] == ["9S"]
    assert doc["houses"][4] == ["TD", "9C", "8H", "7C"]
    assert not on.turn_productive  # cards moving among houses (R8.4)
    off = run_position("pagat")
    assert "alternating colours" in refuse(off, "H3-H5", "S4")


def test_V10_group_moves_an_empty_house_takes_the_top_card_alone() -> None:
    on = run_position(V10)
    on.play("H3-H6")
    doc = to_document(on)
    assert doc["houses"][2] == ["9S", "8H"]
    assert doc["houses"][5] == ["7C"]


def test_V10_group_moves_only_a_run_in_sequence() -> None:
    """The 8♥ does not fit on the J♥: the J♥ is not part of the run 8♥ 7♣."""
    on = run_position(V10, H={3: "TC JH 8H 7C", 5: "QS"})
    assert "H3-H5" not in legal(on)  # the Q♠ would take the J♥, were it in the run
    refuse(on, "H3-H5", "S4")
    on = run_position(V10, H={3: "TC JH 8H 7C"})
    on.play("H3-H5")  # the 9♣ takes the 8♥ 7♣
    assert to_document(on)["houses"][2] == ["TC", "JH"]


def test_V10_group_moves_with_same_suit_houses() -> None:
    rules = rules_doc(group_moves=True, houses_same_suit=True)
    on = run_position(rules, H={3: "9H 8H 7H", 5: "TD 9H"})
    assert "H3-H5" in legal(on)
    on.play("H3-H5")
    assert to_document(on)["houses"][4] == ["TD", "9H", "8H", "7H"]


def test_V10_group_moves_wait_for_foundation_moves() -> None:
    on = run_position(V10, H={7: "AD"})
    assert "H3-H5" not in legal(on)
    refuse(on, "H3-H5", "S2")


def test_V10_group_moves_stop_at_the_turn_cap() -> None:
    on = run_position(V10, engine={"turn_moves": 500})
    refuse(on, "H3-H5", "TURN_TOO_LONG")


# ------------------------------------------------------------------ V11 same-suit houses

V11 = rules_doc(houses_same_suit=True)


def building_position(rules: Any) -> Position:
    """A's reserve card 7♥, with an 8♥ on H3 and an 8♠ on H4."""
    return position(
        rules=rules,
        H={**QUIET, 3: "8H", 4: "8S", 7: "6C"},
        A={"reserve": "9C 7H", "hand": "2D"},
        B={"reserve": "5D", "hand": "4C"},
    )


def test_V11_houses_same_suit_builds_down_in_suit() -> None:
    on = building_position(V11)
    assert [m for m in legal(on) if m.startswith("R-")] == ["R-H3"]
    message = refuse(on, "R-H4", "S4")
    assert "same suit" in message
    off = building_position("pagat")
    assert [m for m in legal(off) if m.startswith("R-")] == ["R-H4"]
    assert "alternating colours" in refuse(off, "R-H3", "S4")


def test_V11_houses_same_suit_for_house_to_house_moves_too() -> None:
    on = building_position(V11)
    on.play("R-H3")  # 8♥ 7♥ on H3
    assert "H7-H3" not in legal(on)  # the 6♣ is the wrong suit
    refuse(on, "H7-H3", "S4")
    off = building_position("pagat")
    off.play("R-H4")  # 8♠ 7♥
    assert "H7-H4" in legal(off)  # black 6 on the red 7


def test_V11_houses_same_suit_an_empty_house_takes_any_card() -> None:
    pos = position(
        rules=V11,
        H={**QUIET, 2: ""},
        A={"reserve": "9C 7H", "hand": "2D"},
        B={"reserve": "5D", "hand": "4C"},
    )
    assert "R-H2" in legal(pos)
    pos.play("R-H2")
    assert "H2-H1" not in legal(pos)  # the 7♥ on the K♠


# ------------------------------------------------------------------ V13 shuffled waste

V13 = rules_doc(shuffle_waste=True)
KEY = "0f" * 32
WASTE = "AS 2H 3D 4C 5S 6H 7D 8C 9S TH JD QC QS AH 2D 3C 4S 5H 6D 7C"


def turnover_position(rules: Any, key: str | None = KEY, count: int = 0) -> Position:
    """A's hand is empty: the next T turns the waste over (R4.4)."""
    engine: dict[str, Any] = {}
    if key is not None:
        engine = {"reshuffle_key": key, "reshuffles": {"A": count, "B": 0}}
    return position(
        rules=rules,
        H=QUIET,
        A={"reserve": "9C", "waste": WASTE},
        B={"reserve": "6H", "hand": "4C"},
        engine=engine or None,
    )


def hand_after_turnover(pos: Position) -> list[str]:
    pos.play("T")
    doc = to_document(pos)
    return [*doc["A"]["hand"], doc["A"]["turned"]]  # bottom to top


def test_V13_shuffle_waste_when_it_becomes_the_hand() -> None:
    in_order = hand_after_turnover(turnover_position("pagat", key=None))
    assert in_order == WASTE.split()[::-1]  # R4.4: the first discard on top
    shuffled = hand_after_turnover(turnover_position(V13))
    assert sorted(shuffled) == sorted(in_order)
    assert shuffled != in_order
    # Reproducible from the key, the seat and the count; different for another count.
    assert hand_after_turnover(turnover_position(V13)) == shuffled
    assert hand_after_turnover(turnover_position(V13, count=1)) != shuffled
    assert hand_after_turnover(turnover_position(V13, key="1e" * 32)) != shuffled
    pos = turnover_position(V13)
    pos.play("T")
    assert pos.reshuffles == [1, 0] and pos.turnovers == [1, 0]


def test_V13_shuffle_waste_the_key_comes_from_the_seed_and_stays_hidden() -> None:
    rules = with_options(shuffle_waste=True)
    pos = deal(77, rules)
    expected = hashlib.sha256(b"rbank-reshuffle/1:77").hexdigest()
    assert pos.reshuffle_key == expected != seed_commitment(77)
    doc = to_document(pos)
    assert doc["engine"]["reshuffle_key"] == expected
    assert doc["engine"]["reshuffles"] == {"A": 0, "B": 0}
    for viewer in (0, 1, None):
        assert expected not in json.dumps(view(pos, viewer))
    # Without the option there is no key, and documents do not mention one.
    assert deal(77).reshuffle_key is None
    assert "reshuffle_key" not in to_document(deal(77))["engine"]


def test_V13_shuffle_waste_replays_from_seed_and_moves() -> None:
    rules = PRESETS["wikipedia"]
    for seed in range(3):
        pos = deal(seed, rules)
        rng = random.Random(seed)
        texts = []
        while not pos.is_over and sum(pos.reshuffles) < 4:
            move = rng.choice(pos.legal_moves())
            texts.append(str(move))
            pos.push(move)
        assert sum(pos.reshuffles) >= 1 or pos.is_over
        again = replay(seed, texts, rules)
        assert again == pos
        assert to_document(again) == to_document(pos)
        assert from_document(to_document(pos)) == pos


def test_V13_shuffle_waste_a_document_without_a_key_draws_one() -> None:
    pos = turnover_position(V13, key=None)
    assert pos.reshuffle_key is None
    pos.play("T")
    assert pos.reshuffle_key is not None and len(pos.reshuffle_key) == 64
    assert from_document(to_document(pos)) == pos


@pytest.mark.parametrize("bad", ["short", "G" * 64, "AB" * 32, 12, ["0f" * 32]])
def test_V13_shuffle_waste_refuses_a_malformed_key(bad: object) -> None:
    with pytest.raises(BadPosition, match="reshuffle_key"):
        turnover_position(V13, key=bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------ G2 one pack

ONE_PACK = PRESETS["one-pack"]


def test_G2_one_pack_the_deal() -> None:
    """One pack: A plays hearts and clubs, B spades and diamonds; a reserve of six
    (five face down and one up), three houses each, a hand of 17, four foundations."""
    for seed in range(20):
        pos = deal(seed, ONE_PACK)
        assert sorted(pos.cards()) == sorted(full_pack(0))  # 52 cards, one back
        assert len(pos.foundations) == 4 and len(pos.houses) == 6
        for s, suits in enumerate(("HC", "SD")):
            seat = pos.seats[s]
            assert [len(seat.reserve), len(seat.hand)] == [6, 17]
            mine = [*seat.cards(), *(h[0] for h in pos.houses[3 * s : 3 * s + 3])]
            assert {"SHDC"[suit_of(c)] for c in mine} == set(suits)
            assert len(mine) == 26
        # Who starts: R3 as in the standard game (the lower reserve card).
        a, b = (rank_of(seat.reserve[-1]) for seat in pos.seats)
        if a != b:
            assert pos.to_move == (0 if a < b else 1)
        doc = to_document(pos)
        assert doc["rules"] == "one-pack"
        assert set("".join(doc["engine"]["packs"]["B"]["hand"])) == {"A"}
        assert from_document(json.loads(json.dumps(doc))) == pos
    assert to_document(deal(3, ONE_PACK)) == to_document(deal(3, ONE_PACK))
    assert to_document(deal(3, ONE_PACK)) != to_document(deal(4, ONE_PACK))


def one_pack_position(**extra: Any) -> Position:
    doc = document(
        rules="one-pack",
        F=extra.pop("F", {}),
        H=extra.pop("H", {1: "KH", 2: "9C", 3: "5H", 4: "KS", 5: "8D", 6: "QS"}),
        A={"reserve": "AC 4H", "hand": "3C 7H", **extra.pop("A", {})},
        B={"reserve": "2S 3D", "hand": "JD", **extra.pop("B", {})},
    )
    doc["foundations"] = doc["foundations"][:4]
    doc["houses"] = doc["houses"][:6]
    return from_document(doc)


def test_G2_one_pack_the_layout_in_the_notation() -> None:
    pos = one_pack_position()
    # Six houses, four foundations: the 8♦ onto the 9♣, the Q♠ onto the K♥, or turn.
    assert legal(pos) == ["H5-H2", "H6-H1", "T"]
    pos.play("H5-H2")
    refuse(pos, "T", "S3")  # P3 over the six houses: H5 is empty
    pos.play("R-H5")
    assert legal(pos) == ["R-F1", "R-F2", "R-F3", "R-F4"]  # P1, and four foundations
    for text in ("H7-H1", "R-F5", "H1-H8"):
        with pytest.raises(IllegalMove) as info:
            pos.play(text)
        assert info.value.code == "BAD_NOTATION"
    off = one_pack_position()  # the same cards under the standard rules would be 8 houses
    with pytest.raises(BadPosition, match="houses must be a list of 6 piles"):
        from_document({**to_document(off), "houses": [[] for _ in range(8)]})


def test_G2_one_pack_documents_hold_one_pack() -> None:
    doc = to_document(deal(2, ONE_PACK))
    doc["B"]["hand"].append(doc["A"]["hand"][0])  # a second copy of a card
    del doc["engine"]["packs"]
    with pytest.raises(BadPosition, match="more than one copy of"):
        from_document(doc)
    doc = to_document(deal(2, ONE_PACK))
    doc["engine"]["packs"]["A"]["hand"] = "B" * len(doc["A"]["hand"])
    with pytest.raises(BadPosition, match="unknown pack"):
        from_document(doc)


def test_G2_one_pack_a_cut_draws_two_different_cards() -> None:
    rules = replace(ONE_PACK, starter="cut_lower")
    for seed in range(50):
        stream = SeedStream(seed)
        _, rounds = cut_for_start(stream, 2, higher=False, packs=1)
        assert all(a != b for a, b in rounds)
        assert deal(seed, rules).to_move in (0, 1)


# ------------------------------------------------------------------ G4 Foster's one pack

FOSTER_ONE = PRESETS["foster-one-pack"]


def foster_position(houses: dict[int, str], **extra: Any) -> Position:
    """Foster's one-pack game (G4): no reserve, no foundations, eight houses."""
    doc = document(
        rules=extra.pop("rules", "foster-one-pack"),
        H=houses,
        A={"hand": "3C 5H", **extra.pop("A", {})},
        B={"hand": "QH", **extra.pop("B", {})},
        **extra,
    )
    doc["foundations"] = []
    return from_document(doc)


#: Eight houses where nothing builds on anything: ranks two apart within each suit.
QUIET_ONE = {1: "KS", 2: "JS", 3: "9S", 4: "7S", 5: "KD", 6: "JD", 7: "9D", 8: "7D"}


def test_G4_foster_one_pack_the_deal() -> None:
    for seed in range(20):
        pos = deal(seed, FOSTER_ONE)
        assert sorted(pos.cards()) == sorted(full_pack(0))
        assert pos.foundations == [] and all(len(h) == 1 for h in pos.houses)
        for seat in pos.seats:
            assert (seat.reserve, len(seat.hand)) == ([], 22)  # 26 = 4 houses + 22
        doc = to_document(pos)
        assert doc["rules"] == "foster-one-pack" and doc["foundations"] == []
        assert from_document(json.loads(json.dumps(doc))) == pos
    assert FOSTER_ONE.priority_violations == {"S3"}


def test_G4_foster_one_pack_houses_in_suit_up_or_down_king_next_to_ace() -> None:
    """p.67: the 8♣ on the 9♣, or the 9♣ on the 8♣; pp.72-73, 76: a king on an ace."""
    pos = foster_position({**QUIET_ONE, 1: "9C", 2: "8C", 3: "AH", 4: "KH", 5: "8D"})
    assert {"H1-H2", "H2-H1", "H3-H4", "H4-H3"} <= set(legal(pos))
    refuse(pos, "H2-H5", "S4")  # the 8♣ on the 8♦: not a neighbour
    refuse(pos, "H2-H7", "S4")  # nor the 9♦: another suit
    standard = position(H={**QUIET, 1: "9C", 2: "8C", 3: "AH", 4: "KH"}, A={"reserve": "2S"})
    refuse(standard, "H1-H2", "S4")  # R5.2: down only, and in alternating colours
    refuse(standard, "H3-H4", "S4")


def test_G4_foster_one_pack_only_own_cards_load() -> None:
    """pp.72-73: cards from the tableau may not go on the opponent's discard pile; the
    turned card and the top of the own waste may (pp.71, 74)."""
    pos = foster_position({**QUIET_ONE, 3: "6D"}, A={"waste": "4D"}, B={"waste": "TH 5D"})
    message = refuse(pos, "H3-OW", "S4")  # the 6♦ would fit the 5♦
    assert "turned card" in message
    assert "W-OW" in legal(pos)  # the 4♦ on the 5♦
    standard = position(H={**QUIET, 3: "6D"}, A={"reserve": "2S"}, B={"waste": "TH 5D"})
    assert "H3-OW" in legal(standard)


def test_G4_foster_one_pack_the_opponents_waste_top_builds_on_a_house() -> None:
    """pp.75, 79: the top of the opponent's discard pile may be built on a sequence."""
    pos = foster_position({**QUIET_ONE, 3: "TC", 6: ""}, B={"waste": "2H JC"})
    assert "OW-H3" in legal(pos)
    assert "OW-H6" not in legal(pos)  # not into a space
    refuse(pos, "OW-H6", "S4")
    pos.play("OW-H3")
    assert to_document(pos)["houses"][2] == ["TC", "JC"]
    assert to_document(pos)["B"]["waste"] == ["2H"]
    assert pos.turn_productive
    standard = position(H={**QUIET, 3: "TC"}, A={"reserve": "2S"}, B={"waste": "2H JC"})
    refuse(standard, "OW-H3", "S5")


def test_G4_foster_one_pack_taking_the_last_card_of_the_opponent_lets_it_win() -> None:
    """Decision (R8.1): the opponent whose last card is taken has no cards left."""
    pos = foster_position({**QUIET_ONE, 3: "TC"}, B={"hand": "", "waste": "JC"})
    pos.play("OW-H3")
    assert pos.status == "won" and pos.winner == 1
    assert pos.score == [0, 30 + 2]  # A's hand, 3♣ and 5♥


def test_G4_foster_one_pack_spaces_are_filled_from_the_waste_before_turning() -> None:
    """p.69: with a space open, the top card of the discard pile fills it before a
    card is turned; with an empty discard pile a card may be turned (p.67)."""
    pos = foster_position({**QUIET_ONE, 6: ""}, A={"waste": "4C 5S"}, B={"hand": "QC"})
    message = refuse(pos, "T", "S3")
    assert "waste" in message
    assert "W-H6" in legal(pos)
    pos.play("W-H6")
    assert "T" in legal(pos)
    assert "T" in legal(foster_position({**QUIET_ONE, 6: ""}))  # no waste: turn at will
    capped = foster_position({**QUIET_ONE, 6: ""}, A={"waste": "4C"}, engine={"turn_moves": 500})
    assert "W-H6" in legal(capped)  # past R7.6's cap the space may still be filled


def test_G4_foster_one_pack_a_whole_suit_is_closed() -> None:
    """p.77: a completed suit is turned face down and keeps its place."""
    suit = "9H 8H 7H 6H 5H 4H 3H 2H AH KH QH JH"
    houses = {1: "KS", 2: "JS", 3: "9S", 4: "7S", 5: suit, 6: "", 7: "QC", 8: "TC"}
    pos = foster_position(houses, A={"hand": "3D TH"}, B={"hand": "2C"})
    pos.play("T")
    pos.play("C-H5")  # the 10♥ completes the hearts
    assert len(to_document(pos)["houses"][4]) == 13
    assert not [m for m in legal(pos) if m.startswith("H5-")]
    assert "whole suit" in refuse(pos, "H5-H6", "S5")
    assert "H5-H6" in legal(foster_position(houses, A={"hand": "3D TH"}, B={"hand": "2C"}))


def test_G4_foster_one_pack_in_alternating_colours_has_no_closed_house() -> None:
    """G4 with V11 off (houses in alternating colours, up or down; V10 off, see the
    clash below): thirteen cards in a house are no whole suit, so its top card moves
    like any other; the move the referee accepts is listed."""
    pile = "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D AS"
    houses = {1: "JH", 2: "9D", 3: "5C", 4: "7S", 5: pile, 6: "", 7: "2H", 8: "TC"}
    rules = {"preset": "foster-one-pack", "houses_same_suit": False, "group_moves": False}
    pos = foster_position(houses, rules=rules, A={"hand": "3D TH"}, B={"hand": "2C"})
    assert "H5-H7" in legal(pos) and pos.refusal(pos.parse("H5-H7")) is None
    pos.play("H5-H7")
    assert to_document(pos)["houses"][6] == ["2H", "AS"]


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"reserve_size": 12}, "reserve_size 12"),
        ({"houses_same_suit": False}, "houses_same_suit false and group_moves true"),
    ],
)
def test_G4_foster_one_pack_refuses_the_options_it_does_not_combine_with(
    options: dict[str, Any], named: str
) -> None:
    """``rules.CLASHES``: G4 has no reserve (V2 would give it one), and its runs built
    up or down in alternating colours could repeat a rank, so that a group move (V10)
    would be ambiguous. Documents asking for either are refused, naming the clash."""
    rules = {"preset": "foster-one-pack", **options}
    with pytest.raises(RulesClash, match=f"the foster-one-pack rules do not combine with {named}"):
        rules_from_document(rules)
    with pytest.raises(BadPosition, match=named):
        foster_position(QUIET_ONE, rules=rules)
    assert clash(replace(FOSTER_ONE, **options)) is not None
    assert clash(FOSTER_ONE) is None


def test_G4_foster_one_pack_runs_move_as_a_group() -> None:
    """p.71: the 6 and 5 of hearts go on the 7; p.73: the 5, 4 and 3 of clubs on the 6."""
    houses = {1: "6H 5H", 2: "8H 7H", 3: "5C 4C 3C", 4: "6C", 5: "KS", 6: "JS", 7: "9S", 8: "7S"}
    pos = foster_position(houses, A={"hand": "2D"}, B={"hand": "QD"})
    pos.play("H1-H2")
    pos.play("H3-H4")
    doc = to_document(pos)
    assert doc["houses"][1] == ["8H", "7H", "6H", "5H"]
    assert doc["houses"][3] == ["6C", "5C", "4C", "3C"]
    assert doc["houses"][0] == doc["houses"][2] == []


# ------------------------------------------------------------------ every preset

SELFPLAY_GAMES = 200
SELFPLAY_CHUNKS = 4


# The default suite plays the first chunk of each preset (50 games, seeds 0-49);
# make selfplay (marker long) the other three too.
@pytest.mark.parametrize(
    "chunk",
    [
        chunk if chunk == 0 else pytest.param(chunk, marks=pytest.mark.long)
        for chunk in range(SELFPLAY_CHUNKS)
    ],
)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_deals_and_its_random_games_end(preset: str, chunk: int) -> None:
    """Uniform random self-play (selfplay.py) ends every game under every preset, the
    way RULES.md §8 says, with no card created or lost."""
    rules = PRESETS[preset]
    per_chunk = SELFPLAY_GAMES // SELFPLAY_CHUNKS
    results: Counter[str] = Counter()
    for i in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        pos = deal(i, rules)
        assert pos.rules == rules
        assert sorted(pos.cards()) == dealt_cards(rules)
        first = pos.to_move
        steps = play_random_game(pos, random.Random(i))
        check_the_end(Game(i, first, steps, pos))
        results[pos.ending or ""] += 1
    assert results["cards"] >= per_chunk // 2, results


def test_selfplay_summary_under_each_preset() -> None:
    for name, rules in PRESETS.items():
        summary = selfplay(5, 1, rules).as_dict()
        assert summary["games"] == 5, name


# ------------------------------------------------------------------ documents

BOOLEAN_OPTIONS = [
    "own_waste_available",
    "make_spaces",
    "uncover_compulsory",
    "reserve_face_down",
    "group_moves",
    "compulsory_loading",
    "lenient_turn",
    "houses_same_suit",
    "reserve_to_house_compulsory",
    "shuffle_waste",
    "stock_face_down",
    "take_from_opponent",
    "waste_never_fills_spaces",
    "house_loads_first",
    "one_card_first",
    "compulsory_after_runs",
    "stalemate_scores_nothing",
]


@pytest.mark.parametrize("option", BOOLEAN_OPTIONS)
@pytest.mark.parametrize("bad", [1, 0, "true", None, [], {}])
def test_rules_from_document_refuses_a_boolean_option_that_is_not_a_boolean(
    option: str, bad: object
) -> None:
    with pytest.raises(BadPosition, match=f"rule option {option} must be true or false"):
        rules_from_document(rules_doc(**{option: bad}))
    with pytest.raises(BadPosition):
        position(rules=rules_doc(**{option: bad}))


def test_rules_from_document_refuses_unknown_options() -> None:
    with pytest.raises(BadPosition, match="unknown rule options: group_move"):
        rules_from_document(rules_doc(group_move=True))
    with pytest.raises(BadPosition, match="unknown rule options: face_down_houses"):
        rules_from_document(rules_doc(face_down_houses=True))


@pytest.mark.parametrize("option", BOOLEAN_OPTIONS)
def test_documents_round_trip_with_each_option(option: str) -> None:
    rules = with_options(**{option: True})
    pos = deal(5, rules)
    doc = to_document(pos)
    assert doc["rules"] == {"preset": "pagat", option: True}
    assert from_document(json.loads(json.dumps(doc))) == pos
    # A preset's option turned back off is written against that preset.
    for name, preset in PRESETS.items():
        if getattr(preset, option):
            off: dict[str, Any] = {option: False}
            changed = replace(preset, **off)
            assert changed.to_document() == {"preset": name, option: False}
            if clash(changed) is not None:  # rules.CLASHES: G4 in colours with its runs
                with pytest.raises(RulesClash):
                    rules_from_document(changed.to_document())
                continue
            assert rules_from_document(changed.to_document()) == changed


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_is_written_by_name(name: str) -> None:
    pos = deal(6, PRESETS[name])
    doc = to_document(pos)
    assert doc["rules"] == name
    assert from_document(doc) == pos
    assert rules_from_document(name) == PRESETS[name]


# ------------------------------------------------------------------ descriptions


#: Fields of ``Rules`` that are not §9 options: the layout, the caps, the scoring.
NOT_OPTIONS = {
    "preset",
    "seats",
    "houses_per_seat",
    "foundations",
    "packs",
    "seat_suits",
    # The family (the three-player game G3, Foster's one-pack game G4...): fixed by
    # the preset, its rules held by its family object (games/engine/families.py).
    "family",
    "max_turn_moves",
    "max_turns",
    "win_bonus",
    "forfeit_penalty",
    "match_target",
}


def test_every_preset_and_option_has_a_description() -> None:
    assert set(PRESET_DESCRIPTIONS) == set(PRESETS)
    for name, text in PRESET_DESCRIPTIONS.items():
        assert re.search(r"seeds? 00\d", text), name
        assert PRESETS[name].preset == name
    options = {f.name for f in fields(Rules)} - NOT_OPTIONS
    assert set(OPTION_DESCRIPTIONS) == options
    for name, text in OPTION_DESCRIPTIONS.items():
        assert re.match(r"V\d+: ", text), name
