"""No e-mail is still being sent when its claim may pass to another worker.

The SMTP timeout, then Celery's soft and hard time limits on every task, all end
before an outbox claim's lease: the settings refuse to start otherwise.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from celery.schedules import crontab
from django.conf import settings

from config.celery import app

ROOT = Path(__file__).resolve().parents[2]


def test_it_keeps_the_smtp_timeout_and_the_time_limits_inside_the_lease() -> None:
    assert (settings.EMAIL_TIMEOUT, settings.NOTIFICATION_LEASE_SECONDS) == (30, 300)
    assert (
        0
        < settings.EMAIL_TIMEOUT
        < settings.CELERY_TASK_SOFT_TIME_LIMIT
        < settings.CELERY_TASK_TIME_LIMIT
        < settings.NOTIFICATION_LEASE_SECONDS
    )
    assert settings.EMAIL_MAX_ATTEMPTS == 8


def test_it_puts_time_limits_on_every_task() -> None:
    app.loader.import_default_modules()  # the apps' tasks, as a worker registers them
    ours = {name: task for name, task in app.tasks.items() if name.startswith("games.")}
    mail = {name: task for name, task in app.tasks.items() if name.startswith("mailplay.")}
    hooks = {name: task for name, task in app.tasks.items() if name.startswith("webhooks.")}
    assert set(hooks) == {"webhooks.tasks.deliver", "webhooks.tasks.sweep", "webhooks.tasks.prune"}
    assert set(mail) == {
        "mailplay.tasks.handle_inbound",
        "mailplay.tasks.sweep_inbound",
        "mailplay.tasks.prune_inbound",
    }
    assert set(ours) == {
        "games.tasks.send_notification",
        "games.tasks.send_push",
        "games.tasks.send_digest",
        "games.tasks.send_digests",
        "games.tasks.sweep_deadlines",
        "games.tasks.prune_old_rows",
        "games.tasks.play_bot_turn",
        "games.tasks.answer_bot_stalemate",
        "games.tasks.write_database_months",
        "games.tasks.review_game",
    }
    # A review holds no outbox lease (it is written once, idempotently): its limits are
    # its own, minutes long (docs/review.md).
    review = ours.pop("games.tasks.review_game")
    assert 0 < settings.REVIEW_SOFT_TIME_LIMIT == review.soft_time_limit
    assert review.soft_time_limit < review.time_limit == settings.REVIEW_TIME_LIMIT
    for name, task in {**ours, **mail, **hooks}.items():
        soft = task.soft_time_limit or app.conf.task_soft_time_limit
        hard = task.time_limit or app.conf.task_time_limit
        assert soft and hard, name
        assert settings.EMAIL_TIMEOUT < soft < hard < settings.NOTIFICATION_LEASE_SECONDS, name


def test_it_runs_the_sweep_every_minute_and_the_prune_every_day() -> None:
    schedule: dict[str, dict[str, Any]] = settings.CELERY_BEAT_SCHEDULE
    app.loader.import_default_modules()
    assert {entry["task"] for entry in schedule.values()} <= set(app.tasks)
    (prune,) = [e for e in schedule.values() if e["task"] == "games.tasks.prune_old_rows"]
    assert isinstance(prune["schedule"], crontab)
    assert len(prune["schedule"].hour) == 1 and len(prune["schedule"].minute) == 1
    assert prune["schedule"].day_of_week == set(range(7))


@pytest.mark.parametrize(
    ("variable", "value", "words"),
    [
        ("EMAIL_TIMEOUT", "300", "EMAIL_TIMEOUT < CELERY_TASK_SOFT_TIME_LIMIT"),
        ("CELERY_TASK_TIME_LIMIT", "600", "< NOTIFICATION_LEASE_SECONDS"),
        ("NOTIFICATION_LEASE_SECONDS", "60", "< NOTIFICATION_LEASE_SECONDS"),
        ("EMAIL_MAX_ATTEMPTS", "40000", "EMAIL_MAX_ATTEMPTS must be from 1 to 1000"),
        ("RETENTION_DAYS", "0", "RETENTION_DAYS must be at least 1"),
        ("WEBHOOK_TIMEOUT", "120", "WEBHOOK_TIMEOUT must be more than 0 and at most 60"),
        ("WEBHOOK_MAX_ATTEMPTS", "0", "WEBHOOK_MAX_ATTEMPTS must be from 1 to 1000"),
    ],
)
def test_it_refuses_to_start_with_settings_that_break_the_bounds(
    variable: str, value: str, words: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "CELERY_"))}
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "test-only-not-secret",
        "RBANK_VAR_DIR": str(tmp_path),
        variable: value,
    }
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and words in result.stderr
