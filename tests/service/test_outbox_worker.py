"""A real Celery worker against a server that takes the message and never answers.

The worker gives the attempt up at EMAIL_TIMEOUT, hands the row back with its back-off
(shortened here to a second, in real time), and the minute sweep's next pass has the
e-mail sent once the server answers again: one e-mail, never two.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Notification
from games.play.dealing import start_game
from games.play.stalemate import offer_stalemate
from games.sweep import sweep

from .conftest import wait_until
from .smtp import Inbox, smtp_inbox
from .test_worker import worker

__all__ = ["smtp_inbox", "worker"]


@pytest.mark.django_db(transaction=True)
def test_it_gives_a_hung_send_up_in_a_worker_and_sends_it_once_later(
    worker: None, smtp_inbox: Inbox, settings: Any
) -> None:
    settings.EMAIL_TIMEOUT = 1
    settings.EMAIL_RETRY_BACKOFF = 1
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    game = start_game(alice, bob, seed=9)
    smtp_inbox.hang_data = True
    offer_stalemate(game_id=game.pk, user=alice)  # commits, then the worker's attempt hangs
    row = Notification.objects.get()

    def attempted(times: int) -> bool:
        row.refresh_from_db()
        return row.attempts == times and row.status != "sending"

    assert wait_until(lambda: attempted(1), 30), "the hung attempt was never given up"
    assert row.status == "pending" and "timed out" in row.last_error
    assert smtp_inbox.messages == []
    smtp_inbox.hang_data = False

    def swept_and_sent() -> bool:
        sweep()
        row.refresh_from_db()
        return row.status == "sent"

    assert wait_until(swept_and_sent, 30), "the e-mail was never sent again"
    for _ in range(5):  # later sweeps find nothing due
        assert sweep()["resent"] == 0
        time.sleep(0.2)
    row.refresh_from_db()
    assert row.attempts == 2 and smtp_inbox.data_commands == 2
    assert [str(m["To"]) for m in smtp_inbox.messages] == [bob.email]
