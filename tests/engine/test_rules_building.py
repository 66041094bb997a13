"""RULES.md §5: what goes where (foundations, houses, loading, forbidden piles)."""

from __future__ import annotations

import random

import pytest

from games.engine import BadNotation, Position, deal, to_document
from tests.engine.builders import legal, position
from tests.engine.rules_support import QUIET, houses, play, refuse

SPADES = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"


# ---------------------------------------------------------------- R5.1 foundations


def test_R5_1_an_empty_foundation_takes_any_ace() -> None:
    pos = position(H=QUIET, A={"reserve": "AH", "hand": "2C"})
    assert legal(pos) == [f"R-F{i}" for i in range(1, 9)]
    pos.play("R-F6")
    assert to_document(pos)["foundations"][5] == ["AH"]


def test_R5_1_an_empty_foundation_takes_only_an_ace() -> None:
    pos = position(H=houses(H1="2H"), A={"reserve": "5C", "hand": "2C"})
    message = refuse(pos, "H1-F1", "S4")
    assert "2♥" in message and "ace" in message


def test_R5_1_built_up_in_suit_one_rank_at_a_time() -> None:
    pos = position(
        H=houses(H1="3S", H2="3H", H3="4S"), F={1: "AS 2S"}, A={"reserve": "5C", "hand": "2C"}
    )
    message = refuse(pos, "H2-F1", "S4")
    assert "3♥" in message and "2♠" in message
    refuse(pos, "H3-F1", "S4")
    play(pos, "H1-F1 H3-F1")
    assert to_document(pos)["foundations"][0] == ["AS", "2S", "3S", "4S"]


def test_R5_1_up_to_the_king() -> None:
    pos = position(
        H=houses(H1="KS"), F={1: SPADES.rsplit(" ", 1)[0]}, A={"reserve": "5C", "hand": "2C"}
    )
    pos.play("H1-F1")
    assert to_document(pos)["foundations"][0] == SPADES.split()


def test_R5_1_a_complete_foundation_takes_nothing_more() -> None:
    pos = position(H=houses(H1="2C AS"), F={1: SPADES, 2: "AH"}, A={"reserve": "5C", "hand": "2C"})
    message = refuse(pos, "H1-F1", "S4")
    assert "complete" in message
    pos.play("H1-F3")  # the ace still starts an empty foundation


# ---------------------------------------------------------------- R5.2 houses


@pytest.mark.parametrize(
    ("card", "on"),
    [
        ("7H", "8S"),
        ("7H", "8C"),
        ("7D", "8S"),
        ("7S", "8H"),
        ("7C", "8D"),
        ("QH", "KS"),
        ("2S", "3D"),
    ],
)
def test_R5_2_one_rank_lower_and_the_other_colour(card: str, on: str) -> None:
    pos = position(H=houses(H1=on), A={"reserve": card, "hand": "5C"})
    assert "R-H1" in legal(pos)
    pos.play("R-H1")
    assert to_document(pos)["houses"][0] == [on, card]


@pytest.mark.parametrize(
    ("card", "on", "why"),
    [
        ("7D", "8H", "colours"),  # same colour
        ("7C", "8S", "colours"),
        ("6H", "8S", "one rank"),  # two lower
        ("9H", "8S", "one rank"),  # higher
        ("8H", "8S", "one rank"),  # same rank
        ("6D", "8H", "colours, one rank"),
    ],
)
def test_R5_2_anything_else_is_refused_and_the_message_names_both_cards(
    card: str, on: str, why: str
) -> None:
    pos = position(H=houses(H1=on), A={"reserve": card, "hand": "5C"})
    message = refuse(pos, "R-H1", "S4")
    label = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
    assert card[0] + label[card[1]] in message
    assert on[0] + label[on[1]] in message
    assert why in message


def test_R5_2_an_empty_house_takes_any_available_card() -> None:
    pos = position(H=houses(H3="", H4="9C QD"), A={"reserve": "5C 7H", "hand": "2C JS"})
    assert {"R-H3", "H4-H3", "H1-H3"} <= set(legal(pos))
    pos.play("H4-H3")  # a queen from a house
    assert to_document(pos)["houses"][2:4] == [["QD"], ["9C"]]
    pos2 = position(H=houses(H3=""), A={"reserve": "5C 7H", "hand": "2C JS"})
    pos2.play("R-H3")  # the reserve card
    assert to_document(pos2)["houses"][2] == ["7H"]
    pos3 = position(H=houses(H3=""), A={"hand": "2C JS"})
    play(pos3, "T C-H3")  # the turned card
    assert to_document(pos3)["houses"][2] == ["JS"]


# ---------------------------------------------------------------- R5.3 one card at a time


def test_R5_3_a_sequence_moves_one_card_at_a_time_through_an_empty_house() -> None:
    pos = position(H=houses(H1="9S 8H", H2="TD", H3=""), A={"hand": "2C"})
    refuse(pos, "H1-H2", "S4")  # only the 8H would move, and it does not fit the TD
    play(pos, "H1-H3 H1-H2 H3-H2")
    doc = to_document(pos)
    assert doc["houses"][:3] == [[], ["TD", "9S", "8H"], []]


def test_R5_3_a_move_takes_exactly_one_card() -> None:
    pos = position(H=houses(H1="9S 8H", H2=""), A={"hand": "2C"})
    pos.play("H1-H2")
    assert to_document(pos)["houses"][:2] == [["9S"], ["8H"]]


# ---------------------------------------------------------------- R5.4 loading


@pytest.mark.parametrize("card", ["6H", "8H"])
@pytest.mark.parametrize(("pile", "dst"), [("reserve", "OR"), ("waste", "OW")])
def test_R5_4_loading_one_rank_up_or_down_in_suit(card: str, pile: str, dst: str) -> None:
    pos = position(
        H=houses(H1=card), A={"reserve": "5C", "hand": "2C"}, B={pile: "3D 7H", "hand": "4S"}
    )
    assert f"H1-{dst}" in legal(pos)
    pos.play(f"H1-{dst}")
    assert to_document(pos)["B"][pile] == ["3D", "7H", card]
    assert pos.to_move == 0


@pytest.mark.parametrize("card", ["7H", "6D", "8C", "5H", "9H"])
@pytest.mark.parametrize(("pile", "dst"), [("reserve", "OR"), ("waste", "OW")])
def test_R5_4_loading_refuses_other_cards(card: str, pile: str, dst: str) -> None:
    pos = position(
        H=houses(H1=card), A={"reserve": "5C", "hand": "2C"}, B={pile: "3D 7H", "hand": "4S"}
    )
    message = refuse(pos, f"H1-{dst}", "S4")
    assert "7♥" in message and "same suit" in message


@pytest.mark.parametrize(("pile", "dst"), [("reserve", "OR"), ("waste", "OW")])
def test_R5_4_no_wrap_king_on_ace(pile: str, dst: str) -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "2C"}, B={pile: "AD", "hand": "4S"})
    refuse(pos, f"H3-{dst}", "S4")  # H3 holds the KD


@pytest.mark.parametrize(("pile", "dst"), [("reserve", "OR"), ("waste", "OW")])
def test_R5_4_no_wrap_ace_on_king(pile: str, dst: str) -> None:
    """The ace also fits a foundation; S4 comes first in the §7 order anyway."""
    pos = position(
        H=houses(H1="AC", H8="9D"), A={"reserve": "5C", "hand": "2C"}, B={pile: "KC", "hand": "4S"}
    )
    refuse(pos, f"H1-{dst}", "S4")


@pytest.mark.parametrize("dst", ["OR", "OW"])
def test_R5_4_an_empty_reserve_or_waste_cannot_be_loaded(dst: str) -> None:
    pos = position(H=houses(H1="6H"), A={"reserve": "5C", "hand": "2C"}, B={"hand": "4S"})
    message = refuse(pos, f"H1-{dst}", "S4")
    assert "empty" in message


def test_R5_4_the_reserve_and_the_turned_card_may_load_too() -> None:
    pos = position(
        H=QUIET,
        A={"reserve": "6H", "hand": "2C 9S"},
        B={"reserve": "7H", "waste": "TS", "hand": "4S"},
    )
    play(pos, "R-OR T C-OW")
    doc = to_document(pos)
    assert doc["B"]["reserve"] == ["7H", "6H"]
    assert doc["B"]["waste"] == ["TS", "9S"]


# ---------------------------------------------------------------- R5.5 never allowed


def forbidden_position() -> Position:
    """Every named source holds a card that would fit H1 (8S) or a foundation if it could move."""
    return position(
        H=houses(H1="8S"),
        F={1: "AD 2D 3D 4D 5D 6D 7D"},
        A={"reserve": "6H", "hand": "2C", "waste": "7H"},
        B={"reserve": "7D", "waste": "7H", "hand": "4S"},
    )


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        # onto the mover's own reserve
        ("H1-R", "S4", "own reserve"),
        ("R-R", "S4", "own reserve"),
        # onto the mover's own waste, other than the discard
        ("H1-W", "S4", "own waste"),
        ("R-W", "S4", "own waste"),
        # onto the turned card (not a pile to build on)
        ("H1-C", "S4", "turned card"),
        # from a foundation
        ("F1-H1", "S5", "foundation"),
        # from the opponent's reserve and waste
        ("OR-H1", "S5", "opponent's reserve"),
        ("OW-H1", "S5", "opponent's waste"),
        # from the own waste
        ("W-H1", "S5", "own waste"),
        # from the own hand: only a turned card can move, and there is none
        ("C-H1", "S5", "turned card"),
        ("C-R", "S5", "turned card"),
    ],
)
def test_R5_5_forbidden_sources_and_destinations(text: str, code: str, words: str) -> None:
    message = refuse(forbidden_position(), text, code)
    assert words in message


@pytest.mark.parametrize("text", ["H1-HA", "R-HB", "R-HAND", "OH-H1", "H-H1", "R-OC"])
def test_R5_5_no_hand_can_be_named_as_a_source_or_destination(text: str) -> None:
    """The notation names no hand pile, so no card can go onto or come from a hand."""
    with pytest.raises(BadNotation):
        forbidden_position().play(text)


def test_R5_5_the_discard_is_the_only_way_onto_the_own_waste() -> None:
    pos = forbidden_position()
    pos.play("T")
    refuse(pos, "R-W", "S4")
    pos.play("C-W")
    assert to_document(pos)["A"]["waste"] == ["7H", "2C"]


def test_R5_5_no_move_ever_adds_a_card_to_a_hand() -> None:
    """Over random games, a hand grows only when its seat's T turns the waste over (R4.4)."""
    for seed in range(3):
        pos = deal(seed)
        rng = random.Random(seed)
        for _ in range(1500):
            if pos.is_over:
                break
            move = rng.choice(pos.legal_moves())
            mover = pos.to_move
            turning_over = str(move) == "T" and not pos.mover.hand
            hands = [len(s.hand) for s in pos.seats]
            pos.push(move)
            for s, seat in enumerate(pos.seats):
                if not (turning_over and s == mover):
                    assert len(seat.hand) <= hands[s], move
