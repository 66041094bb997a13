"""The computer players against each other, on mirrored deals.

    python bench/bots.py [--games 200] [--first-deal 0] [--preset pagat] [--jobs 2]
                         [--pairs strong-medium,...]

For each pair of levels (easy-medium, medium-strong, easy-strong) it plays ``--games``
games: ``--games / 2`` deals, each played twice with the seats swapped, so that
neither level gets the better cards. The bots play through the engine alone (the
decisions the service's task makes: ``games.engine.bots.turn``, a whole turn decided
on the mover's determinized views), one process per core. It prints, for each pair,
the wins of each level and the draws with a 95% Wilson interval on the stronger
level's share of the games, and for each level the time it took to decide a whole
turn (median, 99th percentile, most), timed with ``time.perf_counter`` around
``turn``. Its last line reads ``strong beats medium P%, medium beats easy Q%`` (with
``--pairs``, only the pairs played: ``--pairs strong-medium`` bounds a run to the pair
that takes the time). Deal ``k`` is always seed ``1000 + k``, so ``--first-deal 100
--games 200`` plays deals 100-199: a run that goes on from an earlier one with new deals.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/bots.py

from games.engine import PRESETS, deal
from games.engine.bots import EASY, MEDIUM, STRONG, turn

PAIRS = ((MEDIUM, EASY), (STRONG, MEDIUM), (STRONG, EASY))


@dataclass
class Played:
    winner: str | None  # the level that won, None for a draw
    turns: int
    turn_seconds: dict[str, list[float]] = field(default_factory=dict)


def play(levels: tuple[str, str], seed: int, preset: str) -> Played:
    """One game, ``levels[0]`` as seat A; the bots' random generators keyed by the
    deal and the seat (so a deal's two games differ only by the seats swapped)."""
    position = deal(seed, PRESETS[preset])
    rngs = [random.Random(f"{seed}:{seat}:{level}") for seat, level in enumerate(levels)]
    seconds: dict[str, list[float]] = defaultdict(list)
    while not position.is_over:
        seat = position.to_move
        started = time.perf_counter()
        moves = turn(levels[seat], position, seat, rngs[seat])  # as games.computer.bots plays it
        seconds[levels[seat]].append(time.perf_counter() - started)
        for move in moves:
            position.push(move)
    winner = None if position.winner is None else levels[position.winner]
    if winner is None and position.score is not None and position.score[0] != position.score[1]:
        winner = levels[0] if position.score[0] > position.score[1] else levels[1]
    return Played(winner, position.turns, dict(seconds))


def job(args: tuple[tuple[str, str], int, str]) -> Played:
    return play(*args)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200, help="games per pair (even)")
    parser.add_argument("--first-deal", type=int, default=0, help="the first deal's number")
    parser.add_argument("--preset", default="pagat", choices=sorted(PRESETS))
    parser.add_argument("--jobs", type=int, default=2, help="processes (one per core)")
    parser.add_argument(
        "--pairs",
        default=",".join(f"{a}-{b}" for a, b in PAIRS),
        help="the pairs to play, better-worse, comma-separated",
    )
    args = parser.parse_args()
    pairs = [pair for pair in PAIRS if f"{pair[0]}-{pair[1]}" in args.pairs.split(",")]
    deals = max(1, args.games // 2)
    times: dict[str, list[float]] = defaultdict(list)
    shares: dict[tuple[str, str], float] = {}
    started = time.perf_counter()
    print(
        f"preset {args.preset}, {2 * deals} games a pair (deals {args.first_deal}-"
        f"{args.first_deal + deals - 1}, each from both seats)"
    )
    with ProcessPoolExecutor(args.jobs) as pool:
        for better, worse in pairs:
            work = [
                (levels, 1000 + seed, args.preset)
                for seed in range(args.first_deal, args.first_deal + deals)
                for levels in ((better, worse), (worse, better))
            ]
            results = list(pool.map(job, work, chunksize=4))
            wins = sum(r.winner == better for r in results)
            losses = sum(r.winner == worse for r in results)
            draws = len(results) - wins - losses
            low, high = wilson(wins, len(results))
            shares[(better, worse)] = wins / len(results)
            turns = statistics.mean(r.turns for r in results)
            print(
                f"{better} v {worse}: {better} wins {wins}, {worse} {losses}, draws {draws}; "
                f"{better} {100 * wins / len(results):.1f}% "
                f"(95% interval {100 * low:.1f}-{100 * high:.1f}%), {turns:.0f} turns a game"
            )
            for result in results:
                for level, seconds in result.turn_seconds.items():
                    times[level].extend(seconds)
    for level in (EASY, MEDIUM, STRONG):
        if not times[level]:
            continue
        ms = sorted(1000 * s for s in times[level])
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        print(
            f"{level:7} a turn: median {statistics.median(ms):7.2f} ms, p99 {p99:7.2f} ms, "
            f"most {ms[-1]:7.2f} ms over {len(ms)} turns"
        )
    print(f"{time.perf_counter() - started:.0f} s in all, {args.jobs} processes")
    print(
        ", ".join(
            f"{better} beats {worse} {100 * shares[(better, worse)]:.1f}%"
            for better, worse in ((STRONG, MEDIUM), (MEDIUM, EASY))
            if (better, worse) in shares
        )
    )


if __name__ == "__main__":
    main()
