"""The deadline sweep with 1,000 and 100,000 active games, 10 of them due. Prints its figures.

    python bench/sweep.py                    # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/sweep.py

The sweep reads the indexed deadline column: its cost should follow the number of
due games (10 here), not the number of active ones. Its floor, in the same run and
table: the same sweep with no game due, which only asks the indexes. Medians of
ROUNDS sweeps each; the due games' work (forfeit, log, e-mails queued in memory) is
part of the figure.
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/sweep.py
from bench.harness import start_django

start_django()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.harness import database, test_database  # noqa: E402
from games.models import Game  # noqa: E402
from games.play.dealing import start_game  # noqa: E402
from games.sweep import sweep  # noqa: E402

DUE = 10
ROUNDS = 5


def fill(active: int, players: tuple[User, User]) -> dict[str, object]:
    """``active - DUE`` games whose deadlines are days away; returns a game's fields."""
    Game.objects.all().delete()
    template = start_game(*players, seed=1)
    fields = {
        f.attname: getattr(template, f.attname)
        for f in Game._meta.concrete_fields
        if not f.primary_key
    }
    template.delete()
    now = timezone.now()
    batch = []
    for i in range(active - DUE):
        row = Game(**fields)
        row.deadline = now + timedelta(days=2 + i % 5)
        row.reminder_at = now + timedelta(days=1 + i % 5)
        batch.append(row)
        if len(batch) == 5000:
            Game.objects.bulk_create(batch)
            batch = []
    Game.objects.bulk_create(batch)
    return fields


def timed_sweep(fields: dict[str, object], due_count: int = DUE) -> tuple[float, int, int]:
    """Median seconds of a sweep that finds ``due_count`` games due, its queries, and
    how many games it timed out."""
    times = []
    queries = touched = 0
    for _ in range(ROUNDS):
        due = [Game(**fields) for _ in range(due_count)]
        for row in due:
            row.deadline = timezone.now() - timedelta(minutes=1)
        Game.objects.bulk_create(due)
        with CaptureQueriesContext(connection) as captured:
            t0 = time.perf_counter()
            result = sweep()
            times.append(time.perf_counter() - t0)
        queries = len(captured.captured_queries)
        touched = result["timed_out"]
        Game.objects.exclude(status="playing").delete()
    return statistics.median(times), queries, touched


def main() -> None:
    with test_database():
        players = (
            User.objects.create_user("alice", "alice@example.com"),
            User.objects.create_user("bob", "bob@example.com"),
        )
        figures = {}
        for active in (1_000, 100_000):
            t0 = time.perf_counter()
            fields = fill(active, players)
            print(f"filled {active} games in {time.perf_counter() - t0:.1f} s", flush=True)
            floor, floor_queries, _ = timed_sweep(fields, due_count=0)
            figures[active] = (*timed_sweep(fields), floor, floor_queries)
        print(f"database          {database()}")
        print(f"sweeps            {ROUNDS} per figure, median; floor: the same sweep, none due")
        for active, (seconds, queries, touched, floor, floor_queries) in figures.items():
            print(
                f"{active:>7} active  sweep {seconds * 1e3:7.1f} ms  "
                f"{touched} games timed out  {queries} queries   "
                f"floor {floor * 1e3:6.1f} ms ({floor_queries} queries)   "
                f"ratio {seconds / floor:5.1f}"
            )
        ratio = figures[100_000][0] / figures[1_000][0]
        print(f"sweep at 100,000 / at 1,000 active: {ratio:.2f}")


if __name__ == "__main__":
    main()
