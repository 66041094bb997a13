"""Replies through a hosted provider's inbound webhook (Mailgun, by django-anymail),
into the same inbound table as the SMTP receiver's."""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from mailplay.models import InboundMail

from .conftest import whole_turn
from .mailbox import reply
from .smtp import Inbox, smtp_inbox
from .test_play_by_mail import by_mail, engine, started, turn_mail

__all__ = ["by_mail", "smtp_inbox", "started"]

pytestmark = pytest.mark.django_db

URL = "/mail/inbound/mailgun/inbound_mime/"


def signed(fields: dict[str, str], key: str | None = None) -> dict[str, str]:
    """Mailgun's signature: HMAC-SHA256 of timestamp and token under the signing key."""
    timestamp, token = str(int(time.time())), hashlib.sha256(str(fields).encode()).hexdigest()
    key = key or settings.ANYMAIL["MAILGUN_WEBHOOK_SIGNING_KEY"]
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256)
    return {**fields, "timestamp": timestamp, "token": token, "signature": signature.hexdigest()}


def test_a_reply_through_mailgun_plays_like_one_by_smtp(
    started: tuple[Game, User, User], smtp_inbox: Inbox, run: Callable[..., Any]
) -> None:
    game, mover, _ = started
    email = turn_mail(smtp_inbox, mover)
    first = whole_turn(game)[0]
    fields = signed(
        {
            "body-mime": reply(email, first).decode(),
            "recipient": str(email["Reply-To"]),
            "sender": mover.email,
        }
    )
    response = run(Client().post, URL, fields)
    assert response.status_code == 200
    row = InboundMail.objects.get()
    assert (row.source, row.outcome) == ("mailgun", InboundMail.Outcome.PLAYED)
    assert str(engine(game).current_turn[0]) == first
    # The provider retries (or someone replays the request): nothing is done again.
    assert run(Client().post, URL, fields).status_code == 200
    assert InboundMail.objects.get().duplicates == 1


def test_a_request_without_mailgun_signature_is_refused_and_stores_nothing(
    started: tuple[Game, User, User], smtp_inbox: Inbox
) -> None:
    _, mover, _ = started
    email = turn_mail(smtp_inbox, mover)
    fields = signed({"body-mime": reply(email, "resign").decode()}, key="not-the-key")
    response = Client().post(URL, fields)
    assert response.status_code == 400
    assert not InboundMail.objects.exists()
