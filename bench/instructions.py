"""Engine cost in CPU instructions per step, this checkout's engine against another's.

    python bench/instructions.py [--games 3] [--seed 1] [--against DIR]

Times are noisy on a shared machine; instruction counts are not. Each engine plays the
same random games (the self-play loop of bench/engine.py: at each step one
``legal_moves()`` call and one checked ``push`` of a uniformly chosen legal move, the
deal included) under valgrind's callgrind, once with the games and once with none,
and the difference divided by the steps played is the figure: Python's start-up and
the imports cancel out. ``--against DIR`` names a folder holding another version's
``games/engine`` (``git archive <commit> games/engine | tar -x -C DIR``); both must
play the same games move for move, or the comparison is refused.

Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in a child interpreter whose sys.path starts at the engine's checkout.
PLAY = """
import json, random, sys
from games.engine import PRESETS, deal
games, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
steps = 0
for _ in range(games):
    position = deal(rng.getrandbits(64), PRESETS["pagat"])
    while not position.is_over:
        position.push(rng.choice(position.legal_moves()))
        steps += 1
    final = position.score
print(json.dumps({"steps": steps, "last_score": final if games else None}))
"""


def instructions(root: Path, games: int, seed: int) -> tuple[int, dict[str, object]]:
    """Instructions the whole run takes, and what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             sys.executable, "-c", PLAY, str(games), str(seed)],
            cwd=root, env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)},
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        total = re.search(r"^summary:\s+(\d+)", out.read_text(), re.MULTILINE)
        assert total is not None, run.stderr
        return int(total.group(1)), json.loads(run.stdout)


def per_step(root: Path, games: int, seed: int) -> tuple[float, dict[str, object]]:
    base, _ = instructions(root, 0, seed)
    total, printed = instructions(root, games, seed)
    steps = printed["steps"]
    assert isinstance(steps, int) and steps > 0
    return (total - base) / steps, printed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", type=Path, help="a folder holding another games/engine")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench/instructions.py needs valgrind: apt-get install valgrind")
    ours, played = per_step(ROOT, args.games, args.seed)
    print(f"{args.games} random pagat games, {played['steps']} steps (seed {args.seed})")
    print(f"this engine: {ours / 1000:.1f} k instructions per step")
    if args.against is not None:
        theirs, other = per_step(args.against.resolve(), args.games, args.seed)
        if other != played:
            sys.exit(f"the engines played different games: {other} against {played}")
        print(f"{args.against}: {theirs / 1000:.1f} k instructions per step")
        print(f"ratio: {ours / theirs:.3f} (below 1: this engine takes fewer)")


if __name__ == "__main__":
    main()
