"""RULES.md §7: violation codes S1-S5, the other refusals, and Stop! (R7.1-R7.6)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import (
    IllegalMove,
    Move,
    Position,
    WrongStop,
    call_stop,
    to_document,
    turn_violations,
    view,
)
from tests.engine.builders import legal, position
from tests.engine.rules_support import QUIET, assert_plain, houses, play, refuse


def moves(pos: Position, texts: str) -> list[Move]:
    """Parse a turn's moves from ``pos`` without playing them (all by the same seat)."""
    return [pos.parse(t) for t in texts.split()]


def classic(pos: Position, texts: str) -> list[str | None]:
    return [pos.push(pos.parse(t), classic=True) for t in texts.split()]


# ---------------------------------------------------------------- S1-S5


def test_S1_a_move_while_the_reserve_card_fits_a_foundation() -> None:
    pos = position(H=houses(H1="8S", H2="7H"), A={"reserve": "9C AH", "hand": "2D"})
    message = refuse(pos, "H2-H1", "S1")
    assert "A♥" in message and "reserve" in message and "F1" in message
    refuse(pos, "T", "S1")


def test_S2_discard_while_a_card_fits_a_foundation() -> None:
    pos = position(H=QUIET, A={"reserve": "9C", "hand": "2D AH"})
    pos.play("T")
    message = refuse(pos, "C-W", "S2")
    assert "A♥" in message and "foundation" in message and "discard" in message


def test_S2_the_message_calls_the_turned_card_a_turned_card() -> None:
    """Plain words: "the A♥ on C" makes a player decode the notation; say "turned card"."""
    pos = position(H=QUIET, A={"reserve": "9C", "hand": "2D AH"})
    pos.play("T")
    message = refuse(pos, "C-W", "S2")
    assert "turned card" in message
    assert " on C " not in message


def test_S2_a_house_move_while_a_house_card_fits_a_foundation() -> None:
    pos = position(H=houses(H1="8S", H2="7H", H3="AD"), A={"reserve": "9C", "hand": "2D"})
    message = refuse(pos, "H2-H1", "S2")
    assert "A♦" in message and "H3" in message and "7♥" in message


def test_S3_turning_while_a_house_is_empty_and_the_reserve_is_not() -> None:
    pos = position(H=houses(H5=""), A={"reserve": "9C", "hand": "2D"})
    message = refuse(pos, "T", "S3")
    assert "H5" in message and "empty" in message and "reserve" in message


def test_S4_a_card_that_does_not_fit_names_both_cards() -> None:
    pos = position(H=houses(H1="8D", H2="7H"), A={"reserve": "9C", "hand": "2D"})
    message = refuse(pos, "H2-H1", "S4")
    assert "7♥" in message and "8♦" in message


def test_S4_foundation_and_loading_messages_name_the_cards() -> None:
    pos = position(
        H=houses(H1="3H"),
        F={1: "AS 2S"},
        A={"reserve": "9C", "hand": "2D"},
        B={"reserve": "5H", "hand": "4C"},
    )
    message = refuse(pos, "H1-F1", "S4")
    assert "3♥" in message and "2♠" in message
    message = refuse(pos, "H1-OR", "S4")
    assert "3♥" in message and "5♥" in message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("H3-H1", "H3 is empty"),
        ("W-H3", "waste"),
        ("OR-H3", "opponent's reserve"),
        ("OW-H3", "opponent's waste"),
        ("F1-H3", "foundation"),
        ("C-H3", "turned card"),
    ],
)
def test_S5_a_card_that_is_not_available(text: str, words: str) -> None:
    pos = position(
        H=houses(H3=""),
        F={1: "AS"},
        A={"reserve": "9C", "hand": "2D", "waste": "5D"},
        B={"reserve": "6H", "waste": "7S", "hand": "4C"},
    )
    message = refuse(pos, text, "S5")
    assert words in message


def test_S5_an_empty_reserve() -> None:
    pos = position(H=houses(H3=""), A={"hand": "2D"})
    assert "empty" in refuse(pos, "R-H3", "S5")


@pytest.mark.parametrize(
    ("kwargs", "text", "code"),
    [
        # S5 before S1: the source is empty while the reserve ace waits
        ({"H": houses(H3=""), "A": {"reserve": "AH", "hand": "2D"}}, "H3-H4", "S5"),
        # S5 before S4: not available and would not fit either
        ({"H": QUIET, "A": {"reserve": "9C", "hand": "2D", "waste": "5D"}}, "W-H1", "S5"),
        # S4 before S1: a misfit while the reserve ace waits
        ({"H": houses(H2="7H"), "A": {"reserve": "AH", "hand": "2D"}}, "H2-H3", "S4"),
        # S4 before S2: a misfit while a house ace waits
        ({"H": houses(H2="7H", H4="AD"), "A": {"reserve": "9C", "hand": "2D"}}, "H2-H3", "S4"),
        # S1 before S2: both a reserve and a house card fit
        (
            {"H": houses(H1="8S", H2="7H", H4="AD"), "A": {"reserve": "AH", "hand": "2D"}},
            "H2-H1",
            "S1",
        ),
        # S1 before S3
        ({"H": houses(H3=""), "A": {"reserve": "AH", "hand": "2D"}}, "T", "S1"),
        # S2 before S3
        ({"H": houses(H3="", H4="AD"), "A": {"reserve": "9C", "hand": "2D"}}, "T", "S2"),
    ],
)
def test_S1_to_S5_only_the_first_code_in_the_order_S5_S4_S1_S2_S3(
    kwargs: dict[str, Any], text: str, code: str
) -> None:
    refuse(position(**kwargs), text, code)


@pytest.mark.parametrize(
    ("kwargs", "text", "code"),
    [
        ({"H": QUIET, "A": {"reserve": "9C", "hand": "2D"}}, "C-W", "NO_TURNED_CARD"),
        ({"H": QUIET, "A": {"reserve": "9C", "turned": "2D"}}, "T", "ALREADY_TURNED"),
        ({"H": QUIET, "A": {"reserve": "9C"}}, "T", "NO_CARDS"),
        ({"H": QUIET, "A": {"reserve": "9C", "waste": "2D"}}, "E", "CANNOT_END"),
        ({"H": QUIET, "A": {"reserve": "9C", "turned": "2D"}}, "E", "CANNOT_END"),
        (
            {
                "H": houses(H1="8S", H2="7H"),
                "A": {"reserve": "9C", "hand": "2D"},
                "engine": {"turn_moves": 500},
            },
            "H2-H1",
            "TURN_TOO_LONG",
        ),
    ],
)
def test_S_other_refusals_are_not_violations(kwargs: dict[str, Any], text: str, code: str) -> None:
    pos = position(**kwargs)
    refuse(pos, text, code)
    with pytest.raises(IllegalMove) as info:  # not even the classic game accepts them
        pos.push(pos.parse(text), classic=True)
    assert info.value.code == code
    assert not info.value.is_violation


def test_S_other_refusals_bad_notation_and_game_over() -> None:
    pos = position(H=houses(H1="8S"), A={"reserve": "7H"})
    with pytest.raises(IllegalMove) as info:
        pos.play("R-X9")
    assert info.value.code == "BAD_NOTATION"
    assert_plain(info.value.message)
    pos.play("R-H1")  # A's last card: A wins (R8.1)
    refuse(pos, "T", "GAME_OVER")
    assert pos.is_over


# ---------------------------------------------------------------- R7.1


@pytest.mark.parametrize(("text", "code"), [("H2-H1", "S4"), ("W-H1", "S5"), ("H3-H4", "S5")])
def test_R7_1_building_and_availability_violations_are_refused_outright(
    text: str, code: str
) -> None:
    pos = position(
        H=houses(H1="8D", H2="7H", H3=""), A={"reserve": "9C", "hand": "2D", "waste": "7C"}
    )
    before = to_document(pos)
    for mode in (False, True):
        with pytest.raises(IllegalMove) as info:
            pos.push(pos.parse(text), classic=mode)
        assert info.value.code == code
        assert to_document(pos) == before
    with pytest.raises(IllegalMove):
        turn_violations(pos, moves(pos, text))


def test_R7_1_a_stop_on_such_a_move_undoes_it_and_passes_the_turn() -> None:
    start = position(H=houses(H1="8D", H2="7H"), A={"reserve": "9C", "hand": "2D"})
    after = call_stop(start, moves(start, "H2-H1"), 0)
    assert after.to_move == 1
    doc = to_document(after)
    assert doc["houses"][:2] == [["8D"], ["7H"]]
    assert doc["A"] == to_document(start)["A"]


# ---------------------------------------------------------------- R7.2


def test_R7_2_stop_on_S1_the_reserve_card_goes_to_the_foundation() -> None:
    start = position(
        H=QUIET, A={"reserve": "9C AH", "hand": "5D 2D"}, B={"reserve": "6S", "hand": "4C"}
    )
    turn = moves(start, "T C-W")
    assert turn_violations(start, turn) == ["S1", "S1"]  # the A♥ still fitted at the discard
    after = call_stop(start, turn, 0)
    doc = to_document(after)
    assert doc["foundations"][0] == ["AH"]
    assert doc["A"]["reserve"] == ["9C"]
    assert doc["A"]["hand"] == ["5D", "2D"]  # the turn was undone
    assert doc["A"]["waste"] == []
    assert doc["to_move"] == "B"


def test_R7_2_stop_on_S2_the_caller_chooses_the_foundation_move() -> None:
    start = position(H=houses(H1="AS", H2="KH AD"), A={"reserve": "9C", "hand": "5D 2D"})
    turn = moves(start, "T C-W")
    assert turn_violations(start, turn) == ["S2", "S2"]
    chosen = call_stop(start, turn, 0, choice=start.parse("H2-F3"))
    doc = to_document(chosen)
    assert doc["foundations"][2] == ["AD"]
    assert doc["houses"][0] == ["AS"]
    assert doc["A"]["hand"] == ["5D", "2D"]
    assert doc["to_move"] == "B"
    default = call_stop(start, turn, 0)
    assert sum(len(f) for f in default.foundations) == 1
    with pytest.raises(WrongStop):  # a move that is not one of the omitted ones
        call_stop(start, turn, 0, choice=start.parse("R-H1"))


def test_R7_2_stop_on_S2_after_a_house_move() -> None:
    start = position(H=houses(H1="8S", H2="7H", H3="AD"), A={"reserve": "9C", "hand": "2D"})
    turn = moves(start, "H2-H1 T C-W")
    assert turn_violations(start, turn) == ["S2", "S2", "S2"]
    after = call_stop(start, turn, 0)
    doc = to_document(after)
    assert doc["houses"][:3] == [["8S"], ["7H"], []]  # the house move was undone
    assert ["AD"] in doc["foundations"]
    assert doc["to_move"] == "B"


def test_R7_2_stop_on_S3_the_turned_card_goes_back_and_a_space_is_filled() -> None:
    start = position(H=houses(H3="", H6=""), A={"reserve": "9C 5C", "hand": "4D 2D"})
    turn = moves(start, "T C-W")
    assert turn_violations(start, turn) == ["S3", None]
    after = call_stop(start, turn, 0, choice=start.parse("R-H6"))
    doc = to_document(after)
    assert doc["houses"][5] == ["5C"]
    assert doc["houses"][2] == []
    assert doc["A"]["hand"] == ["4D", "2D"]  # the 2♦ is back on top of the hand
    assert doc["A"]["turned"] is None
    assert doc["A"]["waste"] == []
    assert doc["to_move"] == "B"


def test_R7_2_the_classic_game_accepts_S1_S2_S3_and_reports_them() -> None:
    pos = position(H=houses(H3=""), A={"reserve": "9C", "hand": "4D 2D"})
    assert classic(pos, "T C-W") == ["S3", None]
    assert pos.to_move == 1
    assert to_document(pos)["A"]["waste"] == ["2D"]


# ---------------------------------------------------------------- R7.3


def test_R7_3_a_discarded_card_that_fitted_goes_to_the_foundation_instead() -> None:
    start = position(H=QUIET, A={"reserve": "9C", "hand": "5D AH"}, B={"hand": "4C"})
    turn = moves(start, "T C-W")
    assert turn_violations(start, turn) == [None, "S2"]
    after = call_stop(start, turn, 1)
    doc = to_document(after)
    assert ["AH"] in doc["foundations"]
    assert doc["A"]["waste"] == []
    assert doc["A"]["hand"] == ["5D"]
    assert doc["to_move"] == "B"


def test_R7_3_the_discarded_card_is_preferred_over_other_fitting_cards() -> None:
    start = position(H=houses(H1="9D 8S", H2="AD 7H"), A={"reserve": "9C", "hand": "5S AH"})
    # T shows the AH; 7H onto 8S (already an S2) uncovers the AD; A discards the AH.
    turn = moves(start, "T H2-H1 C-W")
    assert turn_violations(start, turn) == [None, "S2", "S2"]
    after = call_stop(start, turn, 2)
    doc = to_document(after)
    assert ["AH"] in doc["foundations"]
    assert doc["houses"][1] == ["AD"]
    assert doc["to_move"] == "B"


# ---------------------------------------------------------------- R7.4


def test_R7_4_a_violation_nobody_calls_stands() -> None:
    pos = position(H=houses(H4="AD"), A={"reserve": "9C", "hand": "2D"}, B={"hand": "5S 4C"})
    assert classic(pos, "T C-W") == ["S2", "S2"]
    assert pos.to_move == 1
    play(pos, "H4-F1 T C-W")  # B plays on; the position keeps A's discard
    assert to_document(pos)["A"]["waste"] == ["2D"]


def test_R7_4_views_do_not_reveal_a_violation() -> None:
    pos = position(H=houses(H4="AD"), A={"reserve": "9C", "hand": "2D"}, B={"hand": "5S 4C"})
    clean = position(
        H=houses(H4="AD"), A={"reserve": "9C", "waste": "2D"}, B={"hand": "5S 4C"}, to_move="B"
    )
    classic(pos, "T C-W")
    for viewer in (0, 1, None):
        seen = view(pos, viewer)
        assert seen == view(clean, viewer) | {"turns": seen["turns"]}
        assert "S2" not in json.dumps(seen) and "violation" not in json.dumps(seen)


def test_R7_4_the_caller_names_the_move_and_the_record_shows_the_violations() -> None:
    start = position(H=houses(H1="8S", H2="KH 7H", H4="KC AD"), A={"reserve": "9C", "hand": "5S"})
    clean = moves(start, "H4-F1 H2-H1 T C-W")
    assert turn_violations(start, clean) == [None, None, None, None]
    turn = moves(start, "H2-H1 H4-F1 T C-W")
    assert turn_violations(start, turn) == ["S2", None, None, None]
    with pytest.raises(WrongStop):
        call_stop(start, turn, 1)  # the foundation move broke no rule
    after = call_stop(start, turn, 0)
    doc = to_document(after)
    assert doc["houses"][1] == ["KH", "7H"]
    assert ["AD"] in doc["foundations"]
    assert doc["to_move"] == "B"


# ---------------------------------------------------------------- R7.5


def test_R7_5_a_wrong_call_is_refused() -> None:
    """``call_stop`` refuses the call (WrongStop). Counting wrong calls and taking away
    every third caller's turn is the game's (tests/engine/test_game.py, R7.5)."""
    start = position(H=houses(H1="8S", H2="KH 7H"), A={"reserve": "9C", "hand": "5D 2D"})
    turn = moves(start, "H2-H1 T C-W")
    assert turn_violations(start, turn) == [None, None, None]
    before = to_document(start)
    for index in range(3):
        with pytest.raises(WrongStop) as info:
            call_stop(start, turn, index)
        assert info.value.code == "WRONG_STOP"
        assert_plain(info.value.message)
    with pytest.raises(WrongStop):
        call_stop(start, turn, 3)  # there is no fourth move
    assert to_document(start) == before


# ---------------------------------------------------------------- R7.6


def long_turn(**kwargs: Any) -> Position:
    return position(engine={"turn_moves": 500}, **kwargs)


def test_R7_6_after_500_moves_only_T_remains_when_nothing_fits_a_foundation() -> None:
    pos = long_turn(
        H=houses(H1="8S", H2="7H"),
        A={"reserve": "6S", "hand": "7D"},
        B={"reserve": "7S", "waste": "8H", "hand": "4C"},
    )
    assert legal(pos) == ["T"]
    for text in ("H2-H1", "R-OR", "H2-OW"):
        message = refuse(pos, text, "TURN_TOO_LONG")
        assert "500" in message
    pos.play("T")
    assert legal(pos) == ["C-W"]
    refuse(pos, "C-H1", "TURN_TOO_LONG")
    pos.play("C-W")
    assert pos.to_move == 1


def test_R7_6_foundation_moves_are_still_accepted() -> None:
    pos = long_turn(H=houses(H1="AS", H2="8S", H3="7H"), A={"reserve": "9C", "hand": "2D"})
    assert legal(pos) == [f"H1-F{i}" for i in range(1, 9)]
    pos.play("H1-F1")
    assert legal(pos) == ["R-H1"]  # H1 is empty now: only the reserve may fill it


def test_R7_6_filling_an_empty_house_from_the_reserve_is_still_accepted() -> None:
    pos = long_turn(H=houses(H1="", H2="8S", H3="7H"), A={"reserve": "9C 6D", "hand": "2D"})
    assert legal(pos) == ["R-H1"]
    refuse(pos, "H3-H1", "TURN_TOO_LONG")
    refuse(pos, "T", "S3")
    pos.play("R-H1")
    assert legal(pos) == ["T"]


def test_R7_6_E_is_still_accepted() -> None:
    pos = long_turn(H=houses(H2="8S", H3="7H"), A={"reserve": "9C"})
    assert legal(pos) == ["E"]
    pos.play("E")
    assert pos.to_move == 1


def test_R7_6_the_limit_is_500_moves() -> None:
    pos = position(
        H=houses(H1="8S", H2="8C", H3="7H"),
        A={"reserve": "9C", "hand": "2D"},
        engine={"turn_moves": 498},
    )
    play(pos, "H3-H1 H1-H2")  # moves 499 and 500
    refuse(pos, "H2-H1", "TURN_TOO_LONG")


def test_R7_6_the_count_starts_again_next_turn() -> None:
    pos = long_turn(
        H=houses(H1="8S", H2="8C", H3="7H"),
        A={"reserve": "9C", "hand": "2D"},
        B={"hand": "4C", "waste": "5S"},
    )
    play(pos, "T C-W T C-W")
    pos.play("H3-H1")
    assert pos.to_move == 0
