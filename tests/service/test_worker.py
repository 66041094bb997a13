"""A real Celery worker (in a thread of the test process) sends the outbox's e-mails.

The broker is the one the settings choose: kombu's filesystem transport by default,
Redis when REDIS_URL is set (CI runs both).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth.models import User

from config.celery import app
from games.models import Notification
from games.play.dealing import start_game
from games.play.stalemate import offer_stalemate
from games.tasks import send_notification

from .conftest import make_broker_folders, wait_until
from .smtp import Inbox, smtp_inbox

__all__ = ["smtp_inbox"]


@pytest.fixture
def worker(settings: Any) -> Iterator[None]:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    make_broker_folders()
    # A queue of this test process's own: parallel test processes share the broker
    # but not the database, and must not take each other's tasks.
    default_queue = app.conf.task_default_queue
    app.conf.task_default_queue = f"tests-{os.getpid()}"
    try:
        with start_worker(
            app,
            pool="solo",
            perform_ping_check=False,
            shutdown_timeout=30,
            queues=[app.conf.task_default_queue],
        ):
            yield
    finally:
        app.conf.task_default_queue = default_queue
        app.conf.task_always_eager = True


@pytest.mark.django_db(transaction=True)
def test_a_worker_sends_the_email_after_the_commit(worker: None, smtp_inbox: Inbox) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    game = start_game(alice, bob, seed=9)
    offer_stalemate(game_id=game.pk, user=alice)  # commits, then dispatches
    assert wait_until(lambda: smtp_inbox.to("bob@example.com")), "no e-mail arrived"
    assert wait_until(lambda: Notification.objects.get(kind="stalemate_offer").status == "sent")


@pytest.mark.django_db(transaction=True)
def test_the_same_task_delivered_twice_sends_one_email(worker: None, smtp_inbox: Inbox) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    game = start_game(bob, alice, seed=10)
    row = Notification.objects.create(
        user=alice, email=alice.email, kind="stalemate_offer", game=game
    )
    send_notification.delay(row.pk)
    send_notification.delay(row.pk)  # a redelivery: the row is claimed once
    assert wait_until(lambda: smtp_inbox.to("alice@example.com"))
    time.sleep(2)  # time for the second delivery to be consumed
    assert len(smtp_inbox.to("alice@example.com")) == 1
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 1
