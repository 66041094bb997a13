"""From a move's commit to its "your turn" e-mail in an SMTP server's inbox.

    python bench/email_latency.py [--moves 200]                       # file broker
    REDIS_URL=redis://127.0.0.1:6379/14 python bench/email_latency.py  # Redis

A real Celery worker (in a thread, solo pool) takes the tasks from the broker the
settings choose, renders the e-mail and hands it to a real SMTP server (aiosmtpd) on
127.0.0.1 in this process. Each turn is played through the service; the clock starts
when the transaction that holds the move and its outbox row commits (an ``on_commit``
hook registered as the row is written, so it runs before the hook that queues the
task) and stops when the SMTP server has the message's DATA.

The floor, alternated with the moves: a bare task through the same broker and worker
that sends a one-line e-mail to the same server, timed from its dispatch to its DATA.
Prints the median and 99th percentile of both, and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/email_latency.py
from bench.harness import start_django

start_django()

from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import SMTP, Envelope, Session  # noqa: E402
from celery.contrib.testing.worker import start_worker  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.mail import send_mail  # noqa: E402
from django.db import transaction  # noqa: E402
from django.db.models.signals import post_save  # noqa: E402

from bench.harness import database, median_ms, percentile_ms, test_database  # noqa: E402
from config.celery import app  # noqa: E402
from games.models import Game, Notification  # noqa: E402
from games.play.dealing import start_game  # noqa: E402
from games.play.services import play_moves  # noqa: E402
from games.play.store import engine_game  # noqa: E402


class Inbox:
    """Counts messages and notes when each one's DATA arrived."""

    def __init__(self) -> None:
        self.arrivals: list[float] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        now = time.perf_counter()
        with self.changed:
            self.arrivals.append(now)
            self.changed.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 30) -> float:
        """When message ``count`` (1-based) arrived."""
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.arrivals) >= count, timeout):
                raise TimeoutError(f"e-mail {count} never arrived")
            return self.arrivals[count - 1]


class CommitClock:
    """The moment each outbox row's transaction commits."""

    def __init__(self) -> None:
        self.commits: list[float] = []
        post_save.connect(self.row_written, sender=Notification)

    def row_written(self, sender: Any, instance: Notification, created: bool, **kw: Any) -> None:
        if created:
            transaction.on_commit(lambda: self.commits.append(time.perf_counter()))


@app.task(name="bench.floor_mail")  # type: ignore[untyped-decorator]
def floor_mail(to: str) -> None:
    send_mail("floor", "a line", settings.DEFAULT_FROM_EMAIL, [to])


def one_turn(game: Game) -> tuple[User, list[str], bool]:
    """A short turn for the seat to move, and whether it would end the game (no "your
    turn" e-mail then)."""
    position = engine_game(game).position.copy()
    start = position.turns
    moves = []
    while position.turns == start and not position.is_over:
        legal = [str(m) for m in position.legal_moves()]
        move = next((m for m in ("C-W", "E", "T") if m in legal), legal[0])
        position.play(move)
        moves.append(move)
    user = game.user_at(game.letters.index(game.to_move))
    return user, moves, position.is_over


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200, help="turns played (one e-mail each)")
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    for key in ("data_folder_in", "processed_folder", "control_folder"):
        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get(key)
        if folder:
            Path(str(folder)).mkdir(parents=True, exist_ok=True)
    clock = CommitClock()
    latencies: list[float] = []
    floors: list[float] = []
    try:
        with test_database(), start_worker(app, pool="solo", perform_ping_check=False):
            # After the test environment: it installs the in-memory e-mail backend.
            settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
            settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
            alice = User.objects.create_user("alice", "alice@example.com")
            bob = User.objects.create_user("bob", "bob@example.com")
            game = start_game(alice, bob, seed=11)
            for i in range(args.moves):
                t0 = time.perf_counter()
                floor_mail.delay("floor@example.com")
                floors.append(inbox.wait_for(2 * i + 1) - t0)
                game.refresh_from_db()
                user, moves, ends = one_turn(game)
                if ends:  # a turn that ends the game mails both players: deal a new one
                    game = start_game(alice, bob, seed=100 + i)
                    user, moves, ends = one_turn(game)
                play_moves(game_id=game.pk, user=user, moves=moves)  # commits, then queues
                latencies.append(inbox.wait_for(2 * i + 2) - clock.commits[-1])
            db = database()
    finally:
        smtp.stop()
    broker = settings.CELERY_BROKER_URL.split("://")[0]
    print(f"broker        {broker}, a worker thread (solo pool) in this process")
    print(f"database      {db}")
    print(f"e-mails       {len(latencies)} 'your turn', {len(floors)} floor, alternated")
    print("your turn     from the commit of the move's transaction to the DATA at the server")
    print("floor         a bare task sending a one-line e-mail, from its dispatch to its DATA")
    med, floor_med = median_ms(latencies), median_ms(floors)
    print(f"median        {med:6.1f} ms   floor {floor_med:6.1f} ms   ratio {med / floor_med:.2f}")
    print(
        f"99th pct      {percentile_ms(latencies, 0.99):6.1f} ms   "
        f"floor {percentile_ms(floors, 0.99):6.1f} ms"
    )


if __name__ == "__main__":
    main()
