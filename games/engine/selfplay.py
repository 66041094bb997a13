"""Random self-play: deal, then pick uniformly among the legal moves until the game ends.

The policy is fixed (uniform over ``legal_moves``) so that figures compare
between versions and with other engines.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from .deal import deal
from .position import Position
from .rules import Rules


@dataclass
class GameRecord:
    seed: int
    result: str  # "A", "B" (the winner), or "stalemate"
    ending: str
    turns: int
    steps: int


@dataclass
class Summary:
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        n = len(self.records) or 1
        results: dict[str, int] = {}
        endings: dict[str, int] = {}
        for r in self.records:
            results[r.result] = results.get(r.result, 0) + 1
            endings[r.ending] = endings.get(r.ending, 0) + 1
        steps = sum(r.steps for r in self.records)
        return {
            "games": len(self.records),
            "results": dict(sorted(results.items())),
            "endings": dict(sorted(endings.items())),
            "turns": {
                "mean": round(sum(r.turns for r in self.records) / n, 1),
                "max": max((r.turns for r in self.records), default=0),
            },
            "moves": {
                "mean": round(steps / n, 1),
                "max": max((r.steps for r in self.records), default=0),
            },
            "seconds": round(self.seconds, 3),
            "games_per_second": round(len(self.records) / self.seconds, 2)
            if self.seconds
            else None,
            "us_per_move": round(self.seconds * 1e6 / steps, 2) if steps else None,
        }


def play_random_game(position: Position, rng: random.Random) -> int:
    """Play ``position`` to the end with uniformly random legal moves; returns the step count."""
    steps = 0
    choice = rng.choice
    while not position.is_over:
        position.push(choice(position.legal_moves()))
        steps += 1
    return steps


def selfplay(games: int, seed: int, rules: Rules | None = None) -> Summary:
    rng = random.Random(seed)
    summary = Summary()
    start = time.perf_counter()
    for _ in range(games):
        game_seed = rng.getrandbits(64)
        position = deal(game_seed, rules)
        steps = play_random_game(position, rng)
        result = (
            position.rules.seat_names[position.winner]
            if position.winner is not None
            else "stalemate"
        )
        summary.records.append(
            GameRecord(game_seed, result, position.ending or "", position.turns, steps)
        )
    summary.seconds = time.perf_counter() - start
    return summary
