"""The review of a finished game (games/engine/review.py): the slips and Stop! chances it
finds, the strong player's line, and that it never reads a card the seat cannot see."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    CLASSIC,
    Game,
    GameError,
    Move,
    MoveEntry,
    Position,
    deal,
    turn_violations,
    view,
)
from games.engine.bots import determinize, hidden_counts, medium_move
from games.engine.errors import PRIORITY_VIOLATIONS
from games.engine.moves import FOUNDATION
from games.engine.review import (
    COMPULSORY,
    LOSS,
    STOP,
    accuracy_of,
    judge,
    review,
    strong_line,
    turns_up,
)
from games.engine.stop import compulsory_moves

from .test_bots import positions
from .test_properties import RandomGame, candidates, random_games

#: A small budget: the tests check what is found, not how well the search plays.
STEPS = 600
SAMPLES = 2


def slip_game() -> Game:
    """A classic game whose first turn (``T C-W``, seed 2) leaves the turned card off its
    foundation (S2)."""
    game = Game(2, stop_mode=CLASSIC)
    position = game.position
    assert turn_violations(position, [position.parse(m) for m in ("T", "C-W")]) == [None, "S2"]
    game.play(game.to_move, "T C-W")
    return game


def test_a_missed_compulsory_move_and_a_missed_stop_are_found() -> None:
    game = slip_game()
    offender = 1 - game.to_move
    game.play(game.to_move, "T C-W")  # the next seat moves without calling Stop!
    game.resign(game.to_move)
    found = review(game, decision_steps=STEPS, samples=SAMPLES)
    first, second = found.turns[0], found.turns[1]
    assert first.seat == offender and COMPULSORY in first.marks
    (missed,) = first.missed
    assert (missed.index, str(missed.move), missed.violation) == (1, "C-W", "S2")
    before = game.position_at(1)
    assert list(missed.compulsory) == compulsory_moves(before, "S2", missed.move)
    assert missed.compulsory and missed.compulsory[0].dst == FOUNDATION
    assert second.missed_stop is not None and STOP in second.marks
    assert (second.missed_stop.number, second.missed_stop.violation) == (2, "S2")
    document = found.to_document()
    turn = document["turns"][0]
    assert turn["missed_compulsory"][0]["violation"] == "S2"
    assert turn["missed_compulsory"][0]["compulsory"] == [str(m) for m in missed.compulsory]
    assert document["turns"][1]["missed_stop"] == {"move_number": 2, "violation": "S2"}
    letter = "AB"[offender]
    assert document["players"][letter]["missed_compulsory"] == 1
    assert document["players"]["AB"[1 - offender]]["missed_stops"] == 1


def test_a_stop_called_is_no_chance_missed() -> None:
    game = slip_game()
    game.call_stop(game.to_move, 2)
    game.resign(game.to_move)
    found = review(game, decision_steps=STEPS, samples=SAMPLES)
    assert all(turn.missed_stop is None for turn in found.turns)
    assert COMPULSORY in found.turns[0].marks  # the slip itself was still made


def test_the_strong_line_played_throughout_is_flagged_nowhere() -> None:
    """Each decision played as the review's own strong line: no loss, no slip, no
    chance missed, accuracy 100 for both seats."""
    game = Game(5)
    while game.position.turns < 8:
        start, index = game.position, game.entry_count
        rng = random.Random(f"review:{index}")
        seat = start.to_move
        line = strong_line(determinize(start, seat, rng), seat, rng, STEPS)
        game.play(seat, line)
    game.resign(game.to_move)
    found = review(game, decision_steps=STEPS, samples=SAMPLES)
    assert found.decision_steps == STEPS
    decisions = [d for turn in found.turns for d in turn.decisions]
    assert len(decisions) >= 8
    for decision in decisions:
        assert decision.played == decision.better
        assert decision.loss == 0.0
    assert all(turn.marks == [] for turn in found.turns)
    assert found.accuracy(0) == found.accuracy(1) == 100.0


def test_a_review_covers_every_move_once_and_marks_big_losses() -> None:
    game = Game(3)
    rng = random.Random(3)
    while game.position.turns < 12:
        seat = game.to_move
        moves = []
        while not game.is_over and game.to_move == seat:  # the easy player: any legal move
            move = rng.choice(game.position.legal_moves())
            game.play(seat, [move])
            moves.append(move)
    game.resign(game.to_move)
    found = review(game, decision_steps=STEPS, samples=SAMPLES)
    played = [m for turn in found.turns for d in turn.decisions for m in d.played]
    assert played == [e.move for e in game.entries if isinstance(e, MoveEntry)]
    for turn in found.turns:
        assert [m for d in turn.decisions for m in d.played] == turn.moves
        assert (LOSS in turn.marks) == any(d.loss >= 3.0 for d in turn.decisions)
    accuracy = found.accuracy(0)
    assert accuracy is not None and 0 < accuracy <= 100


def test_the_budget_is_shared_over_the_game() -> None:
    game = slip_game()
    game.resign(game.to_move)
    found = review(game, decision_steps=STEPS, game_steps=STEPS, samples=SAMPLES)
    decisions = sum(len(turn.decisions) for turn in found.turns)
    assert found.decision_steps == STEPS // decisions


def test_a_running_game_is_not_reviewed() -> None:
    with pytest.raises(GameError) as refused:
        review(Game(1))
    assert refused.value.code == "GAME_NOT_OVER"


def test_accuracy_halves_every_four_points_lost() -> None:
    assert accuracy_of(0) == 100.0
    assert accuracy_of(4) == 50.0
    assert accuracy_of(8) == 25.0


def test_a_turned_card_or_an_uncovered_one_starts_a_new_decision() -> None:
    position = deal(2)
    seat = position.to_move
    hidden = hidden_counts(position, seat)
    turned = position.copy()
    turned.push(turned.parse("T"))
    assert turns_up(position.parse("T"), hidden, turned, seat)


def segment(position: Position, rng: random.Random) -> list[Move]:
    """The medium player's moves from ``position`` up to its first card turned up."""
    copy, seat = position.copy(), position.to_move
    moves: list[Move] = []
    while not copy.is_over and copy.to_move == seat and len(moves) < 40:
        hidden = hidden_counts(copy, seat)
        move = medium_move(copy, rng)
        copy.push(move)
        moves.append(move)
        if turns_up(move, hidden, copy, seat):
            break
    return moves


@settings(max_examples=12, deadline=None)
@given(game=random_games, salt=st.integers(0, 2**32))
def test_twin_positions_get_the_same_review_of_the_turn(game: RandomGame, salt: int) -> None:
    """Two positions that differ only in cards the seat to move cannot see: the same
    strong line, the same scores, the same compulsory moves for every slip."""
    for position in positions(game, every=151):
        seat = position.to_move
        twin = determinize(position, seat, random.Random(salt))
        assert view(twin, seat) == view(position, seat)
        played = segment(position, random.Random(salt))
        mine = judge(position, played, 17, steps=STEPS, samples=SAMPLES)
        again = judge(twin, played, 17, steps=STEPS, samples=SAMPLES)
        assert mine == again
        for move in candidates(position):
            refusal = position.refusal(move)
            if refusal is not None and refusal.code in PRIORITY_VIOLATIONS:
                code = refusal.code
                assert compulsory_moves(position, code, move) == compulsory_moves(twin, code, move)


def test_twin_positions_of_a_slip_get_the_same_review_of_the_turn() -> None:
    """Seed 2 after ``T`` (an ace turned): the discard is a slip. A twin with every card
    the seat cannot see dealt again gives the same compulsory moves, the same strong
    line and the same scores."""
    position = deal(2)
    seat = position.to_move
    position.push(position.parse("T"))
    twin = determinize(position, seat, random.Random(99))
    assert view(twin, seat) == view(position, seat)
    assert twin.seats[seat].hand != position.seats[seat].hand  # other cards, unseen
    discard = position.parse("C-W")
    refusal = position.refusal(discard)
    assert refusal is not None and refusal.code == "S2"
    compulsory = compulsory_moves(position, "S2", discard)
    assert compulsory and compulsory == compulsory_moves(twin, "S2", discard)
    mine = judge(position, [discard], 1, steps=STEPS, samples=SAMPLES)
    assert mine == judge(twin, [discard], 1, steps=STEPS, samples=SAMPLES)
    assert mine.better and mine.better[0].dst == FOUNDATION and mine.loss > 0
