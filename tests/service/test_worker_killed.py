"""A worker killed in the middle of sending: the e-mail still arrives, once.

The worker runs as a process of its own, so that it can be killed outright
(SIGKILL, as the kernel's OOM killer or a lost machine would). Its row stays
claimed; once the claim's lease has run out, the minute sweep dispatches it again
and a second worker sends it. The workers run with a lease of a few seconds (and an
SMTP timeout and time limits below it, as the settings require).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from config.celery import app
from games.models import Notification
from games.play.dealing import start_game
from games.sweep import sweep
from games.tasks import send_notification

from .conftest import make_broker_folders, wait_until
from .smtp import free_port

ROOT = Path(__file__).resolve().parents[2]
#: The workers' claim lease, in seconds.
LEASE = 6


class StallingInbox:
    """Holds the first message's DATA until told to fail it; takes the others."""

    def __init__(self) -> None:
        self.stalled = threading.Event()
        self.release = threading.Event()
        self.received: list[bytes] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if not self.stalled.is_set():
            self.stalled.set()
            while not self.release.is_set():
                await asyncio.sleep(0.05)
            return "451 the sender went away"  # never delivered
        self.received.append(envelope.content if isinstance(envelope.content, bytes) else b"")
        return "250 OK"


def start_worker_process(queue: str, smtp_port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings_test",
        RBANK_TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        RBANK_TEST_EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_port),
        NOTIFICATION_LEASE_SECONDS=str(LEASE),
        EMAIL_TIMEOUT=str(LEASE - 2),  # the stalled DATA outlasts the kill
        CELERY_TASK_SOFT_TIME_LIMIT=str(LEASE - 1.5),
        CELERY_TASK_TIME_LIMIT=str(LEASE - 1),
    )
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "-Q",
            queue,
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.django_db(transaction=True)
def test_an_email_whose_worker_was_killed_mid_send_arrives_once(settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    queue = f"tests-killed-{os.getpid()}"
    make_broker_folders()
    inbox = StallingInbox()
    port = free_port()
    smtp = Controller(inbox, hostname="127.0.0.1", port=port)
    smtp.start()
    workers: list[subprocess.Popen[bytes]] = []
    default_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue  # the sweep's re-dispatch goes to our workers
    try:
        alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
        bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
        game = start_game(alice, bob, seed=12)
        row = Notification.objects.create(
            user=alice, email=alice.email, kind="stalemate_offer", game=game
        )
        workers.append(start_worker_process(queue, port))
        send_notification.apply_async(args=[row.pk], queue=queue)
        assert inbox.stalled.wait(60), "the first worker never reached the SMTP server"
        workers[0].send_signal(signal.SIGKILL)  # dead in the middle of sending
        workers[0].wait(10)
        inbox.release.set()
        row.refresh_from_db()
        assert row.status == "sending"  # claimed by the dead worker

        workers.append(start_worker_process(queue, port))
        assert row.next_attempt_at is not None  # the end of the dead worker's lease
        time.sleep((row.next_attempt_at - timezone.now()).total_seconds() + 0.2)
        assert sweep()["resent"] == 1
        assert wait_until(lambda: len(inbox.received) == 1), "the e-mail never arrived"
        assert wait_until(lambda: Notification.objects.get(pk=row.pk).status == "sent")
        assert sweep()["resent"] == 0
        time.sleep(1)
        assert len(inbox.received) == 1
        assert b"alice@example.com" in inbox.received[0]
    finally:
        app.conf.task_default_queue = default_queue
        app.conf.task_always_eager = True
        for worker in workers:
            if worker.poll() is None:
                worker.terminate()
                try:
                    worker.wait(20)
                except subprocess.TimeoutExpired:
                    worker.kill()
        smtp.stop()
