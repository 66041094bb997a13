"""RULES.md §4: a turn (available cards, turning, discarding, ending the turn)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.engine import BadNotation, Position, deal, to_document, view
from games.engine.moves import CARD, FOUNDATION, HOUSE, OPP_RESERVE, OPP_WASTE, RESERVE, TURNED
from tests.engine.builders import legal, position
from tests.engine.rules_support import QUIET, houses, play, refuse


def random_positions(games: int = 4, steps: int = 600) -> Iterator[Position]:
    """Positions along a few random games from the deal."""
    for seed in range(games):
        pos = deal(seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if pos.is_over:
                break
            yield pos
            pos.push(rng.choice(pos.legal_moves()))


# ---------------------------------------------------------------- R4.1


def test_R4_1_a_turn_is_a_series_of_moves_by_one_seat() -> None:
    pos = position(
        H=houses(H1="9S"),
        A={"reserve": "4D 8H", "hand": "2C 5S"},
        B={"reserve": "5D", "hand": "3C"},
    )
    for text in ("R-H1", "R-OR", "T"):
        cards = len(list(pos.cards()))
        pos.play(text)
        assert pos.to_move == 0
        assert len(list(pos.cards())) == cards
    assert to_document(pos)["B"]["reserve"] == ["5D", "4D"]
    pos.play("C-W")
    assert pos.to_move == 1


def test_R4_1_card_moves_go_to_a_foundation_a_house_or_the_opponent() -> None:
    allowed = {FOUNDATION, HOUSE, OPP_RESERVE, OPP_WASTE}
    for pos in random_positions():
        for move in pos.legal_moves():
            if move.kind == CARD and not move.is_discard:
                assert move.dst in allowed, move


def pile_sizes(pos: Position) -> list[int]:
    sizes = [len(p) for p in (*pos.foundations, *pos.houses)]
    for seat in pos.seats:
        sizes += [len(seat.reserve), len(seat.hand), len(seat.waste), seat.turned is not None]
    return sizes


def test_R4_1_each_card_move_moves_exactly_one_card() -> None:
    for pos in random_positions(games=2, steps=400):
        for move in pos.legal_moves():
            if move.kind == CARD:
                after = pos.copy()
                after.push(move)
                changes = [b - a for a, b in zip(pile_sizes(pos), pile_sizes(after), strict=True)]
                assert sorted(c for c in changes if c) == [-1, 1], move


# ---------------------------------------------------------------- R4.2


def test_R4_2_only_reserve_top_house_tops_and_the_turned_card_are_available() -> None:
    for pos in random_positions():
        for move in pos.legal_moves():
            if move.kind == CARD:
                assert move.src in (RESERVE, TURNED, HOUSE), move


def test_R4_2_the_top_card_of_a_house_or_reserve_is_the_one_that_moves() -> None:
    pos = position(
        H=houses(H1="9C 8H", H2="9S", H3="8C"),
        A={"reserve": "2C 7D", "hand": "3D"},
    )
    play(pos, "H1-H2 R-H3")
    doc = to_document(pos)
    assert doc["houses"][:3] == [["9C"], ["9S", "8H"], ["8C", "7D"]]
    assert doc["A"]["reserve"] == ["2C"]


@pytest.mark.parametrize("text", ["W-F1", "OR-F1", "OW-F1", "F1-F2", "W-H1", "OR-H1"])
def test_R4_2_nothing_else_is_available(text: str) -> None:
    """Aces on the own waste and the opponent's piles fit a foundation, yet may not move."""
    pos = position(
        H=houses(H1="2D"),
        F={1: "AS"},
        A={"reserve": "5C", "hand": "3D", "waste": "AH"},
        B={"reserve": "AD", "waste": "AC"},
    )
    refuse(pos, text, "S5")
    assert "T" in legal(pos)


# ---------------------------------------------------------------- R4.3


def test_R4_3_the_next_reserve_card_is_turned_up_at_once() -> None:
    pos = position(H=houses(H1="9S"), A={"reserve": "5C 8H", "hand": "2D"})
    assert view(pos, 1)["A"]["reserve"] == {"count": 2, "top": "8H"}
    pos.play("R-H1")
    assert view(pos, 1)["A"]["reserve"] == {"count": 1, "top": "5C"}


def test_R4_3_an_emptied_reserve_stays_empty() -> None:
    pos = position(
        H=houses(H1="9S", H2="6D"),
        A={"reserve": "5C 8H", "hand": "2D"},
        B={"reserve": "6C", "hand": "9D", "waste": "4S"},
    )
    play(pos, "R-H1 R-H2 T C-W")
    assert pos.seats[0].reserve == []
    assert pos.to_move == 1
    message = refuse(pos, "R-OR", "S4")  # the 6C fitted the 5C that lay there
    assert "empty" in message


# ---------------------------------------------------------------- R4.4


def test_R4_4_turning_shows_the_top_hand_card() -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "3C 5D"})
    pos.play("T")
    doc = to_document(pos)
    assert doc["A"]["turned"] == "5D"
    assert doc["A"]["hand"] == ["3C"]
    assert view(pos, 1)["A"]["turned"] == "5D"  # face up for both players


def test_R4_4_turning_over_the_waste_keeps_order() -> None:
    """The card discarded earliest (bottom of the waste) becomes the top of the new hand."""
    pos = position(H=QUIET, A={"waste": "2H 3D 4C"})
    pos.play("T")
    doc = to_document(pos)
    assert doc["A"]["turned"] == "2H"
    assert doc["A"]["hand"] == ["4C", "3D"]
    assert doc["A"]["waste"] == []
    assert doc["engine"]["turnovers"]["A"] == 1


def test_R4_4_turning_over_then_playing_on_deals_the_waste_in_discard_order() -> None:
    pos = position(H=QUIET, A={"waste": "2H 3D 4C"}, B={"hand": "6S 9D 6C"})
    seen = []
    for _ in range(3):
        pos.play("T")
        seen.append(to_document(pos)["A"]["turned"])
        play(pos, "C-W T C-W")  # A discards; B turns and discards
    assert seen == ["2H", "3D", "4C"]


def test_R4_4_no_second_turned_card() -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "3C 5D"})
    pos.play("T")
    refuse(pos, "T", "ALREADY_TURNED")


def test_R4_4_no_turning_while_a_foundation_move_is_pending() -> None:
    pos = position(H=houses(H4="AD"), A={"reserve": "5C", "hand": "3C"})
    refuse(pos, "T", "S2")


def test_R4_4_no_turning_while_a_house_is_empty_and_the_reserve_is_not() -> None:
    pos = position(H=houses(H4=""), A={"reserve": "5C", "hand": "3C"})
    refuse(pos, "T", "S3")


# ---------------------------------------------------------------- R4.5


def test_R4_5_voluntary_moves_before_turning_and_while_a_turned_card_waits() -> None:
    pos = position(H=houses(H1="9C", H2="9S"), A={"reserve": "2D 8H", "hand": "4C 5S"})
    assert {"R-H1", "T"} <= set(legal(pos))
    pos.play("R-H1")
    pos.play("T")
    assert to_document(pos)["A"]["turned"] == "5S"
    assert "H1-H2" in legal(pos)
    pos.play("H1-H2")  # the 8H moves on while the 5S waits
    doc = to_document(pos)
    assert doc["A"]["turned"] == "5S"
    assert doc["houses"][1] == ["9S", "8H"]
    assert pos.to_move == 0


# ---------------------------------------------------------------- R4.6


def test_R4_6_discard_puts_the_turned_card_on_the_own_waste_and_ends_the_turn() -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "3C 5D", "waste": "9H"})
    play(pos, "T C-W")
    doc = to_document(pos)
    assert doc["A"]["waste"] == ["9H", "5D"]
    assert doc["A"]["turned"] is None
    assert doc["to_move"] == "B"


def test_R4_6_no_discard_of_a_turned_card_that_fits_a_foundation() -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "3C AH"})
    pos.play("T")
    refuse(pos, "C-W", "S2")
    assert legal(pos) == [f"C-F{i}" for i in range(1, 9)]


def test_R4_6_no_discard_while_another_card_fits_a_foundation() -> None:
    """Moving the 6C uncovers the AD while the 9S is turned: the ace goes first."""
    pos = position(H=houses(H1="AD 6C", H2="7H"), A={"reserve": "5C", "hand": "3C 9S"})
    play(pos, "T H1-H2")
    refuse(pos, "C-W", "S2")
    pos.play("H1-F1")
    pos.play("C-W")
    assert pos.to_move == 1


def test_R4_6_no_discard_without_a_turned_card() -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "3C"})
    refuse(pos, "C-W", "NO_TURNED_CARD")


# ---------------------------------------------------------------- R4.7


def test_R4_7_a_player_who_can_do_nothing_else_must_turn_and_discard() -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "2D"})
    assert legal(pos) == ["T"]
    pos.play("T")
    assert legal(pos) == ["C-W"]
    pos.play("C-W")
    assert pos.to_move == 1


def test_R4_7_card_moves_do_not_end_the_turn() -> None:
    pos = position(H=houses(H1="9C", H2="9S"), A={"reserve": "2D 8H", "hand": "4C"})
    for text in ("R-H1", "H1-H2", "H2-H1", "H1-H2"):
        pos.play(text)
        assert pos.to_move == 0


@pytest.mark.parametrize("text", ["P", "PASS", "-", "E-W", "W"])
def test_R4_7_there_is_no_pass(text: str) -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "2D"})
    with pytest.raises(BadNotation):
        pos.play(text)
    refuse(pos, "E", "CANNOT_END")


# ---------------------------------------------------------------- R4.8


def test_R4_8_the_waste_is_turned_over_only_at_the_next_T() -> None:
    pos = position(
        H=QUIET,
        A={"hand": "5H", "waste": "9C"},
        B={"reserve": "2C 6H", "hand": "3D"},
    )
    play(pos, "T C-W")
    doc = to_document(pos)
    assert doc["A"]["hand"] == []
    assert doc["A"]["waste"] == ["9C", "5H"]  # not turned over yet
    play(pos, "R-OW T C-W")  # B loads A's waste in between
    assert to_document(pos)["A"]["waste"] == ["9C", "5H", "6H"]
    pos.play("T")
    doc = to_document(pos)
    assert doc["A"]["turned"] == "9C"
    assert doc["A"]["hand"] == ["6H", "5H"]


# ---------------------------------------------------------------- R4.9


def test_R4_9_without_hand_and_waste_the_seat_ends_its_turn_with_E() -> None:
    pos = position(H=QUIET, A={"reserve": "5C"}, B={"hand": "3D"})
    assert legal(pos) == ["E"]
    message = refuse(pos, "T", "NO_CARDS")
    assert "E" in message
    pos.play("E")
    assert pos.to_move == 1
    assert to_document(pos)["A"]["reserve"] == ["5C"]


def test_R4_9_E_waits_for_the_compulsory_moves() -> None:
    pos = position(H=houses(H2="KH AD"), A={"reserve": "5C"})
    refuse(pos, "E", "S2")
    pos.play("H2-F1")
    assert legal(pos) == ["E"]


def test_R4_9_E_is_refused_while_the_seat_can_turn() -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "waste": "2D"})
    refuse(pos, "E", "CANNOT_END")
    pos.play("T")
    refuse(pos, "E", "CANNOT_END")
