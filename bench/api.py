"""Posting a move through the whole stack, against the floor of the same stack.

    python bench/api.py [--rounds 200]      # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/api.py

A move is a POST to ``/api/v1/games/{id}/moves/`` with one move: token auth, the game
row locked, the engine, the snapshot and log saved, the caller's view rendered. The
floor is an authenticated DRF POST that reads one row and writes it back, served by
the same settings, middleware and authentication. The two alternate, one of each, so
that both meet the machine in the same state.

The moves are those of a real long game: the deal of a seed whose game, played by
uniformly random legal moves (the ``selfplay`` policy), lasts past move 2,000 + the
rounds. The bench times the moves from move 10 and from move 2,000 on, all of them:
card moves, turns, and the discards that end a turn (those also write the next
deadline and queue the "your turn" e-mail, in memory here). Prints medians, and each
as a ratio to the floor of the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/api.py
from bench.harness import start_django

start_django()

from django.contrib.auth.models import User  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.urls import include, path  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402
from rest_framework.views import APIView  # noqa: E402

from accounts.models import ApiToken  # noqa: E402
from bench.harness import (  # noqa: E402
    database,
    ends_turn,
    long_random_game,
    median_ms,
    play_to,
    test_database,
)
from games.models import Game  # noqa: E402
from games.play.dealing import start_game  # noqa: E402

WARM_UP = 20
STARTS = (10, 2000)


class FloorApi(APIView):
    """Reads one row and writes it back: what any authenticated write costs."""

    def post(self, request: Request) -> Response:
        assert isinstance(request.data, dict) and request.user.pk is not None
        with transaction.atomic():
            user = User.objects.select_for_update().get(pk=request.user.pk)
            user.last_name = str(request.data.get("n", ""))[:150]
            user.save(update_fields=["last_name"])
        return Response({"ok": True})


urlpatterns = [
    path("floor/", FloorApi.as_view()),
    path("", include("config.urls")),
]


class Timings:
    def __init__(self, first_ply: int) -> None:
        self.first_ply = first_ply
        self.floor: list[float] = []
        self.moves: list[float] = []
        self.turn_ends: list[float] = []


def time_moves(game: Game, moves: list[str], clients: dict[str, APIClient], count: int) -> Timings:
    """``count`` pairs: a floor request, then the game's next move."""
    game.refresh_from_db()
    timings = Timings(game.ply)
    for i in range(count):
        t0 = time.perf_counter()
        response: Any = clients["A"].post("/floor/", {"n": i}, format="json")
        timings.floor.append(time.perf_counter() - t0)
        assert response.status_code == 200
        game.refresh_from_db()
        move = moves[game.ply]
        client = clients[game.to_move]
        t0 = time.perf_counter()
        response = client.post(f"/api/v1/games/{game.pk}/moves/", {"moves": [move]}, format="json")
        seconds = time.perf_counter() - t0
        assert response.status_code == 200, response.content
        timings.moves.append(seconds)
        if ends_turn(move):
            timings.turn_ends.append(seconds)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200, help="moves timed from each start")
    args = parser.parse_args()
    seed, moves = long_random_game(max(STARTS) + WARM_UP + args.rounds)
    with test_database(), override_settings(ROOT_URLCONF=__name__, DEBUG=False):
        figures = run(seed, moves, args.rounds)
    print(f"database        {database()}")
    print(
        f"game            seed {seed}, {len(moves)} moves of uniformly random legal moves; "
        f"{args.rounds} moves timed from each start, after {WARM_UP} untimed"
    )
    print("figures         medians; ratio = the median over the floor's median")
    print(
        "floor           an authenticated DRF POST that locks, reads and writes one row; "
        "one floor request before each move"
    )
    for start, timings in figures.items():
        floor = median_ms(timings.floor)
        move = median_ms(timings.moves)
        last = timings.first_ply + len(timings.moves)
        print(
            f"from move {start:<5} move {move:6.2f} ms   floor {floor:6.2f} ms   "
            f"ratio {move / floor:4.2f}   (moves {timings.first_ply + 1}-{last})"
        )
        if timings.turn_ends:
            end = median_ms(timings.turn_ends)
            print(
                f"                ending a turn ({len(timings.turn_ends)} of them) "
                f"{end:6.2f} ms   ratio {end / floor:4.2f}"
            )
    late, early = (figures[s] for s in (max(STARTS), min(STARTS)))
    ratio = (median_ms(late.moves) / median_ms(late.floor)) / (
        median_ms(early.moves) / median_ms(early.floor)
    )
    print(f"ratio at move {max(STARTS)} / ratio at move {min(STARTS)}: {ratio:.2f}")


def run(seed: int, moves: list[str], rounds: int) -> dict[int, Timings]:
    alice = User.objects.create_user("alice", password="x")
    bob = User.objects.create_user("bob", password="x")
    clients = {}
    for seat, user in (("A", alice), ("B", bob)):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user, 'bench')[1]}")
        clients[seat] = client
    figures = {}
    for start in STARTS:
        game = start_game(alice, bob, seed=seed)
        play_to(game, moves, start)
        time_moves(game, moves, clients, WARM_UP)
        figures[start] = time_moves(game, moves, clients, rounds)
    return figures


if __name__ == "__main__":
    main()
