"""RULES.md V14, Foster's two-pack rules (Foster's Russian Bank, 1920, pp.1-17), one
option at a time, each on a small position where it matters, with and without it
(as ``test_variants.py`` does for V1-V13). docs/variants.md, "V14", gives the pages
and the decisions. The preset ``foster`` combines them; its replay of Foster's
illustrative hand is ``test_foster_rules_hand.py``; the properties every preset keeps
(hidden cards, documents, legal moves against refusals, Stop!) run over it in
``test_properties.py``, its self-play in ``test_variants.py``.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from games.engine import (
    PRESETS,
    BadPosition,
    Position,
    call_stop,
    deal,
    from_document,
    to_document,
    turn_violations,
    view,
)
from games.engine.errors import PRIORITY_VIOLATIONS, REFUSALS, VIOLATIONS
from games.engine.moves import HOUSE, WASTE
from tests.engine.builders import document, legal, position
from tests.engine.rules_support import QUIET, houses, refuse
from tests.engine.test_cli import ok
from tests.engine.test_properties import RandomGame, check_legal_agrees_with_refusal, walk
from tests.hidden_cards import assert_hides


def rules_doc(**options: Any) -> dict[str, Any]:
    """The ``rules`` field of a document: pagat with these options."""
    return {"preset": "pagat", **options}


def doc_of(pos: Position) -> dict[str, Any]:
    return to_document(pos)


# ------------------------------------------------------------------ the face-down stock

STOCK = rules_doc(stock_face_down=True)


def stock_position(rules: Any = STOCK, **extra: Any) -> Position:
    """A to move, a three-card stock (4C TD 7S, the 7S on top), a hand card, quiet houses."""
    a = {"reserve": "4C TD 7S", "hand": "2D", **extra.pop("A", {})}
    b = extra.pop("B", {"reserve": "6H", "hand": "4C"})
    return position(rules=rules, H=extra.pop("H", QUIET), A=a, B=b, **extra)


def test_V14_stock_face_down_TR_turns_the_top_card_and_it_stays_up() -> None:
    """pp.6-7: the stock is face down; TR turns its top card; a card not played stays
    face up on the stock, and the next one can only be turned once it has gone."""
    on = stock_position()
    assert {"TR", "T"} <= set(legal(on))
    assert not [m for m in legal(on) if m.startswith("R-")]
    message = refuse(on, "R-OR", "S5")
    assert "TR" in message
    assert view(on, 1)["A"]["reserve"] == {"count": 3, "top": None}
    on.play("TR")
    assert doc_of(on)["engine"]["stock_down"] == {"A": 2, "B": 1}
    assert view(on, 1)["A"]["reserve"] == {"count": 3, "top": "7S"}
    refuse(on, "TR", "ALREADY_TURNED")
    on.play("T")
    refuse(on, "TR", "ALREADY_TURNED")  # a hand card is turned
    on.play("C-W")
    on.play("T")  # B's turn: its own stock stays face down
    on.play("C-W")
    assert doc_of(on)["engine"]["stock_down"]["A"] == 2
    refuse(on, "TR", "ALREADY_TURNED")  # the 7S is still up, a turn later

    off = stock_position("pagat")
    assert view(off, 1)["A"]["reserve"] == {"count": 3, "top": "7S"}
    message = refuse(off, "TR", "NO_CARDS")
    assert "TR" in message


def test_V14_stock_face_down_the_next_card_after_the_top_has_gone() -> None:
    """p.7: once the turned card is played the next one is turned by hand, not at once."""
    on = stock_position(H=houses(H3="8H"))
    on.play("TR")
    on.play("R-H3")  # the 7S on the 8H
    assert doc_of(on)["engine"]["stock_down"]["A"] == 2
    assert view(on, 1)["A"]["reserve"]["top"] is None
    assert "TR" in legal(on)
    on.play("TR")
    assert view(on, 1)["A"]["reserve"]["top"] == "TD"


def test_V14_stock_face_down_P3_empty_houses_are_filled_from_the_stock() -> None:
    """pp.7-8: with a space open and cards in the stock no hand card is turned (S3);
    the top card is turned (TR) and fills it. Pagat's face-up reserve fills it at once."""
    on = stock_position(H=houses(H3=""))
    message = refuse(on, "T", "S3")
    assert "TR" in message
    assert "TR" in legal(on)
    on.play("TR")
    refuse(on, "T", "S3")
    assert "R-H3" in legal(on)
    on.play("R-H3")
    assert "T" in legal(on)

    off = stock_position("pagat", H=houses(H3=""))
    refuse(off, "T", "S3")
    assert "R-H3" in legal(off)


def test_V14_stock_face_down_a_turned_card_that_fits_a_foundation_goes_up_P1() -> None:
    """p.6: a stock card that fits a foundation must go there at once (P1)."""
    on = stock_position(F={1: "AS 2S 3S 4S 5S 6S"})
    assert "R-F1" not in legal(on)  # face down: P1 does not see it
    on.play("TR")
    assert legal(on) == ["R-F1"]
    refuse(on, "T", "S1")


def test_V14_stock_face_down_only_a_face_up_stock_can_be_loaded() -> None:
    """pp.9-10: the opponent loads the stock's face-up top card; a face-down top takes
    nothing (nothing is known of it)."""
    on = stock_position(H=houses(H3="5H"), B={"reserve": "6H", "hand": "4C"})
    message = refuse(on, "H3-OR", "S4")
    assert "face down" in message
    up = stock_position(
        H=houses(H3="5H"), B={"reserve": "6H", "hand": "4C"}, engine={"stock_down": {"B": 0}}
    )
    assert "H3-OR" in legal(up)
    up.play("H3-OR")
    assert doc_of(up)["B"]["reserve"] == ["6H", "5H"]
    assert doc_of(up)["engine"]["stock_down"]["B"] == 0


def test_V14_stock_face_down_E_waits_for_the_stock() -> None:
    """R4.9 with a stock: no hand and no waste, but face-down stock cards: turn one
    (TR) before ending the turn; a turned card left up does not stop E."""
    on = stock_position(A={"hand": ""})
    assert legal(on) == ["TR"]
    message = refuse(on, "E", "CANNOT_END")
    assert "TR" in message
    on.play("TR")
    assert legal(on) == ["E"]
    on.play("E")
    assert doc_of(on)["to_move"] == "B"


def test_V14_stock_face_down_the_deal_and_documents() -> None:
    """pp.3-4: the whole stock is dealt face down; documents keep how much of each
    stock is face down (``engine.stock_down``), reading a missing one as all."""
    rules = PRESETS["foster"]
    pos = deal(3, rules)
    assert [len(s.reserve_down) for s in pos.seats] == [12, 12]
    assert [len(s.reserve) for s in pos.seats] == [0, 0]
    assert [len(s.hand) for s in pos.seats] == [36, 36]
    doc = doc_of(pos)
    assert doc["engine"]["stock_down"] == {"A": 12, "B": 12}
    assert from_document(json.loads(json.dumps(doc))) == pos
    assert_hides(view(pos, 0), pos)
    assert_hides(view(pos, 1), pos)
    del doc["engine"]["stock_down"]
    assert from_document(doc) == pos

    mixed = stock_position(engine={"stock_down": {"A": 1}})  # the TD and 7S face up
    assert doc_of(mixed)["A"]["reserve"] == ["4C", "TD", "7S"]
    assert doc_of(mixed)["engine"]["stock_down"] == {"A": 1, "B": 1}
    assert view(mixed, 1)["A"]["reserve"] == {"count": 3, "top": "7S"}
    assert (len(mixed.seats[0].reserve_down), len(mixed.seats[0].reserve)) == (1, 2)
    assert from_document(doc_of(mixed)) == mixed


@pytest.mark.parametrize("bad", [-1, 4, True, "2", None, [1]])
def test_V14_stock_face_down_a_document_refuses_a_bad_count(bad: object) -> None:
    with pytest.raises(BadPosition, match="stock_down"):
        stock_position(engine={"stock_down": {"A": bad}})
    with pytest.raises(BadPosition, match="stock_down"):
        stock_position(engine={"stock_down": [3]})


def test_V14_stock_face_down_stop_on_S3_passes_the_turn() -> None:
    """pp.7-8: a player who declines to fill a space from his stock "is stopped, and
    his opponent plays": S3. In classic play it is accepted and may be called; with
    the stock's top card face down nothing is carried out (the card is unknown): the
    hand card goes back, the space stays open, and the turn passes."""
    start = stock_position(H=houses(H3=""))
    moves = [start.parse("T"), start.parse("C-W")]
    assert turn_violations(start, moves) == ["S3", None]
    after = call_stop(start, moves, 0)
    doc = doc_of(after)
    assert doc["houses"][2] == []
    assert doc["A"]["hand"] == ["2D"] and doc["A"]["waste"] == []
    assert doc["engine"]["stock_down"]["A"] == 3
    assert doc["to_move"] == "B"


def test_V14_stock_face_down_stop_on_S3_with_a_face_up_card_fills_the_space() -> None:
    """R7.2 as for any reserve when the stock's top card is face up: it fills the space."""
    start = stock_position(H=houses(H3=""), engine={"stock_down": {"A": 2}})
    moves = [start.parse("T")]
    assert turn_violations(start, moves) == ["S3"]
    after = call_stop(start, moves, 0)
    assert doc_of(after)["houses"][2] == ["7S"]
    assert doc_of(after)["to_move"] == "B"


# ------------------------------------------------------------- taking from the opponent

TAKE = rules_doc(take_from_opponent=True)


def take_position(rules: Any = TAKE, **extra: Any) -> Position:
    """A to move; B's reserve top 7H and waste top 7D; an 8S in H3, H5 empty."""
    return position(
        rules=rules,
        H=extra.pop("H", houses(H3="8S", H5="")),
        A={"reserve": "9C", "hand": "2D", **extra.pop("A", {})},
        B=extra.pop("B", {"reserve": "7H", "hand": "4C", "waste": "7D"}),
        **extra,
    )


def test_V14_take_from_opponent_onto_a_house_card() -> None:
    """pp.29, 35, 42: the top cards of the opponent's stock and discard may be built on
    a house card (the 6S taken back for the 5H, p.42)."""
    on = take_position()
    assert {"OR-H3", "OW-H3"} <= set(legal(on))
    on.play("OW-H3")
    assert doc_of(on)["houses"][2] == ["8S", "7D"]
    assert doc_of(on)["B"]["waste"] == []
    assert not on.turn_productive  # not the mover's own card (R8.4)

    off = take_position("pagat")
    refuse(off, "OR-H3", "S5")
    refuse(off, "OW-H3", "S5")


def test_V14_take_from_opponent_never_into_a_space_nor_onto_its_other_pile() -> None:
    """pp.8, 35: a card taken from the opponent goes to a foundation or on a house card,
    never into a space; nor from one of its piles to the other."""
    on = take_position()
    message = refuse(on, "OR-H5", "S4")
    assert "house card" in message
    refuse(on, "OW-H5", "S4")
    refuse(on, "OW-OR", "S4")
    refuse(on, "OR-W", "S4")


def test_V14_take_from_opponent_to_a_foundation_and_then_it_is_compulsory() -> None:
    """p.11: cards playable on the foundations may be in the opponent's stock or discard
    too: they must go up before anything else (P2)."""
    on = take_position(F={2: "AH 2H 3H 4H 5H 6H"})
    assert legal(on) == ["OR-F2"]
    refuse(on, "T", "S2")
    on.play("OR-F2")
    assert doc_of(on)["foundations"][1][-1] == "7H"

    off = take_position("pagat", F={2: "AH 2H 3H 4H 5H 6H"})
    assert "R-H5" in legal(off)  # no foundation move is pending
    refuse(off, "OR-F2", "S5")


def test_V14_take_from_opponent_not_a_face_down_stock_card() -> None:
    on = take_position(rules_doc(take_from_opponent=True, stock_face_down=True))
    message = refuse(on, "OR-H3", "S5")
    assert "face down" in message


def test_V14_take_from_opponent_its_last_card_makes_it_win() -> None:
    """R8.1: a seat left without cards wins, even when its last card was taken."""
    on = take_position(B={"reserve": "7H"})
    on.play("OR-H3")
    assert on.status == "won" and on.winner == 1
    assert on.score == [0, 30 + on.seats[0].count]


# ------------------------------------------------------------- discards never fill spaces

NO_WASTE_SPACES = rules_doc(own_waste_available=True, waste_never_fills_spaces=True)


def test_V14_waste_never_fills_spaces_own_waste_top() -> None:
    """pp.8, 35: a discard is never played into a space (with V1 the own waste's top
    may otherwise fill one); it may still go on a house card."""
    kwargs: dict[str, Any] = {
        "H": houses(H3="8S", H6=""),
        "A": {"reserve": "", "hand": "2D", "waste": "QD 7H"},
    }
    on = position(rules=NO_WASTE_SPACES, **kwargs)
    message = refuse(on, "W-H6", "S4")
    assert "empty house" in message
    assert "W-H3" in legal(on)

    off = position(rules=rules_doc(own_waste_available=True), **kwargs)
    assert {"W-H6", "W-H3"} <= set(legal(off))


def test_V14_waste_never_fills_spaces_hand_cards_do() -> None:
    """p.13: hand cards may fill spaces (a new hand made from the discards too)."""
    on = position(
        rules=NO_WASTE_SPACES, H=houses(H6=""), A={"hand": "2D", "waste": "QD"}, B={"hand": "4C"}
    )
    on.play("T")
    assert "C-H6" in legal(on)


# ------------------------------------------------------------ tableau loads come first

LOADS_FIRST = rules_doc(house_loads_first=True)


def loads_position(rules: Any = LOADS_FIRST) -> Position:
    """A: reserve 9C (fits the TD in H4), hand 9H; B's waste 8H takes the 7H of H3 or A's 9H."""
    return position(
        rules=rules,
        H=houses(H3="7H", H4="TD"),
        A={"reserve": "KC 9C", "hand": "9H"},
        B={"reserve": "2S", "hand": "4C", "waste": "8H"},
    )


def test_V14_house_loads_first_before_own_cards_only() -> None:
    """p.9: a tableau card loads the opponent only before the mover places a card of
    its own; the turned card, the stock and the own discard load at any time (p.39)."""
    on = loads_position()
    assert "H3-OW" in legal(on)
    on.play("R-H4")  # an own card played
    message = refuse(on, "H3-OW", "S4")
    assert "before you play a card of your own" in message
    assert doc_of(on)["engine"]["turn_own_played"] is True
    assert from_document(doc_of(on)) == on
    on.play("T")
    assert "C-OW" in legal(on)  # the turned 9H on the 8H

    off = loads_position("pagat")
    off.play("R-H4")
    assert "H3-OW" in legal(off)


def test_V14_house_loads_first_house_moves_do_not_count() -> None:
    """Moving house cards about is not playing a card of one's own: loads stay open."""
    on = position(
        rules=LOADS_FIRST,
        H=houses(H1="9S", H2="8H", H3="7C"),
        A={"reserve": "QC", "hand": "2D"},
        B={"reserve": "2S", "hand": "4C", "waste": "8C"},
    )
    on.play("H2-H1")  # the 8H on the 9S
    assert on.turn_card_moved and not on.turn_own_played
    assert "H3-OW" in legal(on)  # the 7C on the 8C


def test_V14_house_loads_first_flag_is_per_turn() -> None:
    """The limit lasts for the rest of the turn only: the next turn loads again."""
    on = position(
        rules=LOADS_FIRST,
        H=houses(H3="7H", H4="TD"),
        A={"reserve": "KC 9C", "hand": "9H"},
        B={"reserve": "2S", "hand": "8H", "waste": "8H"},  # B discards its 8H on its 8H
    )
    on.play("R-H4")
    on.play("T")
    on.play("C-W")  # B's turn
    assert on.turn_own_played is False
    on.play("T")
    on.play("C-W")  # A's turn again
    assert "H3-OW" in legal(on)


# ------------------------------------------------------------ one card before the tableau

ONE_CARD = rules_doc(stock_face_down=True, one_card_first=True)


def test_V14_one_card_first_not_one_of_each() -> None:
    """p.15: before changing the tableau a player turns one card, from the hand or the
    stock, not both (ONE_CARD_FIRST, a refusal, not a Stop! violation)."""
    kwargs: dict[str, Any] = {"H": houses(H1="9S", H2="8H")}  # the 8H may go on the 9S
    on = stock_position(ONE_CARD, **kwargs)
    on.play("TR")
    message = refuse(on, "T", "ONE_CARD_FIRST")
    assert "only one card" in message
    with pytest.raises(Exception) as info:
        on.push(on.parse("T"), classic=True)
    assert getattr(info.value, "code", None) == "ONE_CARD_FIRST"
    on.play("R-H2")  # the tableau changes: the 7S on the 8H
    assert "T" in legal(on)

    off = stock_position(STOCK, **kwargs)
    off.play("TR")
    assert "T" in legal(off)


def test_V14_one_card_first_unless_no_card_can_move() -> None:
    """With nothing to play after the first card (quiet houses, the 7S fits nowhere),
    the hand may be turned: there is no tableau change to wait for."""
    on = stock_position(ONE_CARD)
    on.play("TR")
    assert legal(on) == ["T"]


def test_V14_one_card_first_hand_first_then_no_stock() -> None:
    """A hand card turned first must be played or discarded before TR (ALREADY_TURNED)."""
    on = stock_position(ONE_CARD, H=houses(H1="3S"))
    on.play("T")  # the 2D: on the 3S
    refuse(on, "TR", "ALREADY_TURNED")
    on.play("C-H1")
    assert "TR" in legal(on)


def test_V14_one_card_first_the_turn_flags_are_in_the_document() -> None:
    on = stock_position(ONE_CARD, H=houses(H1="9S", H2="8H"))
    on.play("TR")
    doc = doc_of(on)
    assert doc["engine"]["turn_card_moved"] is False
    again = from_document(doc)
    assert again == on and "T" not in legal(again)
    doc["engine"]["turn_card_moved"] = "no"
    with pytest.raises(BadPosition, match="turn_card_moved"):
        from_document(doc)


# ------------------------------------------------------------ compulsory after the runs

RUNS = rules_doc(compulsory_after_runs=True)


def runs_position(runs: int, rules: Any = RUNS, **seat: str) -> Position:
    """A to move with ``runs`` new hands so far; an 8S in H3 takes a red 7."""
    a = {"reserve": "", "hand": "2D", **seat}
    return position(
        rules=rules,
        H=houses(H3="8S"),
        A=a,
        B={"reserve": "2C", "hand": "4C"},
        engine={"new_hands": {"A": runs}},
    )


def test_V14_compulsory_after_runs_counts_the_new_hands() -> None:
    """p.17: each time the waste is turned down to make the hand, it is counted."""
    on = position(rules=RUNS, H=QUIET, A={"hand": "", "waste": "5D 2C"}, B={"hand": "4C"})
    on.play("T")
    assert on.new_hands == [1, 0]
    assert doc_of(on)["engine"]["new_hands"] == {"A": 1, "B": 0}
    assert from_document(doc_of(on)) == on
    # Public: both players see it, so each knows when S11 begins to apply.
    assert view(on, 1)["A"]["new_hands"] == 1 and view(on, 0)["B"]["new_hands"] == 0
    off = position(H=QUIET, A={"hand": "", "waste": "5D 2C"}, B={"hand": "4C"})
    off.play("T")
    assert "new_hands" not in doc_of(off)["engine"]
    assert "new_hands" not in view(off, 1)["A"]


def test_V14_compulsory_after_runs_the_turned_card_after_three() -> None:
    """p.17: after the third run through the hand a playable turned card must be
    played: the discard is S11."""
    on = runs_position(3, hand="7H")
    on.play("T")
    assert legal(on) == ["C-H3"]
    message = refuse(on, "C-W", "S11")
    assert "7" in message and "played" in message

    for off in (runs_position(2, hand="7H"), runs_position(3, "pagat", hand="7H")):
        off.play("T")
        assert "C-W" in legal(off)


def test_V14_compulsory_after_runs_the_own_waste_top_after_three() -> None:
    """p.17: a playable card on the own discard (V1) must be played before turning."""
    rules = rules_doc(own_waste_available=True, compulsory_after_runs=True)
    on = runs_position(3, rules, waste="7H")
    refuse(on, "T", "S11")
    assert "W-H3" in legal(on)
    assert "T" in legal(runs_position(2, rules, waste="7H"))


def test_V14_compulsory_after_runs_the_stock_card_after_two() -> None:
    """p.17: a playable stock card must be played once the hand has been run through
    twice."""
    on = runs_position(2, reserve="7H")
    refuse(on, "T", "S11")
    assert legal(on) == ["R-H3"]
    assert "T" in legal(runs_position(1, reserve="7H"))


def test_V14_compulsory_after_runs_gives_way_to_the_lenient_turn_V8() -> None:
    """V8 with S11: turning first thing in the turn breaks no compulsion, Foster's late
    play included, so ``legal_moves`` lists the ``T`` that ``refusal`` accepts; the
    stock card must still be played before the turned card is discarded."""
    on = runs_position(3, rules_doc(lenient_turn=True, compulsory_after_runs=True), reserve="7H")
    assert legal(on) == ["R-H3", "T"]
    assert on.refusal(on.parse("T")) is None
    on.play("T")
    assert legal(on) == ["R-H3"]
    refuse(on, "C-W", "S11")


def test_V14_compulsory_after_runs_stop_plays_the_card() -> None:
    """S11 is a priority violation: classic play accepts it, and Stop! undoes the move,
    plays the card where the caller says (R7.2) and passes the turn."""
    start = runs_position(3, hand="2D 7H")
    start.play("T")
    moves = [start.parse("C-W")]
    assert turn_violations(start, moves) == ["S11"]
    after = call_stop(start, moves, 0)
    assert doc_of(after)["houses"][2] == ["8S", "7H"]
    assert doc_of(after)["to_move"] == "B"
    assert "S11" in PRESETS["foster"].priority_violations
    assert "S11" in PRIORITY_VIOLATIONS and "S11" in VIOLATIONS
    assert VIOLATIONS.index("S10") < VIOLATIONS.index("S11") < VIOLATIONS.index("S3")
    assert "ONE_CARD_FIRST" in REFUSALS


def test_V14_compulsory_after_runs_lapses_at_the_turn_cap() -> None:
    """R7.6: past the cap the compulsion lapses (the card could not move anyway)."""
    doc = document(
        rules=RUNS,
        H=houses(H3="8S"),
        A={"hand": "7H"},
        B={"reserve": "2C", "hand": "4C"},
        engine={"new_hands": {"A": 3}},
    )
    pos = from_document(doc)
    pos.play("T")
    capped = doc_of(pos)
    capped["engine"]["turn_moves"] = pos.rules.max_turn_moves
    assert legal(from_document(capped)) == ["C-W"]


# ------------------------------------------------------------ a stalemate is a draw


def test_V14_stalemate_scores_nothing() -> None:
    """p.16: a game that cannot be finished is a draw, whatever the counts (R8.3, R8.5
    otherwise score the difference)."""
    kwargs: dict[str, Any] = {"H": QUIET, "A": {"hand": "2D 3D 4D"}, "B": {"hand": "4C"}}
    on = position(rules=rules_doc(stalemate_scores_nothing=True), **kwargs)
    on.finish_stalemate()
    assert on.status == "stalemate" and on.score == [0, 0]
    off = position(**kwargs)
    off.finish_stalemate()
    assert off.score == [0, 2]


# ------------------------------------------------------------ the command line


def test_V14_the_command_line_lists_and_plays_TR() -> None:
    """NOTATION.md's ``legal`` and ``play`` with the new move ``TR``."""
    text = json.dumps(document(rules="foster", H=QUIET, A={"reserve": "4C 7S", "hand": "2D"}))
    assert "TR" in ok("legal", stdin=text).split()
    after = json.loads(ok("play", "TR", stdin=text))
    assert after["engine"]["stock_down"]["A"] == 1
    assert "TR" not in ok("legal", stdin=json.dumps(after)).split()


def test_V14_one_card_first_a_declined_stock_card_does_not_hold_the_hand_back() -> None:
    """p.7: a stock card the player "declines to play" stays up and the hand is turned;
    the stock card's own plays are not tableau changes still to make."""
    on = stock_position(ONE_CARD, H=houses(H1="8H"))
    on.play("TR")  # the 7S: it fits the 8H, but the player may leave it
    assert "R-H1" in legal(on) and "T" in legal(on)
    on.play("T")


def test_V14_with_V12_a_space_waiting_for_a_face_down_stock_card_is_S3() -> None:
    """V12's S7 covers P3 only for a face-up reserve card; a face-down stock card
    cannot be put in the space yet, so turning the hand instead is S3."""
    rules = rules_doc(stock_face_down=True, reserve_to_house_compulsory=True)
    pos = stock_position(rules, H={**QUIET, 1: ""})
    refuse(pos, "T", "S3")
    assert "S3" in pos.rules.priority_violations and "S7" in pos.rules.priority_violations


def test_V14_no_waste_spaces_holds_in_fosters_one_pack_game_too() -> None:
    """G4 fills a space from the own waste (P3 with the waste); with V14's "no waste card
    into an empty house" chosen as well, V14 wins. Past the R7.6 cap of moves, where
    only spaces may still be filled, the generator once listed W-H1 (G4's spaces rule)
    while the referee refused it: the review's strong player reached it. A game of these
    rules, each position as it is and as if its turn had reached the cap."""
    rules = dataclasses.replace(
        PRESETS["foster-one-pack"],
        waste_never_fills_spaces=True,
        own_waste_available=True,
        group_moves=True,
        houses_same_suit=True,
    )
    capped_with_waste_and_space = 0
    for _step, at in walk(RandomGame(seed=9757344, rng_seed=2471, steps=600, rules=rules)):
        check_legal_agrees_with_refusal(at)
        if at.is_over:
            continue
        doc = to_document(at)
        doc["engine"]["turn_moves"] = rules.max_turn_moves
        capped = from_document(doc)
        check_legal_agrees_with_refusal(capped)
        if capped.seats[capped.to_move].waste and not all(capped.houses):
            capped_with_waste_and_space += 1
            to_spaces = [m for m in capped.legal_moves() if m.src == WASTE and m.dst == HOUSE]
            assert all(capped.houses[m.di] for m in to_spaces)
    assert capped_with_waste_and_space  # the case arose
