"""The web server as the image runs it, and players who load it, for the load bench
(``bench/server.py``) and the load test (``tests/service/test_server_load.py``).

``image_server`` starts the image's own command (``gunicorn --config
python:config.gunicorn_conf config.asgi:application``, docker/Dockerfile) on a
free port of 127.0.0.1, on the database the caller names; ``drive`` has each of its
clients play one game over HTTP for a bounded time (keep-alive connections, as API
clients and browsers hold them) while a sampler reads ``pg_stat_activity`` every
tenth of a second.

A client's round is three requests: the floor (``GET /api/v1/me/``: token, one
profile read, a small JSON body), the game (``GET /api/v1/games/{id}/``: the view of
the seat to move with its legal moves), and one move (``POST .../moves/`` with
``expected_version``: the row lock, the engine, the save, the events, the caller's
view again). Each player's moves are random legal ones, so turns end as often as in a
real random game.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: The image's web command (docker/Dockerfile's CMD).
IMAGE_COMMAND = ("gunicorn", "--config", "python:config.gunicorn_conf")
ASGI_APP = "config.asgi:application"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Server:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def image_server(database: str, *extra: str, **env: str) -> Iterator[Server]:
    """The image's web command on 127.0.0.1 (a free port), serving the test settings on
    ``database`` (the name of a database of ``DATABASE_URL``'s server, or a SQLite
    file); ``extra`` adds gunicorn options, ``env`` settings. Stopped after."""
    port = free_port()
    environ = dict(os.environ)
    environ.update(
        DJANGO_SETTINGS_MODULE="config.settings_test",
        RBANK_TEST_DATABASE_NAME=database,
        PORT=str(port),
        # Tasks are queued on the broker, as in production (no worker takes them here).
        CELERY_TASK_ALWAYS_EAGER="0",
        PYTHONPATH=str(ROOT),
        **env,
    )
    command = [
        *(sys.executable, "-m", *IMAGE_COMMAND),
        *("--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null"),
        *("--log-level", "warning"),
        *extra,
        ASGI_APP if "--worker-class" not in extra else "config.wsgi:application",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=environ)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the web server did not start") from None
                time.sleep(0.2)
        yield Server(port, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass(frozen=True)
class Player:
    """One client's game and the tokens of its two seats (the client plays both)."""

    game_id: int
    tokens: dict[str, str]


@dataclass
class Figures:
    """What the clients saw, and what PostgreSQL held."""

    seconds: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)  # 5xx and broken connections
    connections: list[int] = field(default_factory=list)  # pg_stat_activity samples
    retry_after: set[str] = field(default_factory=set)  # the Retry-After of each 503
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def requests(self) -> int:
        """The requests timed (those sent after the warm-up)."""
        return sum(len(times) for times in self.times.values())

    @property
    def server_errors(self) -> int:
        """5xx answers, the warm-up's included."""
        return sum(count for status, count in self.statuses.items() if status >= 500)

    def median_ms(self, kind: str) -> float:
        return statistics.median(self.times[kind]) * 1e3

    def percentile_ms(self, kind: str, fraction: float) -> float:
        ordered = sorted(self.times[kind])
        return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] * 1e3


class _Client(threading.Thread):
    """A player's client: rounds of the floor, the game and a move until ``until``,
    timed from ``since``."""

    def __init__(
        self, server: Server, player: Player, since: float, until: float, figures: Figures
    ) -> None:
        super().__init__(daemon=True)
        self.server, self.player, self.figures = server, player, figures
        self.since, self.until = since, until
        self.rng = random.Random(player.game_id)
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)

    def request(self, kind: str, method: str, path: str, seat: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Token {self.player.tokens[seat]}"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        warming_up = time.monotonic() < self.since
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()  # reconnects on the next request
            with self.figures.lock:
                self.figures.failures.append(f"{kind}: {exc!r}")
            return None
        elapsed = time.perf_counter() - started
        with self.figures.lock:
            if not warming_up:  # a request sent while warming up is not timed
                self.figures.times.setdefault(kind, []).append(elapsed)
            self.figures.statuses[response.status] = (
                self.figures.statuses.get(response.status, 0) + 1
            )
            if response.status >= 500:  # counted from the first request
                self.figures.failures.append(f"{kind}: {response.status} {data[:200]!r}")
                if response.status == 503:
                    self.figures.retry_after.add(response.getheader("Retry-After", ""))
        if response.status >= 500:
            return None
        return json.loads(data) if data else None

    def run(self) -> None:
        game = f"/api/v1/games/{self.player.game_id}/"
        seat = "A"
        while time.monotonic() < self.until:
            self.request("floor", "GET", "/api/v1/me/", seat)
            view = self.request("game", "GET", game, seat)
            if not view or view.get("status") != "playing":
                break
            if not view["your_turn"]:
                seat = view["to_move"]
                continue
            move = self.rng.choice(view["legal_moves"])
            body = {"moves": [move], "expected_version": view["version"]}
            self.request("move", "POST", f"{game}moves/", seat, body)
        self.conn.close()


def _admin_connection() -> Any:
    """A connection of its own to the server's ``postgres`` database (autocommit)."""
    import psycopg
    from django.conf import settings

    config = settings.DATABASES["default"]
    return psycopg.connect(
        host=config["HOST"] or "127.0.0.1",
        port=int(config["PORT"] or 5432),
        user=config["USER"],
        password=config["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


def connections_to(database: str, conn: Any = None) -> int:
    """How many clients PostgreSQL holds connected to ``database`` (pg_stat_activity's
    client backends: its own workers, autovacuum's say, are not counted)."""
    if conn is None:
        with _admin_connection() as own:
            return connections_to(database, own)
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = %s AND backend_type = 'client backend'",
        (database,),
    ).fetchone()
    return int(row[0]) if row else 0


def _count_connections(database: str, until: threading.Event, samples: list[int]) -> None:
    """Every 0.1 s, the connections PostgreSQL holds to ``database``."""
    with _admin_connection() as conn:
        while not until.is_set():
            samples.append(connections_to(database, conn))
            until.wait(0.1)


def drive(
    server: Server, players: list[Player], seconds: float, database: str, warm_up: float = 2
) -> Figures:
    """Every player's client plays for ``warm_up`` + ``seconds`` at once, the first
    ``warm_up`` seconds untimed (each worker's first requests load what it lazily
    imports); the connections to ``database`` are sampled throughout when it is
    PostgreSQL's."""
    from django.db import connection

    figures = Figures()
    done = threading.Event()
    sampler = None
    if connection.vendor == "postgresql":
        sampler = threading.Thread(
            target=_count_connections, args=(database, done, figures.connections), daemon=True
        )
        sampler.start()
    since = time.monotonic() + warm_up
    until = since + seconds
    clients = [_Client(server, player, since, until, figures) for player in players]
    for client in clients:
        client.start()
    for client in clients:
        client.join(warm_up + seconds + 120)
    figures.seconds = time.monotonic() - since
    time.sleep(0.3)  # a last sample after the load
    done.set()
    if sampler is not None:
        sampler.join(5)
    return figures


def make_players(count: int) -> list[Player]:
    """``count`` games, each between two new players with a token each (in the
    database the caller has open)."""
    from django.contrib.auth.models import User

    from accounts.models import ApiToken
    from games.play.dealing import start_game

    players = []
    for i in range(count):
        a = User.objects.create_user(f"load-a{i}", f"a{i}@example.com", "x")
        b = User.objects.create_user(f"load-b{i}", f"b{i}@example.com", "x")
        game = start_game(a, b, seed=1000 + i)
        players.append(
            Player(
                game.pk,
                {"A": ApiToken.issue(a, "load")[1], "B": ApiToken.issue(b, "load")[1]},
            )
        )
    return players
