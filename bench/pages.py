"""The game page as a player's browser meets it, at move 10 and at move 2,000.

    python bench/pages.py                   # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/pages.py

Times, signed in with a session: the whole game page (HTML), the poll that finds
nothing new (204), the poll that brings the table (200), and a move posted by the
page's script (the table fragment comes back). Medians over ROUNDS requests each.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rbank_site.settings_test")
os.environ.setdefault("RBANK_VAR_DIR", str(ROOT / "var" / "bench"))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings, setup_test_environment  # noqa: E402

from bench.api import advance, long_turn_move  # noqa: E402
from games.engine import from_document  # noqa: E402
from games.models import Game  # noqa: E402
from games.services import start_game  # noqa: E402

ROUNDS = 100


def median_ms(request: Callable[[], object]) -> float:
    for _ in range(10):  # warm up
        request()
    times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        request()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        with override_settings(DEBUG=False):
            run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run() -> None:
    alice = User.objects.create_user("alice", password="x")
    bob = User.objects.create_user("bob", password="x")
    browsers = {}
    for seat, user in (("A", alice), ("B", bob)):
        browsers[seat] = Client()
        browsers[seat].force_login(user)
    rng = random.Random(5)
    print(f"database      {connection.vendor} ({settings.DATABASES['default']['NAME']})")
    print(f"requests      {ROUNDS} per figure, median")
    for ply in (10, 2000):
        game = start_game(alice, bob, seed=2026)
        advance(game, alice, ply, rng)
        game.refresh_from_db()
        print(f"at move {game.ply}:")
        for label, ms in figures_at(game, browsers, rng).items():
            print(f"    {label:<24} {ms:7.2f} ms")


def figures_at(game: Game, browsers: dict[str, Client], rng: random.Random) -> dict[str, float]:
    mover = browsers[game.to_move]
    waiting = browsers["B" if game.to_move == "A" else "A"]
    page = f"/games/{game.pk}/"
    table = f"/games/{game.pk}/table/"

    def move() -> None:
        game.refresh_from_db()
        text = long_turn_move(from_document(game.position), rng)
        response = browsers[game.to_move].post(
            f"/games/{game.pk}/play/",
            {"moves": text, "version": str(game.version)},
            HTTP_X_REQUESTED_WITH="fetch",
        )
        assert response.status_code == 200 and "X-Refused" not in response

    return {
        "game page": median_ms(lambda: mover.get(page)),
        "poll, no news (204)": median_ms(
            lambda: waiting.get(table, {"version": str(game.version)})
        ),
        "poll, the table (200)": median_ms(lambda: waiting.get(table, {"version": "0"})),
        "a move from the page": median_ms(move),
    }


if __name__ == "__main__":
    main()
