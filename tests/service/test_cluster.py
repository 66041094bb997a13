"""A small cluster, as ``make cluster`` starts it (config/cluster.py): two web processes
behind nginx, two Celery workers on the queues of each kind, one beat, on this test's
database. What must hold across processes does: a move posted to one process is seen
by a poll on another and reaches a stream held on another, a player's streams are
counted across them, a second beat sends nothing, a web process killed loses nothing (its
streams' places come back, their clients resume elsewhere), and a worker killed in the
middle of sending loses nothing and sends nothing twice.

The cluster's processes share the settings' own cache (files under its folder, or
Redis) and broker (files, or Redis), with queue names and cache keys of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from accounts.services import create_token
from config.cluster import count, nginx_conf, worker_queues
from games.models import Event, Game, Notification
from games.play.dealing import start_game

from .conftest import wait_until, whole_turn
from .smtp import free_port
from .web import Stream

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]
#: A claimed e-mail's lease, in seconds: a killed worker's e-mail is sent again after it.
LEASE = 6


class Inbox:
    """The SMTP server the workers send to; once armed, it holds the next message's
    DATA (the sending worker is killed meanwhile) and refuses it when released."""

    def __init__(self) -> None:
        self.armed = threading.Event()
        self.stalled = threading.Event()
        self.release = threading.Event()
        self.received: list[str] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.armed.is_set() and not self.stalled.is_set():
            self.stalled.set()
            while not self.release.is_set():
                await asyncio.sleep(0.05)
            return "451 the sender went away"  # never delivered
        content = envelope.content if isinstance(envelope.content, bytes) else b""
        self.received.append(content.decode("utf-8", "replace"))
        return "250 OK"


@dataclass
class Cluster:
    proxy: int
    webs: list[int]
    var: Path
    log: Path
    env: dict[str, str]
    inbox: Inbox

    def url(self, port: int, path: str) -> str:
        return f"http://127.0.0.1:{port}{path}"

    def pid(self, part: str) -> int:
        return int((self.var / "cluster" / f"{part}.pid").read_text())


def free_ports(count: int) -> int:
    """The first of ``count`` free ports in a row."""
    while True:
        first = free_port()
        if first + count >= 65536:
            continue
        sockets = []
        try:
            for port in range(first, first + count):
                sock = socket.socket()
                sockets.append(sock)
                sock.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()


@pytest.fixture(scope="module")
def cluster(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    var = tmp_path_factory.mktemp("cluster")
    proxy, first_web = free_port(), free_ports(2)
    prefix = f"tests-cluster-{os.getpid()}-"
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings_test",
        RBANK_TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        RBANK_VAR_DIR=str(var),
        RBANK_TEST_CACHE=prefix,
        TASK_QUEUE_PREFIX=prefix,
        STREAM_CHANNEL=settings.STREAM_CHANNEL,
        CLUSTER_SETUP="0",
        WEB="2",
        WORKERS="2",
        WORKER_CONCURRENCY="1",
        PORT=str(proxy),
        WEB_PORT=str(first_web),
        MAIL_RECEIVER_PORT=str(free_port()),
        STREAM_MAX_PER_USER="2",
        STREAM_LEASE_SECONDS="3",
        STREAM_HEARTBEAT_SECONDS="1",
        # Events go from process to process through Redis alone: the table's safety
        # read, which would bring them late all the same, never comes during a test.
        STREAM_SAFETY_POLL_SECONDS="3600",
        SWEEP_SECONDS="1",
        BEAT_LOCK_SECONDS="6",
        RBANK_TEST_EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp.port),
        NOTIFICATION_LEASE_SECONDS=str(LEASE),
        EMAIL_TIMEOUT=str(LEASE - 2),
        CELERY_TASK_SOFT_TIME_LIMIT=str(LEASE - 1.5),
        CELERY_TASK_TIME_LIMIT=str(LEASE - 1),
        BOT_PAUSE_SECONDS="0,0",
        LOG_LEVEL="INFO",
    )
    log = var / "cluster.log"
    with log.open("w") as out:
        launcher = subprocess.Popen(
            [sys.executable, "-m", "config.cluster"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    webs = [first_web, first_web + 1]
    try:
        running = wait_until(lambda: "The cluster is running" in log.read_text(), 90)
        assert running, log.read_text()[-3000:]
        yield Cluster(proxy, webs, var, log, env, inbox)
    finally:
        launcher.send_signal(signal.SIGINT)
        try:
            launcher.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(launcher.pid, signal.SIGKILL)
            launcher.wait()
        # Whatever became of the launcher, no part outlives the test: each part's
        # process group, as the launcher last wrote it. (A suite started in the
        # background once left a cluster running: its launcher inherited SIGINT ignored,
        # was killed after the wait, and stopped nothing; config.run.stop_on_signals.)
        for pid_file in (var / "cluster").glob("*.pid"):
            with contextlib.suppress(ValueError, ProcessLookupError, PermissionError):
                os.killpg(int(pid_file.read_text()), signal.SIGKILL)
        inbox.release.set()
        smtp.stop()


def token(user: User) -> dict[str, str]:
    return {"Authorization": f"Token {create_token(user, 'cluster')[1]}"}


def call(url: str, method: str = "GET", body: Any = None, **headers: str) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw.startswith(b"{") else raw
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def open_stream(port: int, headers: dict[str, str]) -> Stream:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    conn.request(
        "GET", "/api/v1/stream/events/", headers={**headers, "Accept": "application/x-ndjson"}
    )
    return Stream(conn, conn.getresponse())


def players(*names: str) -> list[User]:
    return [User.objects.create_user(n, f"{n}@example.com", f"pw-{n}-12345") for n in names]


def play_through(cluster: Cluster, port: int, game: Game, who: dict[str, dict[str, str]]) -> None:
    """The seat to move plays a whole turn, POSTed to the web process on ``port``, as a
    client does: with an Idempotency-Key, sent again with it after a 502 (a web process
    lost with the request in flight: the proxy sends no POST twice by itself)."""
    game.refresh_from_db()
    mover = game.seat_rows[game.letters.index(game.to_move)].user
    assert mover is not None
    headers = {**who[mover.username], "Idempotency-Key": f"turn-{game.pk}-{game.version}"}
    moves = whole_turn(game)
    for _ in range(5):
        url = cluster.url(port, f"/api/v1/games/{game.pk}/moves/")
        status, body = call(url, "POST", {"moves": moves}, **headers)
        if status != 502:
            break
    assert status == 200, body
    assert Game.objects.get(pk=game.pk).ply == game.ply + len(moves)  # applied once


@pytest.mark.django_db(transaction=True)
def test_a_move_posted_to_one_process_is_seen_by_a_poll_on_another(cluster: Cluster) -> None:
    ann, ben = players("ann", "ben")
    game = start_game(ann, ben, seed=11)
    browser = Client()
    browser.force_login(ann)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"
    one, other = cluster.webs
    table = cluster.url(other, f"/games/{game.pk}/")
    status, _page = call(table, Cookie=cookie)  # the page fills the cache, on web-2
    assert status == 200
    poll = cluster.url(other, f"/games/{game.pk}/table/?version={game.version}&messages=0")
    assert call(poll, Cookie=cookie)[0] == 204  # nothing new: from the shared cache
    who = {"ann": token(ann), "ben": token(ben)}
    play_through(cluster, one, game, who)  # on web-1
    status, _table = call(poll, Cookie=cookie)
    assert status == 200  # web-2's poll sees it at once
    status, seen = call(cluster.url(other, f"/api/v1/games/{game.pk}/"), **who["ann"])
    assert status == 200 and seen["version"] == Game.objects.get(pk=game.pk).version


@pytest.mark.django_db(transaction=True)
def test_an_event_written_on_one_process_reaches_streams_on_the_others(cluster: Cluster) -> None:
    cat, dan = players("cat", "dan")
    game = start_game(cat, dan, seed=12)
    who = {"cat": token(cat), "dan": token(dan)}
    game.refresh_from_db()
    waiting = "dan" if game.seat_rows[game.letters.index(game.to_move)].user == cat else "cat"
    direct = open_stream(cluster.webs[1], who[waiting])  # held by web-2
    proxied = open_stream(cluster.proxy, who[waiting])  # wherever nginx sends it
    assert (direct.status, proxied.status) == (200, 200)
    play_through(cluster, cluster.webs[0], game, who)  # written on web-1
    for stream in (direct, proxied):
        kinds = [event["kind"] for event in stream.ndjson(2)]
        assert kinds == ["move", "your_turn"]
        stream.close()


@pytest.mark.django_db(transaction=True)
def test_a_players_streams_are_counted_across_the_processes(cluster: Cluster) -> None:
    (eve,) = players("eve")
    headers = token(eve)
    first, second = open_stream(cluster.webs[0], headers), open_stream(cluster.webs[1], headers)
    assert (first.status, second.status) == (200, 200)
    for port in (*cluster.webs, cluster.proxy):  # the limit is 2, on any process
        third = open_stream(port, headers)
        assert (third.status, third.body()["error"]) == (429, "TOO_MANY_STREAMS")
    first.close()  # its place is free, on the other process too
    assert wait_until(lambda: open_stream(cluster.webs[1], headers).status == 200, 10)
    second.close()


@pytest.mark.django_db(transaction=True)  # the lock is in the database: both passes
def test_a_second_beat_sends_nothing(cluster: Cluster, tmp_path: Path) -> None:
    log = tmp_path / "beat-2.log"
    with log.open("w") as out:
        second = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "info"],
            cwd=ROOT,
            env=cluster.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        assert wait_until(lambda: "another beat holds the lock" in log.read_text(), 30)
        sent = sends(cluster.log.read_text())
        time.sleep(3)  # three of the first beat's sweeps
        assert sends(cluster.log.read_text()) >= sent + 2
        assert "Sending due task" not in log.read_text()
    finally:
        second.terminate()
        second.wait(timeout=15)


@pytest.mark.django_db(transaction=True)
def test_a_web_process_killed_loses_nothing(cluster: Cluster) -> None:
    """Its streams' places come back once their leases run out, the client resumes on
    another process from its Last-Event-ID and misses nothing, and the proxy sends the
    requests meanwhile to the live process."""
    hal, ida = players("hal", "ida")
    game = start_game(hal, ida, seed=14)
    who = {"hal": token(hal), "ida": token(ida)}
    game.refresh_from_db()
    waiting = "ida" if game.seat_rows[game.letters.index(game.to_move)].user == hal else "hal"
    held = [open_stream(cluster.webs[0], who[waiting]) for _ in range(2)]  # the limit, on web-1
    assert [stream.status for stream in held] == [200, 200]
    last = Event.objects.filter(user__username=waiting).order_by("pk").last()
    after = last.pk if last else 0
    killed = cluster.pid("web-1")
    os.killpg(killed, signal.SIGKILL)
    play_through(cluster, cluster.proxy, game, who)  # nginx passes over the dead process
    assert open_stream(cluster.webs[1], who[waiting]).status == 429  # its leases still count
    resumed = None
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:  # until they run out (STREAM_LEASE_SECONDS)
        attempt = open_stream(cluster.webs[1], {**who[waiting], "Last-Event-ID": str(after)})
        if attempt.status == 200:
            resumed = attempt
            break
        attempt.close()
        time.sleep(0.5)
    assert resumed is not None, "the dead process's streams kept their places"
    stored = list(
        Event.objects.filter(user__username=waiting, pk__gt=after).values_list("kind", flat=True)
    )
    assert stored and [event["kind"] for event in resumed.ndjson(len(stored))] == stored
    resumed.close()
    assert wait_until(lambda: cluster.pid("web-1") != killed, 10)  # started again
    assert wait_until(lambda: up(cluster.url(cluster.webs[0], "/healthz")), 60)


def up(url: str) -> bool:
    try:
        return call(url)[0] == 200
    except OSError:
        return False


def sends(log: str) -> int:
    return sum(1 for line in log.splitlines() if "beat |" in line and "Sending due task" in line)


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_while_sending_loses_nothing_and_sends_nothing_twice(
    cluster: Cluster,
) -> None:
    fay, gil = players("fay", "gil")
    game = start_game(fay, gil, seed=13)
    who = {"fay": token(fay), "gil": token(gil)}
    before = len(cluster.inbox.received)
    game.refresh_from_db()
    waiting = gil if game.seat_rows[game.letters.index(game.to_move)].user == fay else fay
    cluster.inbox.armed.set()
    play_through(cluster, cluster.webs[0], game, who)  # the other's "your turn" e-mail
    assert cluster.inbox.stalled.wait(30), "no worker began sending"
    email_worker = cluster.pid("worker-1")  # the e-mail queue's (config.cluster.worker_queues)
    os.killpg(email_worker, signal.SIGKILL)  # as the OOM killer or a lost machine would
    cluster.inbox.release.set()
    # Started again by the launcher; once the claim's lease has run out, the sweep sends it.
    assert wait_until(lambda: len(cluster.inbox.received) > before, 40)
    assert wait_until(lambda: cluster.pid("worker-1") != email_worker, 5)
    time.sleep(LEASE + 2)  # a second sending would have come by now
    sent = cluster.inbox.received[before:]
    assert len(sent) == 1 and waiting.email in sent[0], sent
    rows = Notification.objects.filter(game=game, user=waiting, kind="your_turn")
    assert [row.status for row in rows] == [Notification.Status.SENT]


# The launcher's pieces.


def test_every_queue_has_a_worker_however_many_there_are() -> None:
    assert worker_queues(1) == [["email", "inbound", "computer", "webhooks", "review", "default"]]
    assert worker_queues(2) == [["email", "computer", "review"], ["inbound", "webhooks", "default"]]
    seven = worker_queues(7, "p-")
    assert seven[:6] == [
        ["p-email"],
        ["p-inbound"],
        ["p-computer"],
        ["p-webhooks"],
        ["p-review"],
        ["p-default"],
    ]
    assert seven[6] == ["p-email", "p-inbound", "p-computer", "p-webhooks", "p-review", "p-default"]


def test_the_counts_are_checked() -> None:
    assert count({}, "WEB", 2) == 2 and count({"WEB": "4"}, "WEB", 2) == 4
    for wrong in ("0", "x", "65"):
        with pytest.raises(SystemExit, match="WEB must be a number from 1 to 64"):
            count({"WEB": wrong}, "WEB", 2)


def test_nginx_spreads_the_requests_and_passes_events_on_at_once(tmp_path: Path) -> None:
    conf = nginx_conf(tmp_path, 9100, [9101, 9102])
    assert "listen 127.0.0.1:9100;" in conf and "least_conn;" in conf
    assert "server 127.0.0.1:9101" in conf and "server 127.0.0.1:9102" in conf
    assert "proxy_buffering off;" in conf and "non_idempotent" not in conf
    assert f"pid {tmp_path / 'nginx.pid'};" in conf


def test_each_kind_of_task_goes_to_its_queue_when_asked() -> None:
    show = (
        "from django.conf import settings as s; import json; "
        "print(json.dumps([s.CELERY_TASK_DEFAULT_QUEUE, s.CELERY_TASK_ROUTES]))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test", "TASK_QUEUES": "1"}
    env["TASK_QUEUE_PREFIX"] = "x-"
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {show}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    default, routes = json.loads(out.splitlines()[-1])
    assert default == "x-default"
    assert routes["games.tasks.send_notification"] == {"queue": "x-email"}
    assert routes["mailplay.tasks.handle_inbound"] == {"queue": "x-inbound"}
    assert routes["games.tasks.play_bot_turn"] == {"queue": "x-computer"}
    assert routes["webhooks.tasks.deliver"] == {"queue": "x-webhooks"}
    assert "games.tasks.sweep_deadlines" not in routes  # the default queue's
