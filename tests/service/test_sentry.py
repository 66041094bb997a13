"""Sentry: nothing of it runs without ``SENTRY_DSN``; with one, a view's exception and a
task's reach the server it names (here a receiver on 127.0.0.1 started by the test)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Receiver(BaseHTTPRequestHandler):
    """Keeps the body of every envelope POSTed to it."""

    envelopes: list[bytes] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        elif self.headers.get("Content-Encoding") == "br":
            import brotli  # type: ignore[import-not-found]  # sentry-sdk uses it when present

            body = brotli.decompress(body)
        self.envelopes.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[tuple[str, list[bytes]]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    Receiver.envelopes = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://public-key@127.0.0.1:{server.server_port}/42", Receiver.envelopes
    finally:
        server.shutdown()
        server.server_close()


def run(code: str, **env: str) -> str:
    """``code`` in a fresh process with the site's settings; its standard output."""
    environ = {k: v for k, v in os.environ.items() if k != "SENTRY_DSN"} | env
    environ["DJANGO_SETTINGS_MODULE"] = "config.settings_test"
    result = subprocess.run(
        [sys.executable, "-c", "import django, sys; django.setup()\n" + code],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def events(envelopes: list[bytes]) -> list[Any]:
    """The error events among the envelopes' items (one JSON document a line)."""
    found = []
    for envelope in envelopes:
        for line in envelope.splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if isinstance(item, dict) and "exception" in item:
                found.append(item)
    return found


def test_it_loads_nothing_of_sentry_without_a_dsn() -> None:
    out = run("print('sentry_sdk' in sys.modules)")
    assert out.strip() == "False"


FAIL_IN_A_VIEW_AND_A_TASK = """
import sentry_sdk
from django.test import Client
from django.test.utils import override_settings
from tests.service.failing_urls import failing_task

client = sentry_sdk.get_client()
print(client.is_active(), sorted(client.integrations))
with override_settings(ROOT_URLCONF="tests.service.failing_urls"):
    print(Client(raise_request_exception=False).get("/api/v1/fail/").status_code)
print(failing_task.apply().failed())
sentry_sdk.flush(timeout=10)
"""


def test_it_reports_a_views_and_a_tasks_exception_to_the_dsn(
    receiver: tuple[str, list[bytes]],
) -> None:
    dsn, envelopes = receiver
    out = run(FAIL_IN_A_VIEW_AND_A_TASK, SENTRY_DSN=dsn).splitlines()
    active, integrations = out[0].split(" ", 1)
    assert active == "True" and "'django'" in integrations and "'celery'" in integrations
    assert out[1:] == ["500", "True"]
    reported = {
        event["exception"]["values"][-1]["mechanism"]["type"]: event for event in events(envelopes)
    }
    assert sorted(reported) == ["celery", "django"], reported
    for event in reported.values():
        assert event["exception"]["values"][-1]["type"] == "ZeroDivisionError"
    assert reported["django"]["transaction"] == "/api/v1/fail/"
    assert reported["celery"]["transaction"] == "tests.service.failing_urls.failing_task"
