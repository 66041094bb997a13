"""The game's pages as a player's browser meets them, at move 10 and at move 2,000.

    python bench/pages.py [--rounds 100]    # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/pages.py

Times, signed in with a session (Django's test client, no network): the whole game
page, the replay page, the poll that finds nothing new (204), the poll that brings the
table (200), and a move posted by the page's script (the table fragment comes back).
Each request alternates with a floor request of the same kind through the same
settings and middleware: a session-authenticated GET (or POST) of a view that reads
(and writes) one row and answers a few bytes of HTML. Prints medians, each as a
ratio to its floor, and the size of what each page sends.

The game is a real long one, as in bench/api.py: a deal whose uniformly random game
lasts past move 2,000; the moves posted from the page are its next moves, turns and
the discards that end a turn included.

Its last line is the idle poll at move 2,000 beside its floor, with the queries one
more idle poll makes: ``idle poll X ms, floor Y ms, Q queries``. The cache is the
suite's (one process's memory) unless ``CACHE_URL`` names a Redis database, as a
deployment's does: ``CACHE_URL=redis://127.0.0.1:6379/1 python bench/pages.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/pages.py
from bench.harness import start_django

start_django()

from django.contrib.auth.decorators import login_required  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import include, path  # noqa: E402

from bench.harness import (  # noqa: E402
    database,
    long_random_game,
    median_ms,
    play_to,
    test_database,
)
from games.models import Game  # noqa: E402
from games.play.dealing import start_game  # noqa: E402

WARM_UP = 10
STARTS = (10, 2000)


@login_required
def floor(request: HttpRequest) -> HttpResponse:
    """One row read (and written, for a POST) for the signed-in player: the least any
    page of the site does."""
    assert request.user.pk is not None  # login_required
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=request.user.pk)
        if request.method == "POST":
            user.last_name = str(request.POST.get("n", ""))[:150]
            user.save(update_fields=["last_name"])
    return HttpResponse(f"<p>{user.get_username()}</p>")


urlpatterns = [
    path("floor/", floor),
    path("", include("config.urls")),
]


class Figure:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.floor: list[float] = []
        self.size = 0


def measure(request: Callable[[], Any], floor_request: Callable[[], Any], rounds: int) -> Figure:
    figure = Figure()
    for i in range(WARM_UP + rounds):
        t0 = time.perf_counter()
        floor_request()
        t1 = time.perf_counter()
        response = request()
        t2 = time.perf_counter()
        if i >= WARM_UP:
            figure.floor.append(t1 - t0)
            figure.times.append(t2 - t1)
            figure.size = max(figure.size, len(response.content))
    return figure


def figures_at(
    game: Game, moves: list[str], browsers: dict[str, Client], rounds: int
) -> dict[str, Figure]:
    game.refresh_from_db()
    mover = browsers[game.to_move]
    waiting = browsers["B" if game.to_move == "A" else "A"]
    page = f"/games/{game.pk}/"
    table = f"/games/{game.pk}/table/"

    def get_floor() -> Any:
        response: Any = mover.get("/floor/")
        assert response.status_code == 200
        return response

    def post_floor() -> Any:
        response: Any = mover.post("/floor/", {"n": "x"})
        assert response.status_code == 200
        return response

    def get(client: Client, url: str, status: int, **params: str) -> Callable[[], Any]:
        def request() -> Any:
            response: Any = client.get(url, params)
            assert response.status_code == status, (url, response.status_code)
            return response

        return request

    def move() -> Any:
        game.refresh_from_db()
        response: Any = browsers[game.to_move].post(
            f"/games/{game.pk}/play/",
            {"moves": moves[game.ply], "version": str(game.version)},
            HTTP_X_REQUESTED_WITH="fetch",
        )
        assert response.status_code == 200 and "X-Refused" not in response, response
        return response

    return {
        "game page": measure(get(mover, page, 200), get_floor, rounds),
        "replay page": measure(get(mover, f"/games/{game.pk}/replay/", 200), get_floor, rounds),
        "poll, no news (204)": measure(
            get(waiting, table, 204, version=str(game.version)), get_floor, rounds
        ),
        "poll, the table (200)": measure(get(waiting, table, 200, version="0"), get_floor, rounds),
        "a move from the page": measure(move, post_floor, rounds),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=100, help="requests timed per figure")
    args = parser.parse_args()
    seed, moves = long_random_game(max(STARTS) + 2 * (WARM_UP + args.rounds))
    print(f"game          seed {seed}, {len(moves)} moves of uniformly random legal moves")
    print(f"requests      {args.rounds} per figure after {WARM_UP} untimed; medians")
    print("floor         a session GET (POST for the move) that reads (and writes) one row")
    with test_database(), override_settings(ROOT_URLCONF=__name__, DEBUG=False):
        print(f"database      {database()}")
        alice = User.objects.create_user("alice", password="x")
        bob = User.objects.create_user("bob", password="x")
        browsers = {}
        for seat, user in (("A", alice), ("B", bob)):
            browsers[seat] = Client()
            browsers[seat].force_login(user)
        for start in STARTS:
            game = start_game(alice, bob, seed=seed)
            play_to(game, moves, start)
            print(f"at move {start}:")
            figures = figures_at(game, moves, browsers, args.rounds)
            for label, figure in figures.items():
                ms, floor_ms = median_ms(figure.times), median_ms(figure.floor)
                print(
                    f"    {label:<24} {ms:7.2f} ms   floor {floor_ms:5.2f} ms   "
                    f"ratio {ms / floor_ms:5.2f}   {figure.size:>7,} bytes"
                )
        # The last game, at move 2,000: the queries of one more idle poll, counted.
        game.refresh_from_db()
        waiting = browsers["B" if game.to_move == "A" else "A"]
        with CaptureQueriesContext(connection) as queries:
            response = waiting.get(f"/games/{game.pk}/table/", {"version": str(game.version)})
        assert response.status_code == 204
        idle = figures["poll, no news (204)"]
        print(
            f"idle poll {median_ms(idle.times):.2f} ms, floor {median_ms(idle.floor):.2f} ms, "
            f"{len(queries)} queries"
        )


if __name__ == "__main__":
    main()
