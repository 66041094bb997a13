"""The web process as production runs it (uvicorn on ``config.asgi``), started by a
test on the test's own database, and a client that reads its event streams."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

from .smtp import free_port

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Web:
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stream(self, headers: dict[str, str], path: str = "/api/v1/stream/events/") -> Stream:
        """Open an event stream (its response's status and headers are read)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        conn.request("GET", path, headers=headers)
        return Stream(conn, conn.getresponse())


@contextmanager
def web_server(**env: str) -> Iterator[Web]:
    """uvicorn on a free port, on this test's database and event channel (with the
    settings ``env`` adds), stopped after; Celery runs the server's tasks at once."""
    port = free_port()
    environ = dict(os.environ)
    environ.update(
        DJANGO_SETTINGS_MODULE="config.settings_test",
        RBANK_TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        STREAM_CHANNEL=settings.STREAM_CHANNEL,
        CELERY_TASK_ALWAYS_EAGER="1",
        **env,
    )
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "uvicorn", "config.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(port), "--no-access-log"),
            *("--log-level", "warning", "--timeout-graceful-shutdown", "1"),
        ],
        cwd=ROOT,
        env=environ,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the web server did not start") from None
                time.sleep(0.1)
        yield Web(port)
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@dataclass
class Stream:
    """An open stream, read a line at a time."""

    conn: http.client.HTTPConnection
    response: http.client.HTTPResponse
    lines: list[str] = field(default_factory=list)

    @property
    def status(self) -> int:
        return self.response.status

    def body(self) -> Any:
        return json.loads(self.response.read())

    def readline(self) -> str:
        line = self.response.readline().decode()
        self.lines.append(line)
        return line

    def ndjson(self, count: int, seconds: float = 15) -> list[dict[str, Any]]:
        """The next ``count`` events of an NDJSON stream (heartbeats skipped)."""
        deadline = time.monotonic() + seconds
        events: list[dict[str, Any]] = []
        while len(events) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(events)} of {count} events came")
            line = self.readline()
            if not line:
                raise EOFError("the stream ended")
            if line.strip():
                events.append(json.loads(line))
        return events

    def sse(self, count: int, seconds: float = 15) -> list[dict[str, str]]:
        """The next ``count`` events of an SSE stream, each as its fields (comments
        and the retry line skipped)."""
        deadline = time.monotonic() + seconds
        events: list[dict[str, str]] = []
        fields: dict[str, str] = {}
        while len(events) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(events)} of {count} events came")
            line = self.readline()
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if not line:
                if "data" in fields:
                    events.append(fields)
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value
        return events

    def ends_within(self, seconds: float) -> float:
        """Read until the server ends the stream; how long that took. TimeoutError if
        it is still open after ``seconds`` (its heartbeats keep the lines coming)."""
        start = time.monotonic()
        while self.readline():
            if time.monotonic() - start > seconds:
                raise TimeoutError(f"the stream is still open after {seconds} s")
        return time.monotonic() - start

    def close(self) -> None:
        self.conn.close()
