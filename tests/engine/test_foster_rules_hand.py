"""Foster's illustrative two-pack hand (Foster's Russian Bank, 1920, pp.18-46), replayed
under the ``foster`` preset (RULES.md V14; docs/variants.md, "V14").

``test_foster_hand.py`` rebuilds the deal and the play from the book and replays it
under ``pagat``, listing seven points where Foster and pagat disagree. This module
reuses its packs, diagrams and move scripts (imported, not copied) and replays the
same four turns under Foster's own rules, where:

1. the stock is dealt face down and each card of it is turned with ``TR`` (pp.6-7,
   25-26, 29-31, 35): the scripts below are pagat's with a ``TR`` before every stock
   card; P1 now first meets blue's 4D when it is turned, after the 3C went onto the
   4H (p.30), as Foster plays it;
2. the top cards of the opponent's stock and discard are available (pp.11, 29, 42):
   red takes his 6S back from blue's discard for the 5H (p.42), an ordinary move;
3. the own discard's top is available (pp.38-39, 45): red's 9D, 8D, 7D and blue's
   5S-TS are ordinary moves, the spades compulsory (P2);
4. discard cards never fill spaces (pp.8, 35): checked where Foster says so;
5. one card is turned before the tableau changes (p.15): checked at blue's turn;
6. who starts: the preset cuts (p.2); the book's red won the cut, so the diagrams
   give ``to_move`` as the book does;
7. the hand and discard runs are not yet counted for S11 (no discard is turned over
   in these four turns) and nothing ends in a stalemate.

Where the book's play still breaks a V14 rule
---------------------------------------------
Foster's p.9 lets a player load the opponent's stock or discard with a *tableau*
card only "before placing any card from his own hand, stock, or discard"; the engine
applies that (``house_loads_first``, S4). Foster's own play breaks it four times:
blue moves the 8D from the 9C onto red's discard after three stock cards (p.30), and
red loads the 8S (p.40), the 6S (p.40) and the 6S again (p.41) from the tableau onto
blue's discard after many cards of his own. The text puts each of them after the
player's own plays of that turn and gives them as good play, so the book either
reads p.9 less strictly than the preset does or overlooks it; the preset keeps the
rule as p.9 states it (docs/variants.md). These four plays are marked ``~`` in the
scripts: the engine's refusal (S4) is asserted, then the play is made with that one
option switched off and the position is put back under ``foster`` (``_despite``).
Everything else Foster plays in these four turns is a legal move under ``foster``.

The diagrams are those of ``test_foster_hand.py`` (Diagrams 1, 3, 4, 5, 6). As
position documents under ``foster`` they also say how much of each stock lies face
down (``engine.stock_down``): red's JC lies face up on his stock in Diagrams 3 and 4
(p.26, "left face up on the top of his stock").
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.engine import PRESETS, Position, from_document, to_document
from games.engine.rules import CUT_LOWER
from tests.engine.builders import document, legal
from tests.engine.test_foster_hand import (
    BLUE_1_SPACES,
    BLUE_2_CLUBS,
    BLUE_2_END,
    BLUE_2_RELEASE,
    DIAGRAM_1,
    DIAGRAM_3,
    DIAGRAM_4,
    DIAGRAM_5,
    DIAGRAM_6,
    RED_1_HAND,
    RED_1_TABLEAU,
    RED_2_DIG,
    RED_2_REST,
    RED_2_SEPARATE,
    all_cards,
    assert_layout,
)

FOSTER = PRESETS["foster"]

# ------------------------------------------------------------------ the play, in turns

#: pp.25-26: the seven stock cards, each turned first; the JC stays face up on the stock.
RED_1_STOCK = "TR R-H3 TR R-H4 TR R-H6 TR R-H8 TR R-H4 TR R-H7 TR R-H8 TR"
#: pp.29-30: the 7D loaded first (a tableau card before any own card: allowed); KH, 8D,
#: QS from the stock; the 9D turned; the 8D taken back off the 9C onto red's discard
#: (breaks p.9, see above), the 9D after it.
BLUE_1_OPENING = "H7-OW TR R-H7 TR R-H4 TR R-H7 TR ~H4-OW R-OW"
#: p.30: the DA turned goes up (P1), the 2D and 3D after it (P2); the 3C onto the 4H
#: and the red 2D after it (pagat's P1 on the 4D does not arise: the 4D is still face
#: down); then p.31: 4D (P1), 2S (P1), 3D, JD, TC, 9H, and the TS into a space.
BLUE_1_DIAMONDS = "TR R-F2 H1-F2 H8-F2"
BLUE_1_STOCK = "TR R-F2 TR R-F1 TR R-H8 TR R-H7 TR R-H7 TR R-H7 TR R-H1"
BLUE_1_HAND = "T C-H3 T C-W"  # p.34
#: pp.34-35: the TS loaded (first play of the turn), the face-up JC into its space; the
#: AC (P1), QS, 2C (P1) turned and played, the 3C up (P2); the 8S turned.
RED_2_OPENING = "H1-OW R-H1 TR R-F3 TR R-H5 TR R-F3 H3-F3 TR"
#: pp.38-42 as pagat's script, with Foster's own-discard plays and his taking back of
#: the 6S now ordinary moves, and the three tableau loads marked as breaking p.9.
RED_2_REST_FOSTER = re.sub(r"\b(H\d-O[WR])\b", r"~\1", RED_2_REST.replace("!", ""))
#: pp.42-45: the 4S frees blue's discard: 5S to TS go up, each compulsory (V1, P2).
BLUE_2 = " ".join((BLUE_2_CLUBS, BLUE_2_RELEASE.replace("!", ""), BLUE_2_END))

#: The plays that break ``house_loads_first`` (p.9), as the scripts mark them.
BROKEN_P9 = ("H4-OW", "H2-OW", "H8-OW", "H4-OW")


def foster(kwargs: dict[str, Any], stock_down: dict[str, int] | None = None) -> Position:
    """A diagram as a position under ``foster``; ``stock_down`` as the document's field
    (a seat not named has its whole stock face down)."""
    engine = {"stock_down": stock_down} if stock_down else None
    return from_document(document(rules="foster", engine=engine, **kwargs))


def diagram_1() -> Position:
    return foster(DIAGRAM_1)


def diagram_3() -> Position:
    return foster(DIAGRAM_3, {"A": 4})  # red's JC face up on four face-down cards


def diagram_4() -> Position:
    return foster(DIAGRAM_4, {"A": 4})


def diagram_5() -> Position:
    return foster(DIAGRAM_5)


def _despite(pos: Position, move: str) -> Position:
    """A tableau load after the mover's own cards (p.9): refused under ``foster`` with
    S4; made with ``house_loads_first`` off, then the position goes back to ``foster``."""
    refusal = pos.refusal(pos.parse(move))
    assert refusal is not None and refusal.code == "S4", (move, refusal)
    assert "before you play a card of your own" in refusal.message
    doc = to_document(pos)
    doc["rules"] = {"preset": "foster", "house_loads_first": False}
    lax = from_document(doc)
    lax.play(move)
    doc = to_document(lax)
    doc["rules"] = "foster"
    return from_document(doc)


def follow(pos: Position, script: str, broken: list[str] | None = None) -> Position:
    """Play ``script``: every move must be legal under ``foster`` (listed by
    ``legal_moves`` and accepted), except those marked ``~`` (``_despite``)."""
    for move in script.split():
        if move.startswith("~"):
            pos = _despite(pos, move[1:])
            if broken is not None:
                broken.append(move[1:])
            continue
        assert move in legal(pos), (move, legal(pos))
        pos.play(move)
    return pos


def code(pos: Position, move: str) -> str | None:
    refusal = pos.refusal(pos.parse(move))
    return None if refusal is None else refusal.code


def stock(pos: Position, seat: str) -> tuple[int, list[str]]:
    """(face-down cards, face-up cards bottom to top) of a seat's stock."""
    doc = to_document(pos)
    down = doc["engine"]["stock_down"][seat]
    return down, doc[seat]["reserve"][down:]


# ------------------------------------------------------------------ Diagram 1: the deal


def test_V14_foster_preset_is_the_two_pack_rules_with_a_cut() -> None:
    """pp.2-4: 12-card stock, 36-card hand, the lower cut starts; V1 (pp.38-39)."""
    assert FOSTER.reserve_size == 12
    assert FOSTER.starter == CUT_LOWER
    assert FOSTER.own_waste_available
    assert FOSTER.stock_face_down and FOSTER.take_from_opponent
    assert FOSTER.waste_never_fills_spaces and FOSTER.house_loads_first
    assert FOSTER.one_card_first and FOSTER.compulsory_after_runs
    assert FOSTER.stalemate_scores_nothing


def test_V14_stock_face_down_no_card_of_it_is_seen_at_the_deal() -> None:
    """pp.3, 25 (point 1): red's stock is face down, so the 2D on it is not seen and no
    P1 arises; the SA alone must go up (P2)."""
    pos = diagram_1()
    assert stock(pos, "A") == (12, [])
    assert stock(pos, "B") == (12, [])
    assert legal(pos) == [f"H4-F{i}" for i in range(1, 9)]
    assert code(pos, "TR") == "S2"
    assert code(pos, "R-H1") == "S5"


def test_V14_stock_face_down_P3_spaces_are_filled_from_the_stock() -> None:
    """pp.7-8, 25: with spaces open and cards in the stock, red may not turn a hand card
    (S3); he turns the stock's top card (TR), the 2D, which fits only a space."""
    pos = follow(diagram_1(), RED_1_TABLEAU)
    assert code(pos, "T") == "S3"
    assert "TR" in legal(pos) and "T" not in legal(pos)
    pos.play("TR")
    assert stock(pos, "A") == (11, ["2D"])
    assert [m for m in legal(pos) if m.startswith("R-")] == ["R-H3", "R-H4", "R-H6", "R-H7"]
    assert code(pos, "TR") == "ALREADY_TURNED"  # the 2D must go before the next one
    assert code(pos, "T") == "S3"


def test_V14_red_first_turn_leaves_the_JC_face_up_on_the_stock() -> None:
    """pp.25-26: 2D, TD, 4H, 4C, 9C, 7D, 3D turned and played; the JC is turned and fits
    nowhere: it stays face up on the stock, and the 6D from the hand stops him."""
    pos = follow(diagram_1(), " ".join((RED_1_TABLEAU, RED_1_STOCK)))
    assert stock(pos, "A") == (4, ["JC"])
    assert not [m for m in legal(pos) if m.startswith("R-")]
    assert code(pos, "TR") == "ALREADY_TURNED"
    pos = follow(pos, RED_1_HAND)
    assert_layout(pos, DIAGRAM_3)
    assert stock(pos, "A") == (4, ["JC"])


# ------------------------------------------------------------------ Diagram 3: blue's turn


def test_V14_one_card_first_blue_may_not_turn_stock_and_hand_before_playing() -> None:
    """p.15 (point 5): before changing the tableau blue may turn one card, from his stock
    or his hand, not both: after TR (the KH), T is refused while a card can move."""
    pos = diagram_3()
    pos.play("TR")
    assert stock(pos, "B") == (11, ["KH"])
    assert code(pos, "T") == "ONE_CARD_FIRST"
    assert "T" not in legal(pos) and legal(pos)
    pos.play("H7-OW")  # the tableau changes; the space it leaves takes the KH first (P3)
    assert code(pos, "T") == "S3"
    pos.play("R-H7")
    assert code(pos, "T") is None


def test_V14_taking_the_7D_back_never_into_a_space() -> None:
    """p.29 (point 2): blue loads the 7D on red's discard, "as he can take it back
    again": onto a black eight or a foundation; but never into a space (pp.8, 35,
    point 4: S4), which pagat refused as unavailable (S5)."""
    pos = diagram_3()
    pos.play("H7-OW")
    assert code(pos, "OW-H7") == "S4"
    assert not [m for m in legal(pos) if m.startswith("OW-")]  # no black eight out


def test_V14_house_loads_first_blue_cannot_move_the_8D_on_red_discard() -> None:
    """p.9 against pp.29-30: after KH, 8D and QS from his stock, blue moves the 8D from
    the 9C onto red's discard. Under ``house_loads_first`` that tableau load comes too
    late (S4), and the 9D turned from the stock, which may load at any time (p.39),
    has no 8D to go on. Foster's play goes on with the option off (``_despite``)."""
    pos = follow(diagram_3(), "H7-OW TR R-H7 TR R-H4 TR R-H7 TR")
    assert stock(pos, "B") == (8, ["9D"])
    assert code(pos, "H4-OW") == "S4"
    assert "H4-OW" not in legal(pos)
    assert code(pos, "R-OW") == "S4"  # the 9D on the 7D
    pos = _despite(pos, "H4-OW")
    assert code(pos, "R-OW") is None


def test_V14_blue_first_turn_reaches_diagram_4() -> None:
    """pp.29-34: blue's turn under ``foster``; the 4D is turned only after the 3C and
    2D moved (p.30), and goes up at once (P1)."""
    broken: list[str] = []
    pos = follow(diagram_3(), " ".join((BLUE_1_OPENING, BLUE_1_DIAMONDS, BLUE_1_SPACES)), broken)
    assert stock(pos, "B") == (7, [])
    pos.play("TR")
    assert stock(pos, "B") == (6, ["4D"])
    assert legal(pos) == ["R-F2"]  # P1
    pos = follow(pos, BLUE_1_STOCK.split(" ", 1)[1])
    assert to_document(pos)["B"]["reserve"] == []
    assert code(pos, "T") is None  # a space is open, but the stock is used up
    pos = follow(pos, BLUE_1_HAND)
    assert broken == ["H4-OW"]
    assert_layout(pos, DIAGRAM_4)


# ------------------------------------------------------------------ Diagram 4: red's turn


def test_V14_red_plays_the_face_up_JC_into_the_space() -> None:
    """pp.34-35: the TS goes on blue's 9S (a tableau load before any own card), and
    the JC lying face up on red's stock fills the space; then AC (P1), QS, 2C (P1)."""
    pos = diagram_4()
    assert stock(pos, "A") == (4, ["JC"])
    pos = follow(pos, "H1-OW R-H1")
    assert stock(pos, "A") == (4, [])
    pos.play("TR")
    assert legal(pos) == [f"R-F{i}" for i in range(3, 9)]
    pos = follow(pos, "R-F3 TR R-H5 TR R-F3 H3-F3 TR")
    assert stock(pos, "A") == (0, ["8S"])


def test_V14_waste_never_fills_spaces_the_discards_stay_out_of_the_space() -> None:
    """p.35 (point 4): with the 3C gone up, red may not put blue's TS (nor 9S) into the
    space, nor his own 9D: both S4 under ``foster`` (pagat: S5, never available). The
    stock's 8S may go there, or on the 9H as Foster plays it."""
    pos = follow(diagram_4(), RED_2_OPENING)
    assert code(pos, "OW-H3") == "S4"
    assert code(pos, "W-H3") == "S4"
    assert code(pos, "R-H3") is None
    assert code(pos, "R-H7") is None


def test_V1_red_own_discard_9D_goes_on_the_TC() -> None:
    """p.38 (point 3): after digging out the 9H, red plays the 9D from his own discard
    onto the TC, then the 8D onto the 9C: pagat refused both (S5)."""
    pos = follow(diagram_4(), " ".join((RED_2_OPENING, RED_2_SEPARATE, RED_2_DIG)))
    assert code(pos, "W-H7") is None
    pos = follow(pos, "W-H7 W-H1")
    assert to_document(pos)["A"]["waste"] == ["6D", "7D"]


def test_V14_take_from_opponent_red_takes_his_6S_back_for_the_5H() -> None:
    """p.42 (point 2): red turns the 5H and takes the 6S from blue's discard onto the
    7H, then plays the 5H on it: an ordinary move under ``foster`` (pagat: S5)."""
    script = " ".join((RED_2_OPENING, RED_2_SEPARATE, RED_2_DIG, RED_2_REST_FOSTER))
    before, after = script.split(" OW-H3 ")
    pos = follow(diagram_4(), before)
    assert to_document(pos)["B"]["waste"][-1] == "6S"
    assert to_document(pos)["A"]["turned"] == "5H"
    assert "OW-H3" in legal(pos)
    pos.play("OW-H3")
    pos = follow(pos, after)
    assert_layout(pos, DIAGRAM_5)


def test_V14_red_second_turn_reaches_diagram_5() -> None:
    """pp.34-42: every play is a legal move under ``foster`` but the three tableau loads
    that come after red's own cards (p.9, see the module's docstring)."""
    broken: list[str] = []
    pos = follow(
        diagram_4(),
        " ".join((RED_2_OPENING, RED_2_SEPARATE, RED_2_DIG, RED_2_REST_FOSTER)),
        broken,
    )
    assert broken == ["H2-OW", "H8-OW", "H4-OW"]
    assert_layout(pos, DIAGRAM_5)
    assert all_cards(pos) == all_cards(diagram_1())


# ------------------------------------------------------------------ Diagram 5: blue's turn


def test_V1_the_4S_releases_blue_discard_and_the_spades_are_compulsory() -> None:
    """p.45 (point 3): once the 4S is up, blue's discard runs up to the TS; each card is
    compulsory (P2), as any available card that fits a foundation (p.11)."""
    pos = follow(diagram_5(), BLUE_2_CLUBS)
    for card in ("5S", "6S", "7S", "8S", "9S", "TS"):
        assert to_document(pos)["B"]["waste"][-1] == card
        assert legal(pos) == ["W-F1"]
        assert code(pos, "T") == "S2"
        pos.play("W-F1")
    assert to_document(pos)["B"]["waste"] == ["9S"]


def test_V14_blue_second_turn_reaches_diagram_6() -> None:
    """pp.42-45: blue's whole turn, every play legal under ``foster``."""
    pos = follow(diagram_5(), BLUE_2)
    assert_layout(pos, DIAGRAM_6)


def test_V14_the_whole_hand_from_the_deal_to_diagram_6() -> None:
    """pp.22-45: the four turns in one run from the deal, under ``foster``; only the
    four p.9 breaks are made with the option off."""
    broken: list[str] = []
    pos = follow(
        diagram_1(),
        " ".join(
            (
                RED_1_TABLEAU,
                RED_1_STOCK,
                RED_1_HAND,
                BLUE_1_OPENING,
                BLUE_1_DIAMONDS,
                BLUE_1_SPACES,
                BLUE_1_STOCK,
                BLUE_1_HAND,
                RED_2_OPENING,
                RED_2_SEPARATE,
                RED_2_DIG,
                RED_2_REST_FOSTER,
                BLUE_2,
            )
        ),
        broken,
    )
    assert tuple(broken) == BROKEN_P9
    assert_layout(pos, DIAGRAM_6)
    assert all_cards(pos) == all_cards(diagram_1())
    assert to_document(pos)["engine"]["new_hands"] == {"A": 0, "B": 0}


@pytest.mark.parametrize("move", ["H4-OW", "H2-OW", "H8-OW"])
def test_V14_house_loads_first_each_break_is_a_tableau_card(move: str) -> None:
    """The moves marked ``~`` are all house-to-opponent loads, nothing else."""
    assert re.fullmatch(r"H\d-OW", move)
    assert f"~{move}" in RED_2_REST_FOSTER or f"~{move}" in BLUE_1_OPENING
