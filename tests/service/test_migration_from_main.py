"""A database as the service stored it before the games were split into rooms and the
outboxes became one (``tests/data/main_db/make.py`` made it, with games in play and
over, messages, a challenge, and each outbox's rows in every state) migrates to the
code as it stands: no row is lost, each keeps its state, every game replays and the
game in play goes on."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "main_db"


def test_a_database_made_by_main_migrates_and_loses_nothing(tmp_path: Path) -> None:
    database = tmp_path / "main.sqlite3"
    with gzip.open(DATA / "main.sqlite3.gz", "rb") as packed, open(database, "wb") as raw:
        shutil.copyfileobj(packed, raw)
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    done = subprocess.run(
        [sys.executable, str(DATA / "check.py"), str(database)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    expected = json.loads((DATA / "expected.json").read_text())
    for table, before in expected.items():
        assert counts[table] == before, table
