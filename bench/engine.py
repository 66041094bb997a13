"""Engine speed: µs per step (legal moves + apply), random games per second, and
µs per ``legal_moves`` call on mid-game positions. Prints its figures.

    python bench/engine.py [--games 300] [--seed 1] [--rules pagat] [--against DIR]

A step is one ``legal_moves()`` call plus one checked ``push`` of a uniformly
chosen legal move (the self-play policy); dealing is timed separately.

``--against DIR`` names a folder holding another version's ``games/engine`` (a
checkout, or ``git archive <commit> games/engine | tar -x -C DIR``): both engines are
loaded in this process and timed in turn, round by round, on the same games, and the
ratios are printed; on a busy machine a ratio measured so is worth more than either time.
"""

from __future__ import annotations

import argparse
import importlib
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import PRESETS, Position, Rules, deal


def run_games(
    games: int, seed: int, rules: Rules, engine: ModuleType | None = None
) -> tuple[float, int, int, float, list[Position]]:
    rng = random.Random(seed)
    seeds = [rng.getrandbits(64) for _ in range(games)]
    dealing = deal if engine is None else engine.deal
    if engine is not None:
        rules = engine.PRESETS[rules.preset]
    t0 = time.perf_counter()
    positions = [dealing(s, rules) for s in seeds]
    deal_seconds = time.perf_counter() - t0
    samples: list[Position] = []
    steps = turns = 0
    choice = rng.choice
    t0 = time.perf_counter()
    for position in positions:
        n = 0
        while not position.is_over:
            position.push(choice(position.legal_moves()))
            n += 1
        steps += n
        turns += position.turns
    play_seconds = time.perf_counter() - t0
    return play_seconds, steps, turns, deal_seconds, samples


def mid_game_positions(
    count: int, seed: int, rules: Rules, engine: ModuleType | None = None
) -> list[Position]:
    rng = random.Random(seed)
    dealing = deal if engine is None else engine.deal
    if engine is not None:
        rules = engine.PRESETS[rules.preset]
    out: list[Position] = []
    while len(out) < count:
        position = dealing(rng.getrandbits(64), rules)
        target = rng.randrange(200, 1500)
        for _ in range(target):
            if position.is_over:
                break
            position.push(rng.choice(position.legal_moves()))
        if not position.is_over:
            out.append(position)
    return out


def time_legal(positions: list[Position], repeat: int) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        for position in positions:
            # measure a cold call, not the per-position caches
            position._fmoves = None
            if hasattr(type(position), "_masks"):
                position._houses_state = None
            position.legal_moves()
    return (time.perf_counter() - t0) / (repeat * len(positions))


def load_other(folder: Path) -> ModuleType:
    """Another version's engine, imported as ``against_games.engine`` from a copy."""
    tmp = Path(tempfile.mkdtemp(prefix="engine-against-"))
    shutil.copytree(folder / "games" / "engine", tmp / "against_games" / "engine")
    (tmp / "against_games" / "__init__.py").touch()
    sys.path.insert(0, str(tmp))
    return importlib.import_module("against_games.engine")


def compare(args: argparse.Namespace, rules: Rules) -> None:
    """This engine and another, timed in turn round by round: the ratios in one run."""
    other = load_other(args.against)
    mine_legal = mid_game_positions(200, args.seed, rules)
    their_legal = mid_game_positions(200, args.seed, rules, other)
    step: dict[str, list[float]] = {"this": [], "other": []}
    legal: dict[str, list[float]] = {"this": [], "other": []}
    for _ in range(args.rounds):
        for name, engine, positions in (
            ("this", None, mine_legal),
            ("other", other, their_legal),
        ):
            played = run_games(args.games, args.seed, rules, engine)
            step[name].append(played[0] * 1e6 / played[1])
            legal[name].append(time_legal(positions, 10) * 1e6)
    print(f"python           {sys.version.split()[0]}")
    print(f"rules            {args.rules}, against {args.against}")
    print(f"games            {args.games} x {args.rounds} rounds, each engine in turn")
    for label, figures in (("us per step ", step), ("us per legal", legal)):
        ours, theirs = figures["this"], figures["other"]
        ratios = [t / o for o, t in zip(ours, theirs, strict=True)]
        print(
            f"{label}     this {statistics.median(ours):.2f} median, {min(ours):.2f} best; "
            f"other {statistics.median(theirs):.2f} median, {min(theirs):.2f} best; "
            f"{statistics.median(ratios):.2f}x faster (median of the rounds' ratios)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100, help="games per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the same games each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="pagat", choices=sorted(PRESETS), help="a preset")
    parser.add_argument("--against", type=Path, help="a folder holding another games/engine")
    args = parser.parse_args()
    rules = PRESETS[args.rules]
    if args.against is not None:
        compare(args, rules)
        return

    # A shared machine is noisy: play the same games several times, report median and best.
    rounds = [run_games(args.games, args.seed, rules) for _ in range(args.rounds)]
    step_us = [r[0] * 1e6 / r[1] for r in rounds]
    game_rate = [args.games / (r[0] + r[3]) for r in rounds]
    _, steps, turns, deal_seconds, _ = rounds[0]
    mid_game = mid_game_positions(200, args.seed, rules)
    legal_us = [time_legal(mid_game, 10) * 1e6 for _ in range(args.rounds)]
    print(f"python           {sys.version.split()[0]}")
    print(f"rules            {args.rules}")
    print(f"games            {args.games} x {args.rounds} rounds")
    print(
        f"us per step      {statistics.median(step_us):.2f} median, {min(step_us):.2f} best"
        "   (legal moves + checked apply)"
    )
    print(
        f"games per second {statistics.median(game_rate):.1f} median, {max(game_rate):.1f} best"
        "   (deal included)"
    )
    print(f"steps per game   {steps / args.games:.0f}")
    print(f"turns per game   {turns / args.games:.1f}")
    print(f"steps per turn   {steps / turns:.1f}")
    print(f"us per deal      {deal_seconds * 1e6 / args.games:.1f}")
    print(
        f"us per legal     {statistics.median(legal_us):.2f} median, {min(legal_us):.2f} best"
        "   (mid-game positions, cold)"
    )


if __name__ == "__main__":
    main()
