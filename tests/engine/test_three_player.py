"""G3, the three-player game (seed 000, "Three-player Game"; RULES.md §9).

Two packs and one joker are shuffled together and each player gets 35 cards: a
reserve of 8, three houses and a hand of 24. There are nine houses until one is
emptied for the first time; that house then leaves play for good. The joker is set
aside, out of the game, whenever it shows. Everything else is the standard game,
played in turn A, B, C; the decisions the source leaves open are in docs/variants.md.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games.engine import IllegalMove, Position, deal, from_document, to_document, view
from games.engine.cards import FACE_MASK, JOKER, card_name
from games.engine.rules import PRESETS
from tests.engine.builders import _seat, dealt_cards, legal

THREE = PRESETS["three-player"]


def three(
    *,
    to_move: str = "A",
    F: dict[int, str] | None = None,
    H: dict[int, str] | None = None,
    engine: dict[str, Any] | None = None,
    **seats: dict[str, str],
) -> Position:
    """A three-seat position: nine houses (H1-H3 dealt by A, H4-H6 by B, H7-H9 by C)."""
    F, H = F or {}, H or {}
    doc: dict[str, Any] = {
        "rules": "three-player",
        "to_move": to_move,
        "foundations": [(F.get(i) or "").split() for i in range(1, 9)],
        "houses": [(H.get(i) or "").split() for i in range(1, 10)],
        **{letter: _seat(seats.get(letter)) for letter in "ABC"},
    }
    if engine:
        doc["engine"] = engine
    return from_document(doc)


def numbered(cards: str) -> dict[int, str]:
    """One card per house, H1 first."""
    return dict(enumerate(cards.split(" "), 1))


def refuse(pos: Position, text: str, code: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        pos.play(text)
    assert info.value.code == code
    return info.value


def test_G3_the_deal_35_cards_each_and_a_joker_never_face_up() -> None:
    jokers_put_aside = 0
    for seed in range(60):
        pos = deal(seed, THREE)
        assert sorted(pos.cards()) == dealt_cards(THREE)  # 2 x 52 + the joker
        assert len(pos.houses) == 9 and len(pos.foundations) == 8 and len(pos.seats) == 3
        shares = [
            len([*seat.cards(), *(h[0] for h in pos.houses[3 * s : 3 * s + 3])])
            for s, seat in enumerate(pos.seats)
        ]
        assert sum(shares) + len(pos.set_aside) == 105 and set(shares) <= {34, 35}
        for seat in pos.seats:
            assert len(seat.reserve) in (7, 8) and len(seat.hand) in (23, 24)
        face_up = [p[-1] for p in pos.houses] + [s.reserve[-1] for s in pos.seats if s.reserve]
        assert all(c & FACE_MASK != JOKER for c in face_up)
        jokers_put_aside += len(pos.set_aside)
        doc = to_document(pos)
        assert from_document(json.loads(json.dumps(doc))) == pos
        # The lowest top reserve card starts (R3.1), the houses breaking ties (R3.2).
        ranks = [s.reserve[-1] & 15 for s in pos.seats]
        if ranks.count(min(ranks)) == 1:
            assert pos.to_move == ranks.index(min(ranks))
    # 11 of the 105 cards lie face up at the deal (9 houses, 3 reserve tops, less the
    # overlap): over 60 deals the joker is among them several times.
    assert jokers_put_aside >= 2


def test_G3_a_joker_dealt_to_a_house_is_replaced_from_the_hand() -> None:
    for seed in range(400):
        pos = deal(seed, THREE)
        short = [seat for seat in pos.seats if len(seat.hand) == 23]
        if short:
            assert len(short[0].reserve) == 8 and len(pos.houses) == 9 and all(pos.houses)
            assert [card_name(c) for c in pos.set_aside] == ["JK"]
            return
    pytest.fail("no deal of 400 put the joker in a house")


def test_G3_a_joker_turned_from_the_hand_is_set_aside_and_the_turn_goes_on() -> None:
    pos = three(
        H=numbered("KS QS JS KH QH JH KD QD JD"),
        A={"reserve": "2C", "hand": "9C JK"},
        B={"reserve": "3C"},
        C={"reserve": "4C"},
    )
    pos.play("T")
    assert pos.mover.turned is None and [card_name(c) for c in pos.set_aside] == ["JK"]
    assert "T" in legal(pos)
    pos.play("T")
    assert card_name(pos.mover.turned or 0) == "9C"
    assert view(pos, 1)["set_aside"] == ["JK"]  # face up, out of the game, for everyone


def test_G3_a_joker_under_the_reserve_top_is_set_aside_when_it_shows() -> None:
    pos = three(
        F={1: "AS"},
        H={1: "KH"},
        A={"reserve": "5D JK 2S", "hand": "9C"},
        B={"reserve": "3C"},
        C={"reserve": "4C"},
    )
    pos.play("R-F1")
    assert [card_name(c) for c in pos.mover.reserve] == ["5D"]  # the joker went aside
    assert [card_name(c) for c in pos.set_aside] == ["JK"]


def test_G3_with_V14_a_joker_turned_up_from_the_stock_is_set_aside() -> None:
    """G3 with Foster's face-down stock (V14): ``TR`` shows the joker, so it is put
    aside at once and the next stock card may be turned; no foundation, not even a
    complete one, ever takes it."""
    spades = " ".join(f"{rank}S" for rank in "A23456789TJQK")
    doc = {
        "rules": {"preset": "three-player", "stock_face_down": True},
        "to_move": "A",
        "foundations": [spades.split(), *[[] for _ in range(7)]],
        "houses": [["KH"], *[[] for _ in range(8)]],
        "A": _seat({"reserve": "5D JK", "hand": "9C"}),
        "B": _seat({"reserve": "3C"}),
        "C": _seat({"reserve": "4C"}),
    }
    pos = from_document(doc)
    pos.play("TR")
    assert [card_name(c) for c in pos.set_aside] == ["JK"]
    assert pos.mover.reserve == [] and "TR" in legal(pos)
    assert "R-F1" not in legal(pos)
    pos.play("TR")
    assert [card_name(c) for c in pos.mover.reserve] == ["5D"]

    last = from_document({**doc, "A": _seat({"reserve": "JK"})})
    last.play("TR")  # the joker was the seat's last card (R8.1)
    assert last.status == "won" and last.winner == 0


def test_G3_with_V14_a_joker_uncovered_by_taking_the_next_seats_reserve_card() -> None:
    """G3 with V14's ``take_from_opponent``: taking the top of the next seat's reserve
    shows the card under it; a joker there is put aside, as when its owner plays."""
    pos = from_document(
        {
            "rules": {"preset": "three-player", "take_from_opponent": True},
            "to_move": "A",
            "foundations": [[] for _ in range(8)],
            "houses": [["8S"], ["KH"], *[[] for _ in range(7)]],
            "A": _seat({"reserve": "2C", "hand": "9C"}),
            "B": _seat({"reserve": "5D JK 7D"}),
            "C": _seat({"reserve": "4C"}),
        }
    )
    pos.play("OR-H1")
    assert [card_name(c) for c in pos.seats[1].reserve] == ["5D"]
    assert [card_name(c) for c in pos.set_aside] == ["JK"]


def test_G3_R8_1_a_joker_as_the_last_card_ends_the_game() -> None:
    pos = three(
        H={1: "KH"},
        A={"hand": "JK"},
        B={"reserve": "3C", "hand": "2H"},
        C={"reserve": "4C 5C", "hand": "2D 3D"},
    )
    pos.play("T")
    assert pos.status == "won" and pos.winner == 0
    # R8.2 with three seats: the bonus once, plus both losers' counts.
    assert pos.score == [30 + (2 + 1) + (4 + 2), 0, 0]


def test_G3_the_first_emptied_house_leaves_play_the_others_are_spaces() -> None:
    pos = three(
        H={1: "8S", 2: "7H", 3: "KD", 4: "QC", 5: "5S", 6: "KC", 7: "QH", 8: "JC", 9: "9D"},
        A={"reserve": "TC 2D", "hand": "3H"},
        B={"reserve": "3C", "hand": "5C"},
        C={"reserve": "4C"},
    )
    pos.play("H2-H1")  # H2 is the first house emptied: it leaves play
    assert pos.retired_house == 1
    refuse(pos, "R-H2", "S4")
    assert "R-H2" not in legal(pos)
    pos.play("T")  # P3 does not count it as a space: turning is allowed
    pos.play("C-W")
    doc = to_document(pos)
    assert doc["engine"]["retired_house"] == 1 and view(pos, 2)["retired_house"] == 1
    assert from_document(json.loads(json.dumps(doc))) == pos
    # B moves the jack of clubs onto the queen of hearts: H8 is an ordinary space.
    pos.play("H8-H7")
    assert pos.retired_house == 1
    refuse(pos, "T", "S3")  # P3 over the eight houses still in play
    pos.play("R-H8")


def test_G3_a_document_cannot_retire_a_house_holding_cards() -> None:
    pos = three(H={2: "7H"}, A={"hand": "3H"}, B={"hand": "3C"}, C={"hand": "4C"})
    doc = to_document(pos)
    doc["engine"]["retired_house"] = 1
    with pytest.raises(Exception, match="retired_house"):
        from_document(doc)


def test_G3_turns_go_A_B_C_and_each_opponent_can_be_loaded() -> None:
    pos = three(
        H=numbered("KS KH KD KC KS KH KD KC QD"),
        A={"reserve": "9C", "hand": "2H"},
        B={"reserve": "8C", "waste": "TD"},
        C={"reserve": "TC", "waste": "5H"},
    )
    moves = legal(pos)
    # OR/OW: the next seat (B); OR2/OW2: the one after (C). The 9♣ fits both reserves.
    assert {"R-OR", "R-OR2"} <= set(moves)
    pos.play("R-OR2")
    assert [card_name(c) for c in pos.seats[2].reserve] == ["TC", "9C"]
    pos.play("T")
    pos.play("C-W")
    assert pos.seat_name(pos.to_move) == "B"
    assert pos.parse("H1-RC") == pos.parse("H1-OR") and pos.parse("H1-WA") == pos.parse("H1-OW2")
    pos.play("T")  # B's waste turned over as its hand (R4.4)
    pos.play("C-W")
    assert pos.seat_name(pos.to_move) == "C"


def test_G3_R8_6_a_forfeit_pays_each_other_seat_and_names_no_winner() -> None:
    pos = three(
        H={1: "KS"},
        A={"reserve": "9C", "hand": "2H"},
        B={"reserve": "8C", "waste": "TD"},
        C={"reserve": "TC", "waste": "5H"},
    )
    pos.forfeit(1)
    assert pos.status == "won" and pos.winner is None
    owed = 30 + 20 + (2 + 1)
    assert pos.score == [owed, 0, owed]


def test_G3_R8_3_stalemate_the_lowest_count_scores_its_differences() -> None:
    pos = three(
        H={1: "KS"},
        A={"reserve": "9C", "hand": "2H"},  # 3
        B={"reserve": "8C", "waste": "TD 4S"},  # 4
        C={"reserve": "TC 3S", "waste": "5H"},  # 5
    )
    pos.finish_stalemate()
    assert pos.score == [(4 - 3) + (5 - 3), 0, 0]


def test_G3_random_games_conserve_the_105_cards() -> None:
    import random

    from games.engine.selfplay import play_random_game

    endings: Counter[str] = Counter()
    for seed in range(6):
        pos = deal(seed, THREE)
        play_random_game(pos, random.Random(seed))
        assert sorted(pos.cards()) == dealt_cards(THREE)
        assert pos.is_over
        endings[str(pos.ending)] += 1
    assert sum(endings.values()) == 6
