"""The cluster under a community of players, through nginx: what holds, and the figures.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank_load \\
    REDIS_URL=redis://127.0.0.1:6379/2 python bench/cluster_load.py --players 400

Seeds a fresh test database (with ``--template rbank_big_1m``, a copy of the
1,000,000 finished and 100,000 active games ``bench/big_database.py`` keeps) with
``--players`` players in games of two, then starts the cluster as ``make cluster``
does (config/cluster.py: ``--web`` uvicorn processes behind nginx, ``--workers`` Celery
workers on the queues of each kind, one beat, the mail receiver), with every e-mail
sent to an SMTP server in this process. Everything is on 127.0.0.1 (ports from
``--port``), bounded in count and time. Five parts, each timed by its client from send
to the whole answer read:

1. The floor and the move, ``--clients`` clients at once for ``--figure-seconds`` each:
   first floor pairs (two ``GET /api/v1/me/``: token, one profile read, a small body),
   then moves (``POST .../moves/``, a random legal move of the seat to move, the next
   chosen from the answer's view; a ``GET`` of the game when the turn passes to the other
   seat, which the client also plays). Prints each one's median, the move's as a ratio to
   the floor's, and moves a second as a ratio to floor pairs a second.
2. The community, ``--seconds``: every player holds an event stream (NDJSON) and polls
   its game every ``--poll`` seconds (±50 %); on its turn it plays the turn a move a
   POST, each with an Idempotency-Key, one in twenty sent twice (the second answer must
   be the first's); one poll in ten writes a message. Checked after: no 5xx, each game
   moved on by exactly the moves answered 200 (a repeated key applied once), every event
   the database holds for a player since the streams opened reached that player's
   stream, and every e-mail the outbox marks sent arrived once (no Message-ID twice).
3. A burst of e-mail replies: ``--burst`` players who play by mail reply with a whole
   turn at the same moment, each over an SMTP connection of its own, to the cluster's
   receiver; timed from the end of each reply's SMTP DATA to its answer's arrival here.
4. A tournament round starting: ``--tournament`` players entered in a Swiss, each
   holding an event stream; its maker starts it through the proxy (``POST
   .../competitions/{id}/start/``), which deals every game of the first round in that
   request. Timed: the start request, and for each player, from the start's send to
   the ``game_started`` event of their game on their stream. Checked: every player has
   exactly one game of the round, each event came once, no 5xx, and every e-mail of
   the start arrived once.
5. Throughput as web processes are added (``--scale``, e.g. 1,2,4): ``--clients`` * 2
   clients making moves for ``--figure-seconds`` on a cluster of each size.

The clients and the cluster share this machine's cores (and, here, other people's
work): compare the ratios, and the scaling only up to the machine's core count. The
last line reads ``cluster: ...``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import signal
import smtplib
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/cluster_load.py
from bench.harness import start_django

os.environ.setdefault("RBANK_TEST_EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
os.environ.setdefault("MAIL_RATE_PER_HOUR", "1000000")
start_django()

import aiohttp  # noqa: E402
from aiosmtpd.controller import Controller  # noqa: E402
from allauth.account.models import EmailAddress  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402

from accounts.models import ApiToken  # noqa: E402
from accounts.services import update_profile  # noqa: E402
from bench.harness import ROOT, database, median_ms, percentile_ms, test_database  # noqa: E402
from bench.inbound import HEADERS, Inbox, header, new_game, offer, plan_turn  # noqa: E402
from competitions.models import Competition  # noqa: E402
from competitions.services.entering import Terms, create_competition, enter  # noqa: E402
from games.models import Event, Game, Notification  # noqa: E402
from tests.service.mailbox import reply  # noqa: E402


class CountingInbox(Inbox):
    """The SMTP server every e-mail of the cluster goes to: also each one's Message-ID
    and recipient."""

    def __init__(self) -> None:
        super().__init__()
        self.message_ids: list[str] = []
        self.recipients: list[str] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.content if isinstance(envelope.content, bytes) else b""
        headers = HEADERS.parsebytes(raw)
        with self.changed:
            self.message_ids.append(header(headers, "Message-ID"))
            self.recipients.append(",".join(envelope.rcpt_tos))
        return await super().handle_DATA(server, session, envelope)


@dataclass(frozen=True)
class Seat:
    game_id: int
    user_id: int
    token: str


@dataclass
class Running:
    proxy: int
    process: subprocess.Popen[bytes]


@contextmanager
def cluster(args: argparse.Namespace, web: int, var: Path, smtp_port: int) -> Iterator[Running]:
    """``make cluster`` (config/cluster.py) on this run's database, stopped after."""
    proxy = args.port
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings_test",
        RBANK_TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        RBANK_VAR_DIR=str(var),
        RBANK_TEST_CACHE=f"bench-cluster-{os.getpid()}-",
        TASK_QUEUE_PREFIX=f"bench-cluster-{os.getpid()}-",
        CLUSTER_SETUP="0",
        WEB=str(web),
        WORKERS=str(args.workers),
        PORT=str(proxy),
        WEB_PORT=str(proxy + 1),
        MAIL_RECEIVER_PORT=str(proxy + 90),
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_port),
        LOG_LEVEL="WARNING",
        # As in production; --debug as make cluster's default (make run's), DEBUG on.
        DEBUG="1" if args.debug else "0",
    )
    # Kept after the run (var/bench/), for what went wrong.
    path = ROOT / "var" / "bench" / f"cluster-{web}.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    log = path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "config.cluster"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while b"The cluster is running" not in path.read_bytes():
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"the cluster did not start: see {path}")
            time.sleep(0.5)
        yield Running(proxy, process)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def seed(count: int, prefix: str) -> list[tuple[Seat, Seat]]:
    """``count`` games between new players, each with a token."""
    pairs = []
    for i in range(count):
        a = User.objects.create_user(f"{prefix}a{i}", f"{prefix}a{i}@example.com", "x")
        b = User.objects.create_user(f"{prefix}b{i}", f"{prefix}b{i}@example.com", "x")
        game = new_game((a, b), seed=5000 + i)
        pairs.append(
            (
                Seat(game.pk, a.pk, ApiToken.issue(a, "load")[1]),
                Seat(game.pk, b.pk, ApiToken.issue(b, "load")[1]),
            )
        )
    return pairs


# 1 and 4: threads over keep-alive connections, as bench/load.py's clients.


class Client(threading.Thread):
    def __init__(self, port: int, kind: str, pair: tuple[Seat, Seat], until: float) -> None:
        super().__init__(daemon=True)
        self.kind, self.pair, self.until = kind, pair, until
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.times: list[float] = []
        self.done = 0  # floor pairs, or moves
        self.errors: list[str] = []
        self.rng = random.Random(pair[0].game_id)

    def call(self, method: str, path: str, seat: Seat, body: Any = None) -> Any:
        headers = {"Authorization": f"Token {seat.token}", "Content-Type": "application/json"}
        started = time.perf_counter()
        self.conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = self.conn.getresponse()
        data = response.read()
        self.times.append(time.perf_counter() - started)
        if response.status != 200:
            self.errors.append(f"{method} {path}: {response.status} {data[:120]!r}")
            return None
        return json.loads(data)

    def run(self) -> None:
        game = f"/api/v1/games/{self.pair[0].game_id}/"
        view: Any = None
        mover = self.pair[0]
        try:
            while time.monotonic() < self.until and len(self.errors) < 5:
                if self.kind == "floor":
                    self.call("GET", "/api/v1/me/", self.pair[0])
                    self.call("GET", "/api/v1/me/", self.pair[0])
                    self.done += 1
                    continue
                if view is None or not view["your_turn"]:
                    view = None
                    for seat in self.pair:  # which seat is to move (an untimed look)
                        timed = len(self.times)
                        look = self.call("GET", game, seat)
                        del self.times[timed:]
                        if look is None or look["status"] != "playing":
                            return
                        if look["your_turn"]:
                            view, mover = look, seat
                            break
                    if view is None:
                        return
                body = {"moves": [self.rng.choice(view["legal_moves"])]}
                body["expected_version"] = view["version"]
                view = self.call("POST", f"{game}moves/", mover, body)
                self.done += 1
        except (OSError, http.client.HTTPException) as exc:
            self.errors.append(repr(exc))
        finally:
            self.conn.close()


def run_clients(
    port: int, kind: str, pairs: list[tuple[Seat, Seat]], seconds: float
) -> tuple[float, list[float], list[str]]:
    """``kind`` by one client per pair for ``seconds`` after a second's warm-up: how many
    a second, every request's time, the errors."""
    warm = time.monotonic() + 1
    clients = [Client(port, kind, pair, warm) for pair in pairs]
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    until = time.monotonic() + seconds
    clients = [Client(port, kind, pair, until) for pair in pairs]
    start = time.monotonic()
    for client in clients:
        client.start()
    for client in clients:
        client.join(seconds + 120)
    elapsed = time.monotonic() - start
    times = [t for client in clients for t in client.times]
    errors = [e for client in clients for e in client.errors]
    return sum(client.done for client in clients) / elapsed, times, errors


# 2: the community, on asyncio.


@dataclass
class Community:
    times: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)
    broken: list[str] = field(default_factory=list)
    applied: dict[int, int] = field(default_factory=dict)  # game -> moves answered 200
    repeats_differing: int = 0
    received: dict[int, set[int]] = field(default_factory=dict)  # user -> event ids
    streams_open: int = 0


async def player(
    session: aiohttp.ClientSession, base: str, seat: Seat, c: Community, until: float, poll: float
) -> None:
    headers = {"Authorization": f"Token {seat.token}"}
    game = f"{base}/api/v1/games/{seat.game_id}/"
    rng = random.Random(seat.user_id)

    last = {"status": 0}  # of the player's last request

    async def call(kind: str, method: str, url: str, body: Any = None, key: str = "") -> Any:
        sent = dict(headers, **({"Idempotency-Key": key} if key else {}))
        last["status"] = 0
        started = time.perf_counter()
        try:
            async with session.request(method, url, json=body, headers=sent) as response:
                data = await response.read()
        except (TimeoutError, aiohttp.ClientError) as exc:
            c.broken.append(f"{kind}: {exc!r}")
            return None
        c.times.setdefault(kind, []).append(time.perf_counter() - started)
        last["status"] = response.status
        c.statuses[response.status] = c.statuses.get(response.status, 0) + 1
        if response.status >= 500:
            c.broken.append(f"{kind}: {response.status} {data[:120]!r}")
        return json.loads(data) if response.status in (200, 201) and data else None

    def wait(seconds: float) -> Any:  # never past the end of the run
        return asyncio.sleep(max(0.0, min(seconds, until - time.monotonic())))

    await wait(rng.uniform(0, poll))
    while time.monotonic() < until:
        view = await call("poll", "GET", game)
        while (
            view and view["your_turn"] and view["status"] == "playing" and time.monotonic() < until
        ):
            key = uuid.uuid4().hex
            body = {"moves": [rng.choice(view["legal_moves"])], "expected_version": view["version"]}
            answer = await call("move", "POST", f"{game}moves/", body, key)
            if answer is None:
                break
            c.applied[seat.game_id] = c.applied.get(seat.game_id, 0) + 1
            if rng.random() < 0.05:  # the client's retry of the same request
                again = await call("move", "POST", f"{game}moves/", body, key)
                # A retry the cluster was too busy to take (5xx) or lost (broken) is counted
                # there, and the games' plies say whether it applied: any other answer
                # must be the first's.
                if (again is None and 0 < last["status"] < 500) or (
                    again is not None and again["version"] != answer["version"]
                ):
                    c.repeats_differing += 1
            view = answer
        if rng.random() < 0.1:
            await call("message", "POST", f"{game}messages/", {"text": "good luck"})
        await wait(poll * rng.uniform(0.5, 1.5))


async def stream(session: aiohttp.ClientSession, base: str, seat: Seat, c: Community) -> None:
    """Read the player's stream until cancelled (a line at a time, with no timer of its
    own: the clients share the cores they measure)."""
    headers = {"Authorization": f"Token {seat.token}", "Accept": "application/x-ndjson"}
    seen = c.received.setdefault(seat.user_id, set())
    try:
        async with session.get(f"{base}/api/v1/stream/events/", headers=headers) as response:
            if response.status != 200:
                c.broken.append(f"stream: {response.status}")
                return
            c.streams_open += 1
            while line := await response.content.readline():
                if line.strip():
                    seen.add(json.loads(line)["id"])
            c.broken.append("stream: ended")
    except aiohttp.ClientError as exc:
        c.broken.append(f"stream: {exc!r}")


async def community(
    port: int, seats: list[Seat], seconds: float, poll: float
) -> tuple[Community, int, float]:
    """Every seat's player for ``seconds``: the figures, the last event id before the
    streams were all open, and the seconds the load ran."""
    c = Community()
    base = f"http://127.0.0.1:{port}"
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None, sock_connect=30)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        streams = [asyncio.create_task(stream(session, base, s, c)) for s in seats]
        deadline = time.monotonic() + 60
        while c.streams_open + len(c.broken) < len(seats) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(1)  # what committed before now may not come live (known ids)
        since = await asyncio.to_thread(last_event_id)
        started = time.monotonic()
        until = started + seconds
        await asyncio.gather(*(player(session, base, s, c, until, poll) for s in seats))
        elapsed = time.monotonic() - started
        await asyncio.sleep(3)  # the last events on their way
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    return c, since, elapsed


def games_held() -> str:
    """How many games the database holds, finished and in play (the load's own included)."""
    playing = Game.objects.filter(status=Game.Status.PLAYING).count()
    return f"{Game.objects.count() - playing:,} finished and {playing:,} active games"


def last_event_id() -> int:
    """(In a thread of its own, whose connection it closes.)"""
    try:
        return Event.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    finally:
        connection.close()


def lost_events(c: Community, seats: list[Seat], since: int) -> int:
    lost = 0
    for seat in seats:
        stored = set(
            Event.objects.filter(user_id=seat.user_id, pk__gt=since).values_list("pk", flat=True)
        )
        lost += len(stored - c.received.get(seat.user_id, set()))
    return lost


def moves_not_once(c: Community, before: dict[int, int]) -> int:
    games = Game.objects.filter(pk__in=before).values_list("pk", "ply")
    return sum(1 for pk, ply in games if ply - before[pk] != c.applied.get(pk, 0))


# 3: the burst of e-mail replies.


def mail_burst(inbox: CountingInbox, port: int, games: list[Game]) -> list[float]:
    if not games:  # --burst 0
        return []
    rng = random.Random(7)
    replies = []
    for game in games:
        mail = offer(inbox, game)
        raw = reply(mail, " ".join(plan_turn(game, rng)))
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        player = game.user_at(game.letters.index(game.to_move))
        replies.append((player.email, str(mail["Reply-To"]), raw))
    start = threading.Barrier(len(replies))
    sent: dict[str, float] = {}

    def send(sender: str, to: str, raw: bytes) -> None:
        message_id = str(message_from_bytes(raw, policy=policy.default)["Message-ID"]).strip()
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as client:
            client.ehlo()
            start.wait()
            client.sendmail(sender, [to], raw)
            sent[message_id] = time.perf_counter()

    with ThreadPoolExecutor(len(replies)) as pool:
        list(pool.map(lambda r: send(*r), replies))
    inbox.wait(lambda: all(i in inbox.answers for i in sent), timeout=120)
    return [inbox.answers[i] - at for i, at in sent.items()]


def cpu_seconds(var: Path) -> dict[str, float]:
    """The CPU time so far of each part of the cluster (its process group: a worker's
    pool processes with it), of PostgreSQL's processes and of this process, by name."""
    names = {
        int(path.read_text()): path.stem
        for path in (var / "cluster").glob("*.pid")
        if path.stem != "nginx"  # nginx's own pid file: the proxy's
    }
    tick = os.sysconf("SC_CLK_TCK")
    used: dict[str, float] = {}
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue  # not a process, or one that has just ended
        name = names.get(int(fields[2]))  # its process group's
        if name is None and command.startswith(b"postgres"):
            name = "postgres"
        if name is None and entry.name == str(os.getpid()):
            name = "bench"
        if name is not None:
            used[name] = used.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return used


def cpu_line(used: dict[str, float], seconds: float = 0.0) -> str:
    """The CPU each part used; with ``seconds``, as a share of the machine's cores."""
    line = "  CPU seconds   " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(used.items()) if v)
    line += f"; in all {sum(used.values()):.1f} on {os.cpu_count()} cores"
    if seconds:
        line += f" in {seconds:.0f} s ({sum(used.values()) / seconds / (os.cpu_count() or 1):.0%})"
    return line


# 4: a tournament round starting.


@dataclass
class RoundStart:
    status: int = 0
    request: float = 0.0  # the start request's time
    dealt: dict[int, list[float]] = field(default_factory=dict)  # user -> game_started times
    broken: list[str] = field(default_factory=list)


def tournament(players: int) -> tuple[int, Seat, list[Seat]]:
    """A Swiss of ``players`` new players, all entered: its id, its maker's seat and
    every player's (game 0: none yet)."""
    users = [User.objects.create_user(f"t{i}", f"t{i}@example.com", "x") for i in range(players)]
    # One place more than players: a full competition would start at the last entry.
    terms = Terms(name="The load cup", max_players=players + 1, min_players=2, rounds=3)
    competition = create_competition(users[0], terms)
    for user in users:
        enter(competition.pk, user)
    seats = [Seat(0, user.pk, ApiToken.issue(user, "load")[1]) for user in users]
    return competition.pk, seats[0], seats


async def round_start(port: int, competition_id: int, maker: Seat, seats: list[Seat]) -> RoundStart:
    """Every player's stream open, then the maker starts the competition; each player's
    ``game_started`` waited for (60 s at most)."""
    r = RoundStart()
    base = f"http://127.0.0.1:{port}"
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None, sock_connect=30)
    opened: set[int] = set()
    sent_at = [0.0]

    async def listen(session: aiohttp.ClientSession, seat: Seat) -> None:
        headers = {"Authorization": f"Token {seat.token}", "Accept": "application/x-ndjson"}
        try:
            async with session.get(f"{base}/api/v1/stream/events/", headers=headers) as response:
                if response.status != 200:
                    r.broken.append(f"stream: {response.status}")
                    return
                opened.add(seat.user_id)
                while True:
                    line = await response.content.readline()
                    if not line:
                        return
                    if line.strip() and json.loads(line)["kind"] == "game_started":
                        got = time.perf_counter() - sent_at[0]
                        r.dealt.setdefault(seat.user_id, []).append(got)
        except aiohttp.ClientError as exc:
            r.broken.append(f"stream: {exc!r}")

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        streams = [asyncio.create_task(listen(session, seat)) for seat in seats]
        deadline = time.monotonic() + 60
        while len(opened) + len(r.broken) < len(seats) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        headers = {"Authorization": f"Token {maker.token}"}
        sent_at[0] = time.perf_counter()
        url = f"{base}/api/v1/competitions/{competition_id}/start/"
        async with session.post(url, headers=headers) as response:
            await response.read()
            r.status, r.request = response.status, time.perf_counter() - sent_at[0]
        deadline = time.monotonic() + 60
        while len(r.dealt) < len(seats) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)  # an event sent twice would come now
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    return r


def games_of_the_round(competition_id: int, seats: list[Seat]) -> int:
    """How many players have other than exactly one game in the competition's round."""
    competition = Competition.objects.get(pk=competition_id)
    games = Game.objects.filter(pairing__round__competition=competition)
    count: dict[int, int] = {}
    for user_id in games.values_list("seats__user_id", flat=True):
        count[user_id] = count.get(user_id, 0) + 1
    return sum(1 for seat in seats if count.get(seat.user_id, 0) != 1)


def mail_to(inbox: CountingInbox, addresses: list[str]) -> tuple[int, list[str]]:
    """The e-mails to ``addresses`` the outbox marks sent, and the Message-IDs of those
    that arrived."""
    sent = Notification.objects.filter(status="sent", email__in=addresses).count()
    wanted = set(addresses)
    with inbox.changed:
        pairs = list(zip(inbox.message_ids, inbox.recipients, strict=True))
    return sent, [mid for mid, to in pairs if to in wanted]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=400, help="players of the community")
    parser.add_argument("--seconds", type=float, default=30, help="the community's run")
    parser.add_argument("--poll", type=float, default=5, help="seconds between a player's polls")
    parser.add_argument("--web", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--figure-seconds", type=float, default=10)
    parser.add_argument("--burst", type=int, default=100)
    parser.add_argument("--tournament", type=int, default=200, help="players of the round start")
    parser.add_argument("--scale", default="1,2,4", help="web processes to compare ('': none)")
    parser.add_argument("--port", type=int, default=9100, help="nginx's; the web's follow it")
    parser.add_argument("--debug", action="store_true", help="the cluster with DEBUG on")
    parser.add_argument(
        "--template",
        default="",
        help="run on a copy of this PostgreSQL database (rbank_big_1m: bench/big_database.py's)",
    )
    args = parser.parse_args()
    inbox = CountingInbox()
    sink = Controller(inbox, hostname="127.0.0.1", port=args.port + 95)
    sink.start()
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", sink.port
    lines: list[str] = []
    try:
        with test_database(args.template), tempfile.TemporaryDirectory() as folder:
            var = Path(folder)
            # (The test environment has put its own in memory.)
            settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
            pairs = seed(args.players // 2, "p")
            figure_pairs = seed(args.clients * 2, "f")
            mailers = []
            for i in range(args.burst):
                a = User.objects.create_user(f"m{i}a", f"m{i}a@example.com")
                b = User.objects.create_user(f"m{i}b", f"m{i}b@example.com")
                for user in (a, b):
                    EmailAddress.objects.create(
                        user=user, email=user.email, verified=True, primary=True
                    )
                    update_profile(user, {"play_by_mail": True})
                mailers.append(new_game((a, b), seed=9000 + i))
            seats = [seat for pair in pairs for seat in pair]
            cup, maker, entrants = tournament(args.tournament)
            plies = dict(
                Game.objects.filter(pk__in={s.game_id for s in seats}).values_list("pk", "ply")
            )
            with cluster(args, args.web, var, sink.port) as running:
                pairs_per_s, floor_times, floor_errors = run_clients(
                    running.proxy, "floor", figure_pairs[: args.clients], args.figure_seconds
                )
                moves_per_s, move_times, move_errors = run_clients(
                    running.proxy, "move", figure_pairs[: args.clients], args.figure_seconds
                )
                sent_before = Notification.objects.filter(status="sent").count()
                received_before = len(inbox.message_ids)
                cpu_before, wall = cpu_seconds(var), time.monotonic()
                c, since, elapsed = asyncio.run(
                    community(running.proxy, seats, args.seconds, args.poll)
                )
                wall = time.monotonic() - wall  # the streams' opening and closing too
                community_cpu = {k: v - cpu_before.get(k, 0.0) for k, v in cpu_seconds(var).items()}
                time.sleep(5)  # the last e-mails on their way
                connection.close()
                lost = lost_events(c, seats, since)
                not_once = moves_not_once(c, plies)
                sent = Notification.objects.filter(status="sent").count() - sent_before
                arrived = inbox.message_ids[received_before:]
                cpu_before = cpu_seconds(var)
                burst = mail_burst(inbox, args.port + 90, mailers)
                time.sleep(2)  # the opponents' e-mails of the burst on their way
                burst_cpu = {k: v - cpu_before.get(k, 0.0) for k, v in cpu_seconds(var).items()}
                started = asyncio.run(round_start(running.proxy, cup, maker, entrants))
                time.sleep(5)  # the e-mails of the start on their way
                connection.close()
                not_one_game = games_of_the_round(cup, entrants)
                cup_sent, cup_arrived = mail_to(
                    inbox, [f"t{i}@example.com" for i in range(args.tournament)]
                )
            floor, move = median_ms(floor_times), median_ms(move_times)
            requests = sum(len(t) for t in c.times.values())
            server_errors = sum(n for status, n in c.statuses.items() if status >= 500)
            twice = len(arrived) - len(set(arrived))
            p99 = percentile_ms
            lines += [
                f"database        {database()}; Redis: {'yes' if settings.REDIS_URL else 'no'}; "
                f"{games_held()}",
                f"cluster         {args.web} web processes behind nginx, {args.workers} workers, "
                f"one beat; {os.cpu_count()} cores shared with the clients and other work",
                f"floor           median {floor:6.1f} ms  p99 {p99(floor_times, 0.99):6.1f} ms  "
                f"{pairs_per_s:6.1f} pairs/s  ({args.clients} clients, {len(floor_errors)} errors)",
                f"move            median {move:6.1f} ms  p99 {p99(move_times, 0.99):6.1f} ms  "
                f"{moves_per_s:6.1f} moves/s  ({args.clients} clients, {len(move_errors)} errors)",
                f"ratios          move / floor {move / floor:4.2f} (goal <= 1.5);  "
                f"moves/s / floor pairs/s {moves_per_s / pairs_per_s:4.2f} (goal >= 0.8)",
                f"community       {len(seats)} players, {c.streams_open} streams, {elapsed:.0f} s: "
                f"{requests} requests ({requests / elapsed:.0f}/s), "
                f"{sum(c.applied.values())} moves, statuses {dict(sorted(c.statuses.items()))}",
            ]
            lines.append(cpu_line(community_cpu, wall))
            for kind in ("poll", "move", "message"):
                if kind in c.times:
                    lines.append(
                        f"  {kind:<13} median {median_ms(c.times[kind]):6.1f} ms  "
                        f"p99 {p99(c.times[kind], 0.99):6.1f} ms  (n={len(c.times[kind])})"
                    )
            lines += [
                f"checks          5xx {server_errors}, broken {len(c.broken)}, games off by a "
                f"move {not_once}, repeated keys answered differently {c.repeats_differing}, "
                f"events lost {lost}, e-mails sent {sent} arrived {len(arrived)} (twice {twice})",
                *(
                    [
                        f"e-mail burst    {len(burst)} replies at once: p50 "
                        f"{median_ms(burst):.0f} ms, p99 {p99(burst, 0.99):.0f} ms (goal <= 2000)",
                        cpu_line(burst_cpu),
                    ]
                    if burst
                    else []
                ),
            ]
            dealt = [times[0] for times in started.dealt.values()] or [float("nan")]
            dealt_twice = sum(1 for times in started.dealt.values() if len(times) > 1)
            cup_twice = len(cup_arrived) - len(set(cup_arrived))
            lines += [
                f"round start     {len(entrants)} players, {len(entrants) // 2} games dealt in "
                f"one request: start {started.status} in {started.request * 1000:.0f} ms; "
                f"game_started on {len(started.dealt)} streams: p50 {median_ms(dealt):.0f} ms, "
                f"p99 {p99(dealt, 0.99):.0f} ms",
                f"  checks        players without exactly one game {not_one_game}, events twice "
                f"{dealt_twice}, e-mails sent {cup_sent} arrived {len(cup_arrived)} "
                f"(twice {cup_twice}), broken {len(started.broken)}",
                *(f"  {failure}" for failure in (c.broken + started.broken)[:5]),
            ]
            print("\n".join(lines), flush=True)
            scaled = []
            for web in [int(n) for n in args.scale.split(",") if n.strip()]:
                clients = figure_pairs[: args.clients * 2]
                with cluster(args, web, var, sink.port) as running:
                    rate, _times, errors = run_clients(
                        running.proxy, "move", clients, args.figure_seconds
                    )
                scaled.append((web, rate))
                print(
                    f"scale           {web} web: {rate:6.1f} moves/s "
                    f"({len(clients)} clients, {len(errors)} errors)",
                    flush=True,
                )
            if scaled:
                base = scaled[0][1]
                print("scale           " + ", ".join(f"{w} web {r / base:.2f}x" for w, r in scaled))
            ok = server_errors == 0 and not c.broken and not not_once and not lost
            ok = ok and sent == len(arrived) and not twice and not c.repeats_differing
            ok = ok and started.status == 200 and len(started.dealt) == len(entrants)
            ok = ok and not dealt_twice
            ok = ok and not not_one_game and cup_sent == len(cup_arrived) and not cup_twice
            ok = ok and not started.broken
            print(
                f"cluster: {'OK' if ok else 'FAILED'}; move/floor {move / floor:.2f}x, "
                f"moves/s vs floor pairs/s {moves_per_s / pairs_per_s:.2f}x; {len(seats)} players "
                f"{requests / elapsed:.0f} req/s, 5xx {server_errors}, events lost {lost}"
                + (f"; e-mail burst of {len(burst)} p99 {p99(burst, 0.99):.0f} ms" if burst else "")
                + f"; round start of {len(entrants)} p99 {p99(dealt, 0.99):.0f} ms"
                + "".join(f"; {w} web {r:.1f} moves/s" for w, r in scaled)
            )
    finally:
        sink.stop()


if __name__ == "__main__":
    main()
