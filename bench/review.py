"""The review of finished games (games/engine/review.py): what it costs.

    python bench/review.py [--games 6] [--preset pagat]

Plays ``--games`` games between the medium player and itself (seeds 1, 2, ...; a game
still on after 300 turns is resigned), then reviews each with the service's budget
(``DECISION_STEPS`` a decision, ``GAME_STEPS`` a game, ``SAMPLES`` play-outs a line).
Times with ``time.process_time`` (one core's CPU): the floor, replaying the game's
record (``Game.from_record``), and the review itself; prints for each game its turns,
decisions, the review's seconds and its ratio to the floor, then the median and the
most seconds a decision took. Its last line reads ``review: M s a game at most,
D ms a decision (median)``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/review.py

from games.engine import PRESETS, Game
from games.engine.bots import MEDIUM, turn
from games.engine.review import review

MOST_TURNS = 300


def played(seed: int, preset: str) -> Game:
    game = Game(seed, PRESETS[preset])
    rng = random.Random(seed)
    while not game.is_over and game.position.turns < MOST_TURNS:
        seat = game.to_move
        game.play(seat, turn(MEDIUM, game.position, seat, rng))
    if not game.is_over:
        game.resign(game.to_move)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--preset", default="pagat")
    args = parser.parse_args()
    per_decision: list[float] = []
    most = 0.0
    print("game  turns  decisions  floor (replay)  review  ratio")
    for seed in range(1, args.games + 1):
        game = played(seed, args.preset)
        started = time.process_time()
        Game.from_record(game.record)
        floor = time.process_time() - started
        started = time.process_time()
        found = review(game)
        seconds = time.process_time() - started
        decisions = sum(len(t.decisions) for t in found.turns)
        per_decision.append(seconds / max(decisions, 1))
        most = max(most, seconds)
        print(
            f"{seed:4}  {len(found.turns):5}  {decisions:9}  {floor * 1000:11.1f} ms"
            f"  {seconds:5.1f} s  {seconds / floor:,.0f}"
        )
    median = statistics.median(per_decision) * 1000
    print(f"review: {most:.1f} s a game at most, {median:.0f} ms a decision (median)")


if __name__ == "__main__":
    main()
