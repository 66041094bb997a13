"""RULES.md §8: winning, scoring, stalemate (R8.4's mechanical test), agreement,
forfeit and matches."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from games.engine import (
    PRESETS,
    STALEMATE,
    WON,
    IllegalMove,
    Match,
    Position,
    deal,
    get_rules,
    match_totals,
)
from games.engine import to_document as doc_of
from games.engine.position import BY_STALEMATE, BY_TIMEOUT
from tests.engine.builders import legal, position
from tests.engine.rules_support import QUIET, houses, play

QUIET_COUNTERS = {"turnovers": {"A": 2, "B": 2}, "quiet_turns": {"A": 1, "B": 1}}


def turns_until_over(pos: Position, turn: dict[int, str], limit: int = 50) -> int:
    """Play each seat's fixed turn (``turn[seat]``) until the game ends; the number of turns."""
    for count in range(1, limit + 1):
        play(pos, turn[pos.to_move])
        if pos.is_over:
            return count
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- R8.1


@pytest.mark.parametrize(
    ("kwargs", "moves"),
    [
        ({"H": houses(H1="9S"), "A": {"reserve": "8H"}}, "R-H1"),  # the last reserve card
        ({"H": houses(H1="9S"), "A": {"hand": "8H"}}, "T C-H1"),  # the last hand card
        ({"H": QUIET, "A": {"reserve": "AH"}}, "R-F1"),  # to a foundation
        ({"H": QUIET, "A": {"hand": "6D"}, "B": {"waste": "7D"}}, "T C-OW"),  # loaded away
    ],
)
def test_R8_1_a_seat_without_cards_wins_at_once(kwargs: dict[str, Any], moves: str) -> None:
    pos = position(**kwargs)
    *first, last = moves.split()
    play(pos, " ".join(first))
    assert not pos.is_over
    pos.play(last)  # in the middle of the turn: no discard, no E
    assert pos.status == WON
    assert pos.winner == 0
    assert doc_of(pos)["engine"]["ending"] == "cards"
    assert legal(pos) == []
    with pytest.raises(IllegalMove) as info:
        pos.play("T")
    assert info.value.code == "GAME_OVER"


def test_R8_1_not_while_the_waste_still_holds_cards() -> None:
    pos = position(H=houses(H1="9S"), A={"reserve": "8H", "waste": "2C"})
    pos.play("R-H1")
    assert pos.status == "playing"


def test_R8_1_not_while_a_turned_card_waits() -> None:
    pos = position(H=houses(H1="9S"), A={"reserve": "8H", "hand": "2C"})
    play(pos, "T R-H1")
    assert pos.status == "playing"
    pos.play("C-W")
    assert pos.status == "playing"
    assert pos.to_move == 1


# ---------------------------------------------------------------- R8.2


@pytest.mark.parametrize("winner", ["A", "B"])
def test_R8_2_the_winner_scores_30_plus_the_losers_count(winner: str) -> None:
    loser = "B" if winner == "A" else "A"
    pos = position(
        to_move=winner,
        H=houses(H1="9S"),
        **{
            winner: {"reserve": "8H"},
            loser: {"reserve": "3C 4C 5C", "hand": "2D 3D", "waste": "9D 8D 7D 6D"},
        },
    )
    pos.play("R-H1")
    doc = doc_of(pos)
    assert doc["winner"] == winner
    assert doc["score"] == {winner: 30 + 2 + 4 + 2 * 3, loser: 0}


# ---------------------------------------------------------------- R8.3


def test_R8_3_stalemate_the_lower_count_scores_the_difference() -> None:
    pos = position(
        H=QUIET,
        A={"reserve": "5C 6C", "hand": "2D", "waste": "3D"},  # 2*2 + 1 + 1 = 6
        B={"reserve": "9D", "hand": "4S 5S 6S 7S", "waste": "8S"},  # 2 + 4 + 1 = 7
    )
    pos.finish_stalemate(BY_STALEMATE)
    doc = doc_of(pos)
    assert doc["status"] == STALEMATE
    assert doc["winner"] is None
    assert doc["score"] == {"A": 1, "B": 0}  # no 30 bonus


def test_R8_3_equal_counts_score_nothing() -> None:
    pos = position(H=QUIET, A={"reserve": "5C", "hand": "2D"}, B={"hand": "4S 5S 6S"})
    pos.finish_stalemate(BY_STALEMATE)
    assert doc_of(pos)["score"] == {"A": 0, "B": 0}


def test_R8_3_a_detected_stalemate_is_scored_the_same_way() -> None:
    pos = position(H=QUIET, A={"waste": "2S"}, B={"waste": "5H 7H"})
    turns_until_over(pos, {0: "T C-W", 1: "T C-W"})
    assert pos.status == STALEMATE
    assert doc_of(pos)["score"] == {"A": 1, "B": 0}


# ---------------------------------------------------------------- R8.4


def test_R8_4_stalemate_after_two_turnovers_each() -> None:
    """A turns its one-card waste over every turn; B's two cards need two turns per turnover."""
    pos = position(H=QUIET, A={"waste": "2S"}, B={"waste": "5H 7H"})
    assert turns_until_over(pos, {0: "T C-W", 1: "T C-W"}) == 6  # A: 3 turnovers, B: 2
    doc = doc_of(pos)
    assert doc["status"] == "stalemate"
    assert doc["engine"]["ending"] == "stalemate"
    assert doc["engine"]["turnovers"] == {"A": 3, "B": 2}


def test_R8_4_a_seat_without_hand_and_waste_counts_as_stuck() -> None:
    pos = position(H=QUIET, A={"reserve": "5C"}, B={"waste": "2H"})
    assert turns_until_over(pos, {0: "E", 1: "T C-W"}) == 4  # ends with B's second turnover


def test_R8_4_every_seat_takes_a_turn_first() -> None:
    """Engine refinement (Position.is_stuck): both seats are stuck from the start, yet the
    game ends only once each has had a turn since the last productive one."""
    pos = position(H=QUIET, A={"reserve": "5C"}, B={"reserve": "9D"})
    pos.play("E")
    assert pos.status == "playing"
    pos.play("E")
    assert pos.status == STALEMATE
    assert doc_of(pos)["score"] == {"A": 0, "B": 0}


def test_R8_4_a_productive_turn_resets_the_count() -> None:
    kwargs = {
        "H": houses(H1="9S"),
        "A": {"reserve": "8H", "waste": "2S"},
        "B": {"waste": "5D"},
        "engine": {"turnovers": {"A": 1, "B": 2}, "quiet_turns": {"A": 1, "B": 1}},
    }
    idle = position(**kwargs)
    play(idle, "T C-W")  # A's second turnover: stuck
    assert idle.status == STALEMATE
    busy = position(**kwargs)
    play(busy, "R-H1 T C-W")  # the reserve card moved: productive
    assert busy.status == "playing"
    assert doc_of(busy)["engine"]["turnovers"] == {"A": 0, "B": 0}
    assert turns_until_over(busy, {0: "T C-W", 1: "T C-W"}) == 4  # two more turnovers each


@pytest.mark.parametrize(
    ("kwargs", "moves", "productive"),
    [
        # a card left the mover's reserve
        ({"H": houses(H1="9S"), "A": {"reserve": "8H", "hand": "2C"}}, "R-H1 T C-W", True),
        (
            {"H": QUIET, "A": {"reserve": "6D", "hand": "2C"}, "B": {"waste": "7D"}},
            "R-OW T C-W",
            True,
        ),
        # the turned card went elsewhere than the own waste
        ({"H": houses(H1="9S"), "A": {"hand": "2C 8H"}}, "T C-H1 T C-W", True),
        ({"H": QUIET, "A": {"hand": "2C 6D"}, "B": {"waste": "7D"}}, "T C-OW T C-W", True),
        # a card reached a foundation
        ({"H": houses(H1="KS 2S"), "F": {1: "AS"}, "A": {"hand": "2C"}}, "H1-F1 T C-W", True),
        # not productive: house to house, house loads the opponent, a bare discard, E
        ({"H": houses(H1="9S", H2="KH 8H"), "A": {"hand": "2C"}}, "H2-H1 T C-W", False),
        (
            {"H": houses(H1="KS 6D"), "A": {"hand": "2C"}, "B": {"waste": "7D"}},
            "H1-OW T C-W",
            False,
        ),
        ({"H": QUIET, "A": {"hand": "2C"}}, "T C-W", False),
        ({"H": QUIET, "A": {"reserve": "5C"}}, "E", False),
    ],
)
def test_R8_4_what_makes_a_turn_productive(
    kwargs: dict[str, Any], moves: str, productive: bool
) -> None:
    """Both seats already turned their waste over twice: only a productive turn goes on."""
    kwargs = {"B": {"waste": "5D"}, **kwargs, "engine": QUIET_COUNTERS}
    pos = position(**kwargs)
    play(pos, moves)
    assert pos.to_move == 1
    if productive:
        assert pos.status == "playing"
        assert doc_of(pos)["engine"]["turnovers"] == {"A": 0, "B": 0}
    else:
        assert pos.status == STALEMATE


def test_R8_4_the_2000_turn_backstop() -> None:
    kwargs = {"H": houses(H1="9S"), "A": {"reserve": "8H", "hand": "2C 3D"}, "B": {"hand": "4S 6S"}}
    pos = position(**kwargs, engine={"turns": 1999})
    play(pos, "R-H1 T C-W")  # even a productive turn
    doc = doc_of(pos)
    assert doc["status"] == STALEMATE
    assert doc["engine"]["ending"] == "turn_limit"
    assert doc["engine"]["turns"] == 2000
    assert doc["score"] == {"A": 0, "B": 0}  # A: 2C in hand, 3D on the waste; B: two cards


def test_R8_4_no_backstop_before_2000_turns() -> None:
    pos = position(
        H=houses(H1="9S"),
        A={"reserve": "8H", "hand": "2C 3D"},
        B={"hand": "4S 6S"},
        engine={"turns": 1998},
    )
    play(pos, "R-H1 T C-W")
    assert pos.status == "playing"
    play(pos, "T C-W")
    assert pos.status == STALEMATE
    assert doc_of(pos)["engine"]["ending"] == "turn_limit"


# ---------------------------------------------------------------- R8.5


def test_R8_5_an_agreed_stalemate_is_scored_as_R8_3() -> None:
    pos = position(H=QUIET, A={"reserve": "5C 6C", "hand": "2D"}, B={"hand": "4S"})
    pos.finish_stalemate()
    doc = doc_of(pos)
    assert doc["status"] == STALEMATE
    assert doc["engine"]["ending"] == "agreed"
    assert doc["score"] == {"A": 0, "B": 4}  # 5 against 1
    with pytest.raises(IllegalMove) as info:
        pos.finish_stalemate()
    assert info.value.code == "GAME_OVER"


def test_R8_5_what_an_agreement_would_score_is_said_before_it_is_made() -> None:
    """``stalemate_score`` is what ``finish_stalemate`` would score now: R8.3's
    difference, nothing on equal counts, nothing under V14, the lowest of three."""
    cases: list[dict[str, Any]] = [
        {"A": {"reserve": "5C 6C", "hand": "2D"}, "B": {"hand": "4S"}},  # 5 against 1
        {"A": {"reserve": "5C", "hand": "2D"}, "B": {"hand": "4S 5S 6S"}},  # 3 against 3
        {"A": {"hand": "2D 3D 4D"}, "B": {"hand": "4C"}, "rules": "foster"},  # V14
    ]
    for kwargs in cases:
        pos = position(H=QUIET, **kwargs)
        told = pos.stalemate_score()
        assert pos.status != STALEMATE  # saying it changes nothing
        pos.finish_stalemate()
        assert pos.score == told
    assert [position(H=QUIET, **case).stalemate_score() for case in cases] == [
        [0, 4],
        [0, 0],
        [0, 0],
    ]
    three = deal(5, get_rules("three-player"))
    counts = [seat.count for seat in three.seats]
    low = min(counts)
    expected = [sum(c - low for c in counts) if c == low else 0 for c in counts]
    assert three.stalemate_score() == (expected if counts.count(low) == 1 else [0, 0, 0])


# ---------------------------------------------------------------- R8.6


def test_R8_6_resigning_pays_a_forfeit() -> None:
    pos = position(H=QUIET, A={"reserve": "5C 6C", "hand": "2D", "waste": "3D"}, B={"hand": "4S"})
    pos.forfeit(0)
    doc = doc_of(pos)
    assert doc["status"] == WON
    assert doc["winner"] == "B"
    assert doc["score"] == {"A": 0, "B": 30 + 20 + 6}
    assert doc["engine"]["ending"] == "resigned"


def test_R8_6_running_out_of_time_pays_the_same_forfeit() -> None:
    pos = position(to_move="B", H=QUIET, A={"hand": "2D"}, B={"reserve": "9C", "hand": "4S"})
    pos.forfeit(1, BY_TIMEOUT)
    doc = doc_of(pos)
    assert doc["winner"] == "A"
    assert doc["score"] == {"A": 30 + 20 + 3, "B": 0}
    assert doc["engine"]["ending"] == "timeout"
    with pytest.raises(IllegalMove):
        pos.forfeit(0)


# ---------------------------------------------------------------- R8.7


def test_R8_7_a_match_runs_until_a_seat_reaches_300() -> None:
    match = Match()
    assert match.target == 300 == PRESETS["pagat"].match_target
    for score in ([42, 0], [0, 55], [0, 3], [130, 0], [0, 0], [90, 0]):
        assert not match.is_over
        match.add_game(score)
    assert match.totals == [262, 58]
    assert match.winner is None
    match.add_game([40, 0])
    assert match.is_over
    assert match.winner == 0
    assert match.games == 7
    with pytest.raises(ValueError):
        match.add_game([0, 30])


def test_R8_7_an_agreed_target_and_a_replayed_record() -> None:
    match = match_totals([[30, 0], [0, 45], [0, 10]], target=50)
    assert match.totals == [30, 55]
    assert match.winner == 1


def test_R8_7_games_dealt_and_played_feed_the_match() -> None:
    """Random games to the end; each new game's starter follows R3 (see test_rules_deal)."""
    match = Match(target=100)
    rng = random.Random(1)
    seed = 0
    while not match.is_over:
        pos = deal(seed)
        while not pos.is_over:
            pos.push(rng.choice(pos.legal_moves()))
        assert pos.score is not None
        match.add_game(pos.score)
        seed += 1
        assert seed < 40
    assert max(match.totals) >= 100


def test_R8_7_a_tie_on_the_highest_total_at_the_target_is_no_win() -> None:
    """The first to reach the target ahead of the others wins (seeds/000, "Scoring"): a
    three-seat forfeit that takes two seats level past it leaves the match open."""
    match = Match(seats=3, target=40)
    match.add_game([0, 53, 53])  # A resigned: B and C are each paid 30 + 20 + 3
    assert match.totals == [0, 53, 53]
    assert match.leaders == [1, 2]
    assert match.winner is None and not match.is_over
    match.add_game([0, 0, 31])  # another game decides
    assert match.winner == 2 and match.is_over


def test_R8_7_the_higher_total_wins_when_two_seats_pass_the_target_at_once() -> None:
    match = match_totals([[0, 30, 25], [0, 50, 50]], target=60, seats=3)
    assert match.totals == [0, 80, 75]
    assert match.winner == 1


def test_R8_7_V3_alternate_the_next_game_is_started_by_the_next_seat() -> None:
    match = Match(seats=3)
    assert match.next_starter(PRESETS["pagat"], 1) is None  # the deal chooses (R3)
    alternate = replace(PRESETS["three-player"], starter="alternate")
    assert [match.next_starter(alternate, seat) for seat in range(3)] == [1, 2, 0]
