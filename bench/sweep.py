"""The deadline sweep with 1,000 and 100,000 active games, 10 of them due. Prints its figures.

    python bench/sweep.py                    # SQLite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/sweep.py

The sweep reads the indexed deadline column: its cost should follow the number of
due games (10 here), not the number of active ones.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rbank_site.settings_test")
os.environ.setdefault("RBANK_VAR_DIR", str(ROOT / "var" / "bench"))

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.deadlines import sweep  # noqa: E402
from games.models import Game  # noqa: E402
from games.services import start_game  # noqa: E402

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


def timed_sweep(fields: dict[str, object]) -> tuple[float, int, int]:
    times = []
    queries = touched = 0
    for _ in range(ROUNDS):
        due = [Game(**fields) for _ in range(DUE)]
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
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        players = (
            User.objects.create_user("alice", "alice@example.com"),
            User.objects.create_user("bob", "bob@example.com"),
        )
        figures = {}
        for active in (1_000, 100_000):
            t0 = time.perf_counter()
            fields = fill(active, players)
            print(f"filled {active} games in {time.perf_counter() - t0:.1f} s", flush=True)
            figures[active] = timed_sweep(fields)
        print(f"database          {connection.vendor}")
        for active, (seconds, queries, touched) in figures.items():
            print(
                f"{active:>7} active  sweep {seconds * 1e3:7.1f} ms  "
                f"{touched} games timed out  {queries} queries"
            )
        ratio = figures[100_000][0] / figures[1_000][0]
        print(f"ratio 100,000 / 1,000 active: {ratio:.2f}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
