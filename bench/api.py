"""Posting a move through the whole stack against the floor of the same stack.

    python bench/api.py                     # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/api.py

The floor is an authenticated DRF POST that reads one row and writes it back, served
by the same settings, middleware and authentication. A move is a POST to
``/api/v1/games/{id}/moves/``: token auth, the game row locked, the engine, the
snapshot and log saved, the caller's view rendered. Both are timed in the same
process and run, at move 10 and at move 2,000 of a game. Prints its figures.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rbank_site.settings_test")
os.environ.setdefault("RBANK_VAR_DIR", str(ROOT / "var" / "bench"))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import override_settings, setup_test_environment  # noqa: E402
from django.urls import include, path  # noqa: E402
from rest_framework.request import Request  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402
from rest_framework.views import APIView  # noqa: E402

from accounts.models import ApiToken  # noqa: E402
from games.engine import Position, from_document  # noqa: E402
from games.models import Game  # noqa: E402
from games.services import play_moves, start_game  # noqa: E402

ROUNDS = 200


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
    path("", include("rbank_site.urls")),
]


def long_turn_move(position: Position, rng: random.Random) -> str:
    """A legal move that keeps the turn going when it can: games reach move 2,000."""
    legal = [str(m) for m in position.legal_moves()]
    going = [m for m in legal if m not in ("T", "C-W", "E")]
    return rng.choice(going or legal)


def advance(game: Game, user: User, to_ply: int, rng: random.Random) -> None:
    """Bring the game to ``to_ply`` moves through the service (not timed)."""
    players = {"A": game.player_a, "B": game.player_b}
    while game.ply < to_ply and game.status == "playing":
        position = from_document(game.position)
        batch = []
        for _ in range(min(100, to_ply - game.ply)):
            if position.is_over or position.seat_name(position.to_move) != game.to_move:
                break
            move = long_turn_move(position, rng)
            position.play(move)
            batch.append(move)
        play_moves(game_id=game.pk, user=players[game.to_move], moves=batch)
        game.refresh_from_db()


def time_pairs(
    game: Game, clients: dict[str, APIClient], rng: random.Random, rounds: int = ROUNDS
) -> tuple[list[float], list[float]]:
    """Alternate a floor request and a move request, so both meet the same machine."""
    moves, floors = [], []
    for i in range(rounds):
        t0 = time.perf_counter()
        response: Any = clients["A"].post("/floor/", {"n": i}, format="json")
        floors.append(time.perf_counter() - t0)
        assert response.status_code == 200
        game.refresh_from_db()
        move = long_turn_move(from_document(game.position), rng)
        client = clients[game.to_move]
        t0 = time.perf_counter()
        response = client.post(f"/api/v1/games/{game.pk}/moves/", {"moves": [move]}, format="json")
        moves.append(time.perf_counter() - t0)
        assert response.status_code == 200, response.content
    return moves, floors


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        with override_settings(ROOT_URLCONF=__name__, DEBUG=False):
            run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run() -> None:
    alice = User.objects.create_user("alice", password="x")
    bob = User.objects.create_user("bob", password="x")
    clients = {}
    for seat, user in (("A", alice), ("B", bob)):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user, 'bench')[1]}")
        clients[seat] = client
    rng = random.Random(5)
    figures = {}
    for label, ply in (("move 10", 10), ("move 2000", 2000)):
        game = start_game(alice, bob, seed=2026)
        advance(game, alice, ply, rng)
        time_pairs(game, clients, rng, rounds=20)  # warm up
        start = game.ply
        moves, floors = time_pairs(game, clients, rng)
        figures[label] = (statistics.median(moves), statistics.median(floors), start)
    vendor = connection.vendor
    print(f"database      {vendor} ({settings.DATABASES['default']['NAME']})")
    print(f"requests      {ROUNDS} per figure, median")
    for label, (move, floor, ply) in figures.items():
        print(
            f"{label:<10}    move {move * 1e3:6.2f} ms   floor {floor * 1e3:6.2f} ms   "
            f"ratio {move / floor:4.2f}   (moves {ply} to {ply + ROUNDS})"
        )
    ratio = figures["move 2000"][0] / figures["move 10"][0]
    print(f"move 2000 / move 10: {ratio:.2f}")


if __name__ == "__main__":
    main()
