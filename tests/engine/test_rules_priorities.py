"""RULES.md §6: compulsory foundation moves (P1, P2), filling spaces before turning (P3), R6.1."""

from __future__ import annotations

import pytest

from games.engine import Position, to_document
from tests.engine.builders import legal, position
from tests.engine.rules_support import houses, refuse

ALL_F = [f"F{i}" for i in range(1, 9)]


# ---------------------------------------------------------------- P1


def p1_position() -> Position:
    """A's reserve A♥ fits a foundation; so does the A♠ on H1, and the 7♥ could build on H2."""
    return position(
        H=houses(H1="KH AS", H2="8S", H3="7H"),
        A={"reserve": "9C AH", "hand": "2D 5S"},
        B={"reserve": "6H", "hand": "4C"},
    )


def test_P1_the_reserve_card_goes_to_a_foundation_before_anything_else() -> None:
    pos = p1_position()
    assert legal(pos) == sorted(f"R-{f}" for f in ALL_F)


@pytest.mark.parametrize("text", ["H1-F1", "H3-H2", "H3-OR", "T"])
def test_P1_every_other_move_or_action_is_refused(text: str) -> None:
    message = refuse(p1_position(), text, "S1")
    assert "A♥" in message and "reserve" in message


def test_P1_after_it_the_other_foundation_moves_follow() -> None:
    pos = p1_position()
    pos.play("R-F1")
    assert legal(pos) == sorted(f"H1-{f}" for f in ALL_F[1:])  # A♠: any empty foundation


def test_P1_when_the_turned_card_waits() -> None:
    """A reserve card that comes to fit while a card is turned goes first, before the discard."""
    pos = position(H=houses(H1="AH 7D", H2="8S"), A={"reserve": "9C 2H", "hand": "2D 5S"})
    pos.play("T")
    assert "C-W" in legal(pos)
    pos.play("H1-H2")  # uncovers the A♥
    pos.play("H1-F1")  # now the reserve 2♥ fits on F1
    assert legal(pos) == ["R-F1"]
    refuse(pos, "C-W", "S1")


# ---------------------------------------------------------------- P2


def p2_position() -> Position:
    """A♠ (H1) and A♦ (H2) fit a foundation; the reserve 7♦ and the 7♥ (H5) could go on H4."""
    return position(
        H=houses(H1="AS", H2="KC AD", H3="2C", H4="8S", H5="7H"),
        A={"reserve": "9C 7D", "hand": "2D 5S"},
        B={"reserve": "6H", "hand": "4C"},
    )


def test_P2_only_foundation_moves_and_the_mover_chooses_among_them() -> None:
    pos = p2_position()
    expected = sorted(f"{h}-{f}" for h in ("H1", "H2") for f in ALL_F)
    assert legal(pos) == expected
    pos.play("H2-F5")  # the mover picks the A♦ first, on F5
    assert legal(pos) == sorted(f"H1-{f}" for f in ALL_F if f != "F5")


@pytest.mark.parametrize("text", ["H5-H4", "H5-OR", "R-H4", "T"])
def test_P2_no_other_move_turn_while_a_card_fits(text: str) -> None:
    message = refuse(p2_position(), text, "S2")
    assert "foundation" in message


def test_P2_no_discard_or_E_while_a_card_fits() -> None:
    pos = position(H=houses(H1="KS 6D"), A={"reserve": "9C", "hand": "AH"})
    pos.play("T")
    refuse(pos, "C-W", "S2")
    pos2 = position(H=houses(H1="KS AD"), A={"reserve": "9C"})
    refuse(pos2, "E", "S2")


def test_P2_a_foundation_can_take_the_next_card_of_its_suit() -> None:
    pos = position(H=houses(H3="3D"), F={4: "AD 2D"}, A={"reserve": "9C", "hand": "5S"})
    assert legal(pos) == ["H3-F4"]


def test_P2_the_reserve_card_comes_first_P1() -> None:
    pos = position(H=houses(H1="AS"), A={"reserve": "9C AD", "hand": "5S"})
    assert all(m.startswith("R-") for m in legal(pos))
    refuse(pos, "H1-F1", "S1")


# ---------------------------------------------------------------- P3


def test_P3_no_turning_while_a_house_is_empty() -> None:
    pos = position(H=houses(H3=""), A={"reserve": "9C 5C", "hand": "2D"})
    message = refuse(pos, "T", "S3")
    assert "H3" in message and "reserve" in message
    assert "R-H3" in legal(pos)
    pos.play("R-H3")
    assert "T" in legal(pos)


def test_P3_every_empty_house_is_filled_first() -> None:
    pos = position(H=houses(H3="", H6=""), A={"reserve": "9C 6D 5C", "hand": "2D"})
    pos.play("R-H3")
    refuse(pos, "T", "S3")
    pos.play("R-H6")
    pos.play("T")
    assert to_document(pos)["A"]["turned"] == "2D"


def test_P3_does_not_apply_once_the_reserve_is_empty() -> None:
    pos = position(H=houses(H3=""), A={"hand": "2D"})
    assert "T" in legal(pos)
    pos.play("T")


def test_P3_the_houses_may_be_filled_from_elsewhere_too() -> None:
    """Only turning is forbidden: other moves stay open while a house is empty."""
    pos = position(H=houses(H3="", H4="8S"), A={"reserve": "9C 7H", "hand": "2D"})
    assert {"R-H3", "R-H4", "H1-H3"} <= set(legal(pos))


# ---------------------------------------------------------------- R6.1


def test_R6_1_a_buried_card_need_not_be_dug_out() -> None:
    pos = position(
        H=houses(H1="AS 9H"),
        A={"reserve": "AH 5C", "hand": "2D", "waste": "AC"},
        B={"reserve": "AD", "hand": "4C"},
    )
    moves = legal(pos)
    assert "T" in moves
    assert not [m for m in moves if "-F" in m]  # no foundation move is compulsory, or possible
    pos.play("T")
    pos.play("C-W")
    assert pos.to_move == 1


def test_R6_1_uncovering_a_card_makes_it_compulsory() -> None:
    pos = position(H=houses(H1="AS 8H", H2="9C"), A={"reserve": "5C", "hand": "2D"})
    pos.play("H1-H2")
    assert legal(pos) == sorted(f"H1-{f}" for f in ALL_F)
