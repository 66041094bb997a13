"""From a reply's arrival at the SMTP receiver to its answer in an SMTP server's inbox.

    python bench/inbound.py [--replies 200]                          # file broker
    REDIS_URL=redis://127.0.0.1:6379/14 python bench/inbound.py       # Redis

Everything is real and on 127.0.0.1: the play-by-mail receiver (``mailplay.smtp``,
aiosmtpd) takes each reply over SMTP and stores it; a real Celery worker (a thread,
solo pool) takes the handling task from the broker the settings choose, plays the
reply through the services, writes the answer into the outbox and, once that is
committed, hands it to an SMTP server (aiosmtpd) in this process.
Alice and bob play by mail: each reply is a whole turn of the player to move
(uniformly random legal moves, worked out on the engine), answering the reply address
of their last e-mail; a game that ends is followed by a new one.

Timed: from the moment the receiver has the reply's DATA to the moment the SMTP
server has the DATA of the answer (the e-mail whose In-Reply-To is the reply). The
floor, alternated with the replies: a bare task through the same broker and worker
that sends a one-line e-mail, from its dispatch to its DATA (a reply is one such hop,
plus its handling). Prints p50 and p99 of both.

Then the bursts (``--bursts``, ``--burst``): that many games at once, each mover's
reply sent at the same moment over a connection of its own, as when many players
answer within a second; timed the same way, from each reply's DATA to its answer's,
on the in-process worker, then (``--processes``, 2 by default) on a worker process of
that many prefork processes, as ``make run`` starts one. The last line reads
``inbound reply p50 X ms, p99 Y ms; burst of N p99 Z ms (solo), W ms (2 processes)``.
"""

from __future__ import annotations

import argparse
import os
import random
import smtplib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/inbound.py
from bench.harness import start_django

start_django()

from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import SMTP, Envelope, Session  # noqa: E402
from allauth.account.models import EmailAddress  # noqa: E402
from celery.contrib.testing.worker import start_worker  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.mail import send_mail  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from accounts.services import update_profile  # noqa: E402
from bench.harness import ROOT, database, median_ms, percentile_ms, test_database  # noqa: E402
from config.celery import app  # noqa: E402
from games.engine import bots  # noqa: E402
from games.models import Game  # noqa: E402
from games.play.dealing import announce, start_game  # noqa: E402
from games.play.store import engine_game  # noqa: E402
from mailplay.smtp import Receiver  # noqa: E402
from tests.service.mailbox import reply  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: The headers alone, as they came: the bench's SMTP server shares the cores it measures,
#: and a whole e-mail read as ``policy.default`` reads it costs some 10 ms.
HEADERS = BytesHeaderParser(policy=policy.compat32)


def header(headers: Message, name: str) -> str:
    """One header's value, unfolded ("" when absent)."""
    return " ".join(str(headers[name] or "").split())


class Inbox:
    """The outgoing SMTP server: when each answer, floor and offer of a turn arrived,
    indexed so that waiting for one costs the worker thread nothing."""

    def __init__(self) -> None:
        self.answers: dict[str, float] = {}  # In-Reply-To -> arrival
        self.floors: list[float] = []
        self.offers: dict[str, bytes] = {}  # "play+<game>.<seat>.<version>." -> e-mail
        self.changed = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        now = time.perf_counter()
        raw = envelope.content if isinstance(envelope.content, bytes) else b""
        headers = HEADERS.parsebytes(raw)
        with self.changed:
            if header(headers, "Subject") == "floor":
                self.floors.append(now)
            if answered := header(headers, "In-Reply-To"):
                self.answers[answered] = now
            if reply_to := header(headers, "Reply-To"):
                self.offers[reply_to.rsplit(".", 1)[0] + "."] = raw
            self.changed.notify_all()
        return "250 OK"

    def wait(self, ready: Callable[[], bool], timeout: float = 60) -> None:
        with self.changed:
            if not self.changed.wait_for(ready, timeout):
                raise TimeoutError("an e-mail never arrived")


class TimedReceiver(Receiver):
    """The receiver, noting when each reply's DATA arrived (by its Message-ID)."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: dict[str, float] = {}

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        now = time.perf_counter()
        raw = envelope.original_content or envelope.content
        assert isinstance(raw, bytes)
        message_id = str(message_from_bytes(raw, policy=policy.default)["Message-ID"]).strip()
        self.arrivals[message_id] = now
        return await super().handle_DATA(server, session, envelope)


@app.task(name="bench.inbound_floor")  # type: ignore[untyped-decorator]
def floor_mail(to: str) -> None:
    send_mail("floor", "a line", settings.DEFAULT_FROM_EMAIL, [to])


def plan_turn(game: Game, rng: random.Random) -> list[str]:
    """A whole turn of random legal moves for the seat to move (the easy computer's)."""
    engine = engine_game(game)
    return [str(m) for m in bots.turn(bots.EASY, engine.position, engine.to_move, rng)]


def new_game(players: tuple[User, User], seed: int) -> Game:
    with transaction.atomic():  # a challenge accepted: dealt, its first mover told
        game = start_game(*players, seed=seed)
        announce(game)
    return game


def offer(inbox: Inbox, game: Game) -> EmailMessage:
    """The e-mail that offers the turn ``game`` is at (waited for: it may be on its way)."""
    game.refresh_from_db()
    address = f"play+{game.pk}.{game.to_move.lower()}.{game.version}."
    inbox.wait(lambda: address in inbox.offers)
    message = message_from_bytes(inbox.offers[address], policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def burst(
    inbox: Inbox,
    timed: TimedReceiver,
    port: int,
    games: list[Game],
    rng: random.Random,
) -> list[float]:
    """Every game's mover replies with a whole turn, all at the same moment, each over a
    connection of its own; the time of each from its DATA to its answer's DATA."""
    replies = []
    for game in games:
        mail = offer(inbox, game)
        raw = reply(mail, " ".join(plan_turn(game, rng)))
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        player = game.user_at(game.letters.index(game.to_move))
        replies.append((player.email, str(mail["Reply-To"]), raw))
    start = threading.Barrier(len(replies))

    def send(sender: str, to: str, raw: bytes) -> str:
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
            client.ehlo()
            start.wait()
            client.sendmail(sender, [to], raw)
        return str(message_from_bytes(raw, policy=policy.default)["Message-ID"]).strip()

    with ThreadPoolExecutor(len(replies)) as pool:
        ids = list(pool.map(lambda r: send(*r), replies))
    inbox.wait(lambda: all(i in inbox.answers for i in ids))
    return [inbox.answers[i] - timed.arrivals[i] for i in ids]


def worker_process(processes: int, smtp_port: int) -> subprocess.Popen[bytes]:
    """A Celery worker as ``make run`` starts one (prefork, ``processes`` of them), on
    this run's test database and broker, sending through the inbox's SMTP server."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings_test",
        RBANK_TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        RBANK_TEST_EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_port),
        CELERY_TASK_ALWAYS_EAGER="0",
        MAIL_RATE_PER_HOUR=str(settings.MAIL_RATE_PER_HOUR),
    )
    command = [sys.executable, "-m", "celery", "-A", "config", "worker"]
    command += ["--concurrency", str(processes), "--without-heartbeat", "--without-gossip"]
    command += ["--without-mingle", "-l", "warning"]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def timed_bursts(
    inbox: Inbox,
    timed: TimedReceiver,
    port: int,
    players: tuple[User, User],
    rng: random.Random,
    args: argparse.Namespace,
    first_seed: int,
) -> tuple[list[float], list[float]]:
    """``args.bursts`` bursts of ``args.burst`` replies on as many games (each a new one
    once it ends): every reply's time, and the slowest of each burst."""
    table = [new_game(players, seed=first_seed + n) for n in range(args.burst)]
    times: list[float] = []
    slowest: list[float] = []
    for _ in range(args.bursts):
        for n, game in enumerate(table):
            game.refresh_from_db()
            if game.status != "playing":
                table[n] = new_game(players, seed=first_seed + 1000 + game.pk)
        these = burst(inbox, timed, port, table, rng)
        times += these
        slowest.append(max(these))
    return times, slowest


def burst_line(name: str, times: list[float], slowest: list[float], size: int) -> str:
    return (
        f"{name:<14}{len(slowest)} bursts of {size} replies sent at once: p50"
        f" {median_ms(times):.0f} ms, p99 {percentile_ms(times, 0.99):.0f} ms; the slowest"
        " of each: " + ", ".join(f"{t * 1e3:.0f}" for t in slowest) + " ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replies", type=int, default=200, help="replies timed one by one")
    parser.add_argument("--burst", type=int, default=20, help="replies sent at once")
    parser.add_argument("--bursts", type=int, default=5, help="bursts timed, per worker")
    parser.add_argument(
        "--processes",
        type=int,
        default=2,
        help="the bursts again on a worker of that many processes, as make run's (0: not)",
    )
    args = parser.parse_args()
    inbox = Inbox()
    outgoing = Controller(inbox, hostname="127.0.0.1", port=free_port())
    receiver_port = free_port()
    timed = TimedReceiver()
    incoming = Controller(
        timed, hostname="127.0.0.1", port=receiver_port, data_size_limit=settings.MAIL_MAX_BYTES
    )
    outgoing.start()
    incoming.start()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    settings.MAIL_RATE_PER_HOUR = 10**6  # two players send many replies an hour here
    for key in ("data_folder_in", "processed_folder", "control_folder"):
        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get(key)
        if folder:
            Path(str(folder)).mkdir(parents=True, exist_ok=True)
    latencies: list[float] = []
    floors: list[float] = []
    solo: tuple[list[float], list[float]] = ([], [])
    pool: tuple[list[float], list[float]] = ([], [])
    games = 0
    try:
        with test_database():
            settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
            settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", outgoing.port
            alice = User.objects.create_user("alice", "alice@example.com")
            bob = User.objects.create_user("bob", "bob@example.com")
            for user in (alice, bob):
                EmailAddress.objects.create(
                    user=user, email=user.email, verified=True, primary=True
                )
                update_profile(user, {"play_by_mail": True})
            rng = random.Random(1)
            with start_worker(app, pool="solo", perform_ping_check=False):
                game = new_game((alice, bob), seed=1)
                games = 1
                with smtplib.SMTP("127.0.0.1", receiver_port, timeout=60) as client:
                    for i in range(args.replies):
                        t0 = time.perf_counter()
                        floor_mail.delay("floor@example.com")
                        inbox.wait(lambda: len(inbox.floors) > i)  # noqa: B023 (waited for)
                        floors.append(inbox.floors[i] - t0)
                        game.refresh_from_db()
                        if game.status != "playing":
                            game = new_game((alice, bob), seed=1 + games)
                            games += 1
                        player = game.user_at(game.letters.index(game.to_move))
                        mail = offer(inbox, game)  # the e-mail that offers this very turn
                        raw = reply(mail, " ".join(plan_turn(game, rng)))
                        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
                        sent = message_from_bytes(raw, policy=policy.default)
                        message_id = str(sent["Message-ID"]).strip()

                        client.sendmail(player.email, [str(mail["Reply-To"])], raw)
                        inbox.wait(lambda: message_id in inbox.answers)  # noqa: B023
                        latencies.append(inbox.answers[message_id] - timed.arrivals[message_id])
                solo = timed_bursts(inbox, timed, receiver_port, (alice, bob), rng, args, 1000)
            if args.processes:
                worker = worker_process(args.processes, outgoing.port)
                try:
                    pool = timed_bursts(
                        inbox, timed, receiver_port, (alice, bob), rng, args, 100_000
                    )
                finally:
                    worker.terminate()
                    worker.wait(timeout=60)
            db = database()
    finally:
        incoming.stop()
        outgoing.stop()
        timed.close()
    broker = settings.CELERY_BROKER_URL.split("://")[0]
    print(f"broker        {broker}; a worker thread (solo pool) in this process, then a worker")
    print(f"              process of {args.processes} (prefork), as make run starts")
    print(f"database      {db}")
    print(
        f"replies       {len(latencies)} whole turns by e-mail in {games} games, floor alternated"
    )
    print("reply         from the receiver's DATA of the reply to the DATA of its answer")
    print("floor         a bare task sending a one-line e-mail, from its dispatch to its DATA")
    med, floor_med = median_ms(latencies), median_ms(floors)
    p99, floor_p99 = percentile_ms(latencies, 0.99), percentile_ms(floors, 0.99)
    print(f"p50           {med:7.1f} ms   floor {floor_med:6.1f} ms   ratio {med / floor_med:.2f}")
    print(f"p99           {p99:7.1f} ms   floor {floor_p99:6.1f} ms")
    print(burst_line("solo", *solo, args.burst))
    last = f"inbound reply p50 {med:.0f} ms, p99 {p99:.0f} ms; burst of {args.burst} p99"
    last += f" {percentile_ms(solo[0], 0.99):.0f} ms (solo)"
    if args.processes:
        print(burst_line(f"{args.processes} processes", *pool, args.burst))
        last += f", {percentile_ms(pool[0], 0.99):.0f} ms ({args.processes} processes)"
    print(last)


if __name__ == "__main__":
    main()
