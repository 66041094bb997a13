"""Random games through the engine's ``Game``, with every kind of record entry: random
legal moves, priority slips and Stop! calls (right and wrong) in classic games,
stalemate offers and answers, and an ending by resignation, timeout or agreement.
Also the search for deals whose opening turn commits given violations."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from games.engine import (
    CLASSIC,
    PRESETS,
    REFEREE,
    Game,
    IllegalMove,
    Move,
    Rules,
    WrongCallError,
    deal,
    turn_violations,
)
from games.engine.encoding import all_moves
from games.engine.moves import DISCARD, END_MOVE, TURN_MOVE

#: Steps a random game is played for at most (a pagat game lasts about 1,750).
MAX_STEPS = 3000


@dataclass(frozen=True)
class Plan:
    """How to play one random game."""

    seed: int
    rng_seed: int
    rules: Rules = PRESETS["pagat"]
    classic: bool = False
    events: bool = True
    starter: int | None = None
    steps: int = MAX_STEPS


def plans(rules: st.SearchStrategy[Rules]) -> st.SearchStrategy[Plan]:
    return st.builds(
        Plan,
        seed=st.integers(min_value=0, max_value=2**64 - 1),
        rng_seed=st.integers(min_value=0, max_value=2**32 - 1),
        rules=rules,
        classic=st.booleans(),
        events=st.booleans(),
        starter=st.sampled_from([None, 0, 1]),
        steps=st.one_of(st.just(MAX_STEPS), st.integers(min_value=0, max_value=MAX_STEPS)),
    )


def a_slip(game: Game, rng: random.Random) -> Move | None:
    """A move the classic game accepts as a priority slip now, if a few tries find one."""
    seat = game.to_move
    legal = set(game.legal_moves(seat))
    tries = [TURN_MOVE, DISCARD, END_MOVE, *rng.sample(all_moves(game.rules), 24)]
    for move in tries:
        if move not in legal and game.refusal(seat, move) is None:
            return move
    return None


def play_random(plan: Plan) -> Game:
    """Play ``plan``: the game is as the last step left it (over, or not)."""
    rng = random.Random(plan.rng_seed)
    starter = None if plan.starter is None else plan.starter % plan.rules.seats
    game = Game(
        plan.seed, plan.rules, stop_mode=CLASSIC if plan.classic else REFEREE, starter=starter
    )
    for _ in range(plan.steps):
        if game.is_over:
            break
        seat = game.to_move
        last = game.last_turn
        if last is not None and game.can_call_stop(seat) and rng.random() < 0.3:
            slips = [
                n + 1
                for n, index in enumerate(last.indexes)
                if getattr(game.entries[index], "violation", None)
            ]
            number = (
                rng.choice(slips)
                if slips and rng.random() < 0.7
                else rng.randint(1, len(last.moves))
            )
            with contextlib.suppress(WrongCallError):
                game.call_stop(seat, number)
            continue
        if plan.events and rng.random() < 0.004:
            talk_stalemate(game, rng)
            continue
        move = a_slip(game, rng) if plan.classic and rng.random() < 0.05 else None
        game.play(seat, [move if move is not None else rng.choice(game.legal_moves(seat))])
    if plan.events and not game.is_over:
        end = rng.randrange(4)
        if end == 0:
            game.resign(rng.randrange(plan.rules.seats))
        elif end == 1:
            game.timeout(game.to_move)
        elif end == 2:
            for seat in range(plan.rules.seats):
                if not game.is_over and seat not in game.stalemate_offer:
                    (game.agree_stalemate if game.stalemate_offer else game.offer_stalemate)(seat)
    return game


def talk_stalemate(game: Game, rng: random.Random) -> None:
    """An offer if none stands; else another seat agrees (rarely) or declines."""
    if not game.stalemate_offer:
        game.offer_stalemate(rng.randrange(game.rules.seats))
        return
    others = [s for s in range(game.rules.seats) if s not in game.stalemate_offer]
    seat = rng.choice(others)
    if rng.random() < 0.2:
        game.agree_stalemate(seat)
    else:
        game.decline_stalemate(seat)


def opening(codes: Sequence[str | None], rules: Rules = PRESETS["pagat"]) -> tuple[int, list[str]]:
    """The first seed whose opening turn can be played committing exactly ``codes``, and
    that turn: turn and discard, or first a one-card house to a foundation."""
    for seed in range(1, 3000):
        position = deal(seed, rules)
        turns = [["T", "C-W"]]
        for h, house in enumerate(position.houses):
            if len(house) == 1:
                turns += [[f"H{h + 1}-F{f + 1}", "T", "C-W"] for f in range(rules.foundations)]
        for texts in turns:
            try:
                found = turn_violations(position, [position.parse(t) for t in texts])
            except IllegalMove:
                continue
            if found == list(codes):
                return seed, texts
    raise AssertionError(f"no deal lets an opening turn commit {codes}")
