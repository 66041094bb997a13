"""Size of an encoded game record (games/engine/encoding.py) and the time to make it.

    python bench/record_size.py [--games 100] [--seed 1] [--rules pagat ...]

Plays random games to the end under each preset (uniform over the legal moves, the
self-play policy, through the engine ``Game``), encodes each record, checks that it
decodes to the same record, and prints per preset the mean, smallest and largest size
in bytes, the bytes per move, and the mean time to encode and to decode a game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import PRESETS, Game, Rules, decode, encode


def measure(rules: Rules, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    sizes: list[int] = []
    moves = 0
    encoding = decoding = 0.0
    for _ in range(games):
        game = Game(rng.getrandbits(64), rules)
        while not game.is_over:
            seat = game.to_move
            game.play(seat, [rng.choice(game.legal_moves(seat))])
        record = game.record
        t0 = time.perf_counter()
        data = encode(record)
        t1 = time.perf_counter()
        if decode(data) != record:
            raise AssertionError("a record did not decode to itself")
        t2 = time.perf_counter()
        encoding += t1 - t0
        decoding += t2 - t1
        sizes.append(len(data))
        moves += len(record.entries)
    return {
        "mean": statistics.mean(sizes),
        "min": min(sizes),
        "max": max(sizes),
        "per_move": sum(sizes) / moves,
        "moves": moves / games,
        "encode_ms": encoding * 1000 / games,
        "decode_ms": decoding * 1000 / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="*", default=sorted(PRESETS), choices=sorted(PRESETS))
    args = parser.parse_args()
    print(f"{args.games} random finished games per preset, seed {args.seed}")
    print(
        f"{'preset':16} {'moves':>6} {'bytes':>6} {'min':>5} {'max':>5} "
        f"{'B/move':>6} {'encode':>8} {'decode':>8}"
    )
    for name in args.rules:
        f = measure(PRESETS[name], args.games, args.seed)
        print(
            f"{name:16} {f['moves']:6.0f} {f['mean']:6.0f} {f['min']:5.0f} {f['max']:5.0f} "
            f"{f['per_move']:6.3f} {f['encode_ms']:6.1f}ms {f['decode_ms']:6.1f}ms"
        )


if __name__ == "__main__":
    main()
