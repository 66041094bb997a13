"""From a move's commit to the "your turn" e-mail in the SMTP server's inbox.

    REDIS_URL=redis://127.0.0.1:6379/14 python bench/email_latency.py [--moves 200]

A real Celery worker (in a thread, solo pool) takes the tasks from the broker the
settings choose (Redis when REDIS_URL is set), renders the e-mail and hands it to a
real SMTP server (aiosmtpd) in this process. Prints median and 99th percentile.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rbank_site.settings_test")
os.environ.setdefault("RBANK_VAR_DIR", str(ROOT / "var" / "bench"))

import django  # noqa: E402

django.setup()

from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import SMTP, Envelope, Session  # noqa: E402
from celery.contrib.testing.worker import start_worker  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from games.engine import from_document  # noqa: E402
from games.models import Game  # noqa: E402
from games.services import play_moves, start_game  # noqa: E402
from rbank_site.celery import app  # noqa: E402


class Arrivals:
    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        with self.changed:
            self.count += 1
            self.changed.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 30) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: self.count >= count, timeout):
                raise TimeoutError(f"e-mail {count} never arrived")


def one_turn(game: Game) -> tuple[Any, list[str], bool]:
    """A turn for the seat to move, and whether it would end the game (no "your turn" then)."""
    position = from_document(game.position)
    start = position.turns
    moves = []
    while position.turns == start and not position.is_over:
        legal = [str(m) for m in position.legal_moves()]
        move = next((m for m in ("C-W", "E", "T") if m in legal), legal[0])
        position.play(move)
        moves.append(move)
    user = game.player_a if game.to_move == "A" else game.player_b
    return user, moves, position.is_over


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    arrivals = Arrivals()
    smtp = Controller(arrivals, hostname="127.0.0.1", port=port)
    smtp.start()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    for key in ("data_folder_in", "processed_folder", "control_folder"):
        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get(key)
        if folder:
            Path(str(folder)).mkdir(parents=True, exist_ok=True)
    setup_test_environment()  # (it installs the locmem e-mail backend: replaced below)
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    latencies = []
    try:
        with start_worker(app, pool="solo", perform_ping_check=False):
            alice = User.objects.create_user("alice", "alice@example.com")
            bob = User.objects.create_user("bob", "bob@example.com")
            game = start_game(alice, bob, seed=11)
            for i in range(args.moves):
                game.refresh_from_db()
                user, moves, ends = one_turn(game)
                if ends:  # a turn that ends the game mails both players: deal a new one
                    game = start_game(alice, bob, seed=100 + i)
                    user, moves, ends = one_turn(game)
                t0 = time.perf_counter()
                play_moves(game_id=game.pk, user=user, moves=moves)  # commits, then dispatches
                arrivals.wait_for(i + 1)
                latencies.append(time.perf_counter() - t0)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        smtp.stop()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"broker        {settings.CELERY_BROKER_URL.split('://')[0]}")
    print(f"database      {connection.vendor}")
    print(f"e-mails       {len(latencies)}")
    print(f"median        {statistics.median(latencies) * 1e3:.1f} ms  (post and commit -> inbox)")
    print(f"99th pct      {p99 * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
