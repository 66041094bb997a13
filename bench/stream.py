"""The event stream under load: 1,000 idle streams held open against one web process,
and the time from a move's commit to its event at a client.

    python bench/stream.py [--streams 1000] [--moves 200]
    REDIS_URL=redis://127.0.0.1:6379/14 python bench/stream.py       # with Redis pub/sub

One web process, as production runs each of its workers: uvicorn on
``config.asgi`` (uvloop, httptools), on a throwaway test database, on 127.0.0.1.
This process holds the streams (asyncio sockets, one account and API token each) and
plays the moves through the services, as the worker's computer players or the deadline
sweep do from their own process: an event reaches the web through Redis when
``REDIS_URL`` is set, else through its read of the events table every
``STREAM_POLL_SECONDS``.

Reported:
- memory: the web process's resident set (VmRSS) before any stream, and with every
  stream open and idle for a few seconds, and what one stream costs;
- latency: for each of ``--moves`` whole turns (the easy computer's, posted at once:
  one commit that hands the turn over and tells the other player), from the moment the
  service's transaction has committed (a callback run first at the commit) to the
  moment the other player's stream has the event of that version. The floor, in the same run:
  a plain ``GET /healthz`` round trip to the same web process, which no event path
  can beat.

The last line reads ``1000 streams: M MB; event p50 X ms, p99 Y ms``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/stream.py
from bench.harness import start_django

start_django()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from accounts.services import create_token  # noqa: E402
from bench.harness import ROOT, database, median_ms, percentile_ms, test_database  # noqa: E402
from games.engine import bots  # noqa: E402
from games.play.dealing import announce, start_game  # noqa: E402
from games.play.services import play_moves  # noqa: E402
from games.play.store import engine_game  # noqa: E402

PATH = "/api/v1/stream/events/"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_web(port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings_test",
        RBANK_TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        RBANK_VAR_DIR=str(settings.VAR_DIR),
        STREAM_CHANNEL=settings.STREAM_CHANNEL,  # the channel this process publishes on
    )
    web = subprocess.Popen(
        [
            *(sys.executable, "-m", "uvicorn", "config.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(port), "--no-access-log"),
            *("--log-level", "warning", "--backlog", "4096", "--timeout-graceful-shutdown", "2"),
        ],
        cwd=ROOT,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            return web
        except OSError:
            time.sleep(0.2)
    web.kill()
    raise SystemExit("the web process did not start")


class Client:
    """A stream's reader: the event ids, kinds and versions it got, and when."""

    def __init__(self) -> None:
        self.got: dict[int, float] = {}  # version of a your_turn event -> arrival

    async def open(self, port: int, token: str) -> asyncio.StreamReader:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**20)
        writer.write(
            f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
            "Accept: application/x-ndjson\r\n\r\n".encode()
        )
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream refused: {status!r}")
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        self.writer = writer
        return reader

    async def follow(self, reader: asyncio.StreamReader) -> None:
        """Read the chunked NDJSON body: a line per event."""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            chunk = await reader.readexactly(size + 2)
            for line in chunk[:-2].splitlines():
                if line.strip():
                    event = json.loads(line)
                    if event["kind"] == "your_turn":
                        self.got[event["version"]] = time.perf_counter()


class Streams:
    """The streams, on an event loop of their own (a thread), so that the moves can be
    played from this one."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.clients: list[Client] = []
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    async def close(self) -> None:
        for client in self.clients:
            client.writer.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    def run(self, coroutine: object, timeout: float = 600) -> object:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)  # type: ignore[arg-type]

    async def open_all(self, port: int, tokens: list[str]) -> list[Client]:
        clients = self.clients = [Client() for _ in tokens]
        self.tasks: list[asyncio.Task[None]] = []
        for start in range(0, len(tokens), 50):  # 50 at a time: no connection storm
            pairs = list(zip(clients[start : start + 50], tokens[start : start + 50], strict=True))
            readers = await asyncio.gather(*(c.open(port, t) for c, t in pairs))
            for (client, _), reader in zip(pairs, readers, strict=True):
                self.tasks.append(self.loop.create_task(client.follow(reader)))
        return clients


def healthz_floor(port: int, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).read()
        times.append(time.perf_counter() - start)
    return times


def stamp(stamps: list[float]) -> None:
    """The moment now, kept: run at a commit (``transaction.on_commit``)."""
    stamps.append(time.perf_counter())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    with test_database():
        users = [
            User.objects.create_user(f"p{n:04d}", f"p{n:04d}@example.com", "pw")
            for n in range(args.streams)
        ]
        tokens = [create_token(user, "bench")[1] for user in users]
        port = free_port()
        web = start_web(port)
        streams = Streams()
        try:
            measure(web, port, streams, users, tokens, args)
        finally:
            streams.run(streams.close())
            web.terminate()  # before the database goes
            try:
                web.wait(timeout=30)
            except subprocess.TimeoutExpired:
                web.kill()


def measure(
    web: subprocess.Popen[bytes],
    port: int,
    streams: Streams,
    users: list[User],
    tokens: list[str],
    args: argparse.Namespace,
) -> None:
    healthz_floor(port, 20)  # warm the process
    before = rss_mb(web.pid)
    clients: list[Client] = streams.run(streams.open_all(port, tokens))  # type: ignore[assignment]
    time.sleep(5)  # idle, every stream open
    held = rss_mb(web.pid)
    print(f"web process: {before:.0f} MB with no stream, {held:.0f} MB with {len(clients)} open")
    print(f"  one stream: {(held - before) * 1024 / len(clients):.0f} KB")

    # Two of the stream holders play, a whole turn per call.
    alice, bob = users[0], users[1]
    game = start_game(alice, bob, seed=7)
    announce(game)
    client_of = {alice.pk: clients[0], bob.pk: clients[1]}
    delays: list[float] = []
    rng = random.Random(7)
    floor = healthz_floor(port, args.moves)
    while len(delays) < args.moves:
        game.refresh_from_db()
        engine = engine_game(game)
        if engine.is_over:
            game = start_game(alice, bob, seed=7 + len(delays))
            announce(game)
            continue
        mover = game.user_at(engine.to_move)
        other = bob if mover == alice else alice
        moves = [str(m) for m in bots.turn(bots.EASY, engine.position, engine.to_move, rng)]
        # The clock starts at the commit: a callback registered before the move's own
        # runs first once it commits (the event may reach the stream before play_moves
        # returns).
        stamps: list[float] = []
        with transaction.atomic():
            transaction.on_commit(partial(stamp, stamps))
            result = play_moves(game_id=game.pk, user=mover, moves=moves)
        committed = stamps[0]
        if result.game.state is None:
            continue  # the game ended: a game_over, not a your_turn
        version = result.game.version
        client = client_of[other.pk]
        deadline = time.monotonic() + 10
        while version not in client.got and time.monotonic() < deadline:
            time.sleep(0.0005)
        if version not in client.got:
            raise SystemExit(f"no event for version {version} within 10 s")
        delays.append(client.got[version] - committed)
    path = "Redis pub/sub" if settings.REDIS_URL else "the events table"
    print(f"database: {database()}; events reach the web through {path}")
    print(
        f"floor (GET /healthz round trip): p50 {median_ms(floor):.1f} ms, "
        f"p99 {percentile_ms(floor, 0.99):.1f} ms"
    )
    print(
        f"{len(clients)} streams: {held:.0f} MB; event p50 {median_ms(delays):.1f} ms, "
        f"p99 {percentile_ms(delays, 0.99):.1f} ms"
    )


if __name__ == "__main__":
    main()
