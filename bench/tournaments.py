"""A 1,000-player Swiss: the time to pair a late round and to compute the standings.

    python bench/tournaments.py [--players 1000] [--rounds 10] [--late 6] [--seed 1]

Simulates a whole Swiss with the pure formats (``competitions.formats``, no database):
ratings drawn from a normal law (1500, 200), each game won by seat A or B with 45 %
each and drawn (a stalemate) with 10 %, from the seed. Timed, each as the median of
``--repeat`` runs on the same input:

* **pairing**: ``swiss.pair_round`` for round ``--late`` (its field built beforehand
  from the earlier rounds' results: what the service passes in);
* **standings**: ``standings.standings("swiss", ...)`` from every result of the
  ``--rounds`` rounds and the byes (the service reads them in one query; that is the
  Django side's, not timed here).

Each beside a floor measured in the same run: for the pairing, sorting the field by
points and rating (what any pairing does first); for the standings, one pass adding up
the points of the results. Its last line is
``swiss 1000 players: pairing X ms, standings Y ms``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/tournaments.py

from competitions.formats.results import Entrant, GameResult
from competitions.formats.standings import standings
from competitions.formats.swiss import SwissPlayer, pair_round, swiss_players

OUTCOMES = [((1.0, 0.0), 45), ((0.0, 1.0), 45), ((0.5, 0.5), 10)]


def median_ms(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def simulate(
    players: int, rounds: int, late: int, seed: int
) -> tuple[dict[int, float], list[GameResult], dict[int, int], list[SwissPlayer]]:
    rng = random.Random(seed)
    ratings = {p: rng.gauss(1500, 200) for p in range(1, players + 1)}
    history: list[tuple[int, int, float, float]] = []
    results: list[GameResult] = []
    byes: dict[int, int] = {}
    late_field: list[SwissPlayer] = []
    points, weights = zip(*OUTCOMES, strict=True)
    for number in range(1, rounds + 1):
        field = swiss_players(ratings, history, byes)
        if number == late:
            late_field = field
        pairing = pair_round(field)
        if pairing.bye is not None:
            byes[pairing.bye] = byes.get(pairing.bye, 0) + 1
        for a, b in pairing.games:
            (pa, pb) = rng.choices(points, weights)[0]
            history.append((a, b, pa, pb))
            scores = (rng.randrange(0, 60), rng.randrange(0, 60))
            results.append(GameResult(a, b, (pa, pb), scores, round=number))
    return ratings, results, byes, late_field


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--late", type=int, default=6, help="the round whose pairing is timed")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    t0 = time.perf_counter()
    ratings, results, byes, field = simulate(args.players, args.rounds, args.late, args.seed)
    simulated = time.perf_counter() - t0
    entrants = [Entrant(p, r) for p, r in ratings.items()]

    pairing_ms = median_ms(lambda: pair_round(field), args.repeat)
    sort_ms = median_ms(lambda: sorted(field, key=lambda p: (-p.points, -p.rating)), args.repeat)

    def add_points() -> dict[int, float]:
        total = dict.fromkeys(ratings, 0.0)
        for game in results:
            total[game.first] += game.points[0]
            total[game.second] += game.points[1]
        return total

    standings_ms = median_ms(lambda: standings("swiss", entrants, results, byes), args.repeat)
    pass_ms = median_ms(add_points, args.repeat)

    pairing = pair_round(field)
    groups = len({p.points for p in field})
    games = len(results)
    print(
        f"simulated {args.players} players, {args.rounds} rounds, {games} games: {simulated:.1f} s"
    )
    print(
        f"round {args.late}: {len(pairing.games)} games, bye {pairing.bye}, {groups} score groups"
    )
    print(
        f"pairing    {pairing_ms:8.1f} ms   floor (sort the field) {sort_ms:6.2f} ms"
        f"   ratio {pairing_ms / sort_ms:6.0f}"
    )
    print(
        f"standings  {standings_ms:8.1f} ms   floor (add the points) {pass_ms:6.2f} ms"
        f"   ratio {standings_ms / pass_ms:6.1f}"
    )
    print(f"(medians of {args.repeat} runs each, one process, this machine's load as it was)")
    print(
        f"swiss {args.players} players: "
        f"pairing {round(pairing_ms)} ms, standings {round(standings_ms)} ms"
    )


if __name__ == "__main__":
    main()
