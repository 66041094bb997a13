"""``/healthz``: the database and the broker, asked for real; no login, one query."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from config.celery import app

from .smtp import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_it_answers_ok_for_both_without_login_in_one_query(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    with django_assert_num_queries(1):
        answer = Client().get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"database": "ok", "broker": "ok"}
    assert "no-cache" in answer["Cache-Control"]
    assert Client().head("/healthz").status_code == 200
    assert Client().post("/healthz").status_code == 405


@pytest.mark.django_db
def test_it_answers_over_plain_http_where_everything_else_redirects(settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    assert Client().get("/rules/").status_code == 301
    assert Client().get("/healthz").status_code == 200


@pytest.mark.django_db
def test_it_answers_503_soon_when_the_broker_is_down(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, settings: Any
) -> None:
    monkeypatch.setitem(app.conf, "broker_url", f"redis://127.0.0.1:{free_port()}/0")
    started = time.monotonic()
    settings.ADMINS = [("Ann Ops", "ann@example.com")]
    with caplog.at_level(logging.WARNING):
        answer = Client().get("/healthz")
    assert time.monotonic() - started < 5
    assert answer.status_code == 503
    assert answer.json() == {"database": "ok", "broker": "unavailable"}
    # One warning that names the part; no error, so no e-mail to the admins each probe.
    (line,) = [r.getMessage() for r in caplog.records]
    assert line.startswith("health check failed part=broker error=")
    assert mail.outbox == []


ASK = """
import django; django.setup()
from django.core import mail
from django.test import Client
answer = Client().get("/healthz")
print(answer.status_code, answer.content.decode())
"""


def test_it_answers_503_when_the_database_is_down() -> None:
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        # PostgreSQL where nothing listens: the database is down.
        "DATABASE_URL": f"postgres://rbank@127.0.0.1:{free_port()}/rbank",
    }
    result = subprocess.run(
        [sys.executable, "-c", ASK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == '503 {"database": "unavailable", "broker": "ok"}'
    assert "health check failed part=database" in result.stderr
