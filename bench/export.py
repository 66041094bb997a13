"""A player's export stream over 100,000 finished games. Prints its figures.

    python bench/export.py                    # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/export.py

One player (alice) has GAMES finished games (TEMPLATES real games, played one to four
whole turns through the services then resigned, each copied many times with its own end): the
bench reads her whole stream through the API's view (Django's test client: no
network), NDJSON, page by page with the ``Link`` header's cursor, LIMIT games a page,
and times each page's whole body. What is timed per 1,000 games: the query of the
page, the replay of each game from its stored record and its writing in the notation
and JSON, the response.

The floor: the same page's games written in the notation straight from rows already
read (``games.archive.notation.game_text``, no query, no HTTP, the replay cache
emptied first), the work no export can skip; timed right after every tenth page and
the last, so that a page and its floor share the machine's load. The last line gives
the median page against its floor; the first and the last pages are compared too (a
keyset page costs the same wherever it starts).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/export.py
from bench.harness import start_django

start_django()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.harness import database, test_database  # noqa: E402
from games.archive.notation import game_text  # noqa: E402
from games.models import SEATS, Game, Seat  # noqa: E402
from games.play import store  # noqa: E402
from games.play.dealing import start_game  # noqa: E402
from games.play.services import play_moves, resign  # noqa: E402
from tests.service.conftest import whole_turn  # noqa: E402

#: BENCH_GAMES makes a shorter run (the bench's own test).
GAMES = int(os.environ.get("BENCH_GAMES", "100000"))
#: More distinct games than the replay cache keeps (``store._FINISHED_KEPT``), so that
#: every game of the stream is replayed from its record, as in a real player's stream.
TEMPLATES = 80
LIMIT = 1_000
START = datetime(2020, 1, 1, tzinfo=UTC)


def templates(alice: User, bob: User) -> list[Game]:
    """Real finished games: a few whole turns each, then a resignation."""
    made = []
    for n in range(TEMPLATES):
        game = start_game(alice, bob, seed=1_000 + n)
        for _ in range(1 + n % 4):
            game.refresh_from_db()
            mover = alice if game.to_move == "A" else bob
            play_moves(game_id=game.pk, user=mover, moves=whole_turn(game))
        made.append(resign(game_id=game.pk, user=alice if n % 2 else bob))
    return made


def fill(alice: User, bob: User) -> None:
    """GAMES finished games of alice's, copies of the templates, one a minute."""
    models = templates(alice, bob)
    Game.objects.all().delete()
    names = [f.attname for f in Game._meta.concrete_fields if not f.primary_key]
    fields = [{name: getattr(game, name) for name in names} for game in models]
    for first in range(0, GAMES, 5_000):
        rows = []
        for n in range(first, min(first + 5_000, GAMES)):
            row = Game(**fields[n % TEMPLATES])
            row.finished_at = START + timedelta(minutes=n)
            rows.append(row)
        Game.objects.bulk_create(rows)
        made = (
            Game.objects.filter(pk__gte=rows[0].pk).order_by("pk").values_list("pk", "finished_at")
        )
        seats = []
        for pk, finished_at in made:
            seats += [
                Seat(game_id=pk, letter="A", user=alice, finished_at=finished_at, score=0),
                Seat(game_id=pk, letter="B", user=bob, finished_at=finished_at, score=111),
            ]
        Seat.objects.bulk_create(seats)


def read_stream(client: Client) -> list[tuple[float, int, list[int], float | None]]:
    """Every page of alice's stream: its seconds, its queries, the ids of its games, and
    for every tenth page and the last, its floor in seconds, timed right after it (a
    machine's load drifts over a run; a page and its floor share the same moment)."""
    url: str | None = f"/api/v1/players/alice/games/export/?limit={LIMIT}"
    pages: list[tuple[float, int, list[int], float | None]] = []
    while url is not None:
        with CaptureQueriesContext(connection) as captured:
            t0 = time.perf_counter()
            response = client.get(url)
            body = response.getvalue()  # the whole stream, as a client reads it
            seconds = time.perf_counter() - t0
        assert response.status_code == 200, body[:200]
        ids = [json.loads(line)["id"] for line in body.splitlines()]
        link = response.get("Link")
        url = None if link is None else link[1 : link.index(">")].split("testserver", 1)[1]
        sampled = len(pages) % 10 == 0 or url is None
        floor = floor_seconds(ids) if sampled else None
        pages.append((seconds, len(captured.captured_queries), ids, floor))
    return pages


def floor_seconds(ids: list[int]) -> float:
    """Seconds to write these games in the notation from rows already read."""
    rows = list(Game.objects.filter(pk__in=ids).prefetch_related(SEATS).order_by("pk"))
    store._FINISHED.clear()
    t0 = time.perf_counter()
    for game in rows:
        game_text(game)
    return time.perf_counter() - t0


def main() -> None:
    with test_database():
        alice = User.objects.create_user("alice", "alice@example.com")
        bob = User.objects.create_user("bob", "bob@example.com")
        t0 = time.perf_counter()
        fill(alice, bob)
        print(f"filled {GAMES:,} games in {time.perf_counter() - t0:.1f} s", flush=True)
        client = Client()
        client.force_login(alice)
        client.get("/api/v1/players/alice/games/export/?limit=1")  # the session's first use
        pages = read_stream(client)
        ids = [game for page in pages for game in page[2]]
        assert len(ids) == len(set(ids)) == GAMES, len(ids)
        seconds = [page[0] for page in pages]
        queries = {page[1] for page in pages}
        ratios = [page[0] / page[3] for page in pages if page[3]]
        floor = statistics.median(page[3] for page in pages if page[3])
        first, last = pages[0], pages[-1]
        print(f"database          {database()}")
        print(f"stream            {GAMES:,} games in {len(pages)} pages of {LIMIT}, NDJSON")
        print(f"whole stream      {sum(seconds):.1f} s")
        print(f"queries a page    {min(queries)}-{max(queries)}")
        print(f"floor             {floor * 1e3:.0f} ms per 1,000 games (their notation alone)")
        print(
            f"first page        {first[0] * 1e3:.0f} ms ({first[0] / (first[3] or 1):.2f}x its "
            f"floor), last page {last[0] * 1e3:.0f} ms ({last[0] / (last[3] or 1):.2f}x its floor)"
        )
        print(
            f"export: {statistics.median(seconds) * 1e3:.0f} ms per 1,000 games (median page), "
            f"{statistics.median(ratios):.2f}x the floor (median of {len(ratios)} pages timed "
            "with their floor)"
        )


if __name__ == "__main__":
    main()
