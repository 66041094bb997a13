"""The SMTP receiver of play by mail, over a real SMTP connection: only our own
addresses, a size limit, a rate limit, and a message stored before it says 250."""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.db import connection

from accounts.services import update_profile
from games.models import Game, Message
from games.notify.mail_play import ReplyAddress, read_address
from games.play.dealing import start_game
from mailplay.models import InboundMail

from .conftest import wait_until
from .mailbox import plain
from .receiver import Receiver, receiver
from .smtp import free_port

__all__ = ["receiver"]

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def address(db: None) -> str:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    for user in (alice, bob):
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        update_profile(user, {"play_by_mail": True})
    game = start_game(alice, bob, seed=5)
    return str(ReplyAddress(game.pk, game.to_move, game.version))


def test_it_stores_a_message_for_a_play_address_before_saying_250(
    receiver: Receiver, address: str
) -> None:
    receiver.deliver(plain("alice@example.com", address, "help"), address)
    row = InboundMail.objects.get()  # stored by the time the client is told 250
    assert (row.source, row.recipient, row.sender) == ("smtp", address, "alice@example.com")
    assert wait_until(lambda: InboundMail.objects.get().status == "done", 30)


@pytest.mark.parametrize(
    "to",
    [
        "someone@elsewhere.example",  # not our domain: no relaying
        "games@localhost",  # our domain, not a play address
        "play+1.a.1.aaaaaaaaaaaaaaaa@localhost",  # a forged signature
    ],
)
def test_it_refuses_what_is_not_a_play_address_at_rcpt(receiver: Receiver, to: str) -> None:
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        receiver.deliver(plain("alice@example.com", to, "help"), to)
    code, words = refused.value.recipients[to]
    assert code == 550 and b"no such play-by-mail address" in words
    assert not InboundMail.objects.exists()


def test_it_refuses_an_oversized_message_with_552(
    receiver: Receiver, address: str, settings: Any
) -> None:
    big = plain("alice@example.com", address, "T\n" + "x" * (settings.MAIL_MAX_BYTES + 10))
    with pytest.raises(smtplib.SMTPException) as refused:
        receiver.deliver(big, address)
    assert "552" in str(refused.value) or getattr(refused.value, "smtp_code", 0) == 552
    assert not InboundMail.objects.exists()


def test_a_sender_over_the_hourly_limit_is_asked_to_try_later(
    receiver: Receiver, address: str, settings: Any
) -> None:
    settings.MAIL_RATE_PER_HOUR = 1
    receiver.deliver(plain("alice@example.com", address, "help"), address)
    with pytest.raises(smtplib.SMTPDataError) as refused:
        receiver.deliver(plain("alice@example.com", address, "help"), address)
    assert refused.value.smtp_code == 451
    assert InboundMail.objects.count() == 1


def test_the_same_message_delivered_twice_is_stored_once(receiver: Receiver, address: str) -> None:
    raw = plain("alice@example.com", address, "help")
    receiver.deliver(raw, address)
    receiver.deliver(raw, address)  # the sending server retried: 250 again, nothing more
    assert InboundMail.objects.count() == 1
    assert InboundMail.objects.get().duplicates == 1


def test_a_database_outage_answers_451_so_the_sender_retries(
    receiver: Receiver, address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    def down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("the database is away")

    monkeypatch.setattr("mailplay.smtp.receive", down)
    with pytest.raises(smtplib.SMTPDataError) as refused:
        receiver.deliver(plain("alice@example.com", address, "help"), address)
    assert refused.value.smtp_code == 451


def test_a_second_play_address_in_one_message_is_sent_apart(
    receiver: Receiver, address: str
) -> None:
    other = address.replace(".a.", ".b.") if ".a." in address else address.replace(".b.", ".a.")
    with smtplib.SMTP("127.0.0.1", receiver.port, timeout=30) as client:
        client.ehlo()
        client.mail("alice@example.com")
        assert client.rcpt(address)[0] == 250
        assert client.rcpt(other)[0] in (452, 550)  # 452: later, in a message of its own


def test_it_logs_the_game_seat_and_version_of_a_reply_address_never_its_signature(
    address: str,
) -> None:
    """``manage.py receive_mail`` as production runs it, with the settings' logging, at
    DEBUG: its own lines and the SMTP server's (which name every recipient) alike."""
    port = free_port()
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings_test",
        RBANK_TEST_DATABASE_NAME=str(connection.settings_dict["NAME"]),
        CELERY_TASK_ALWAYS_EAGER="1",  # the reply is handled in the receiver's process
        LOG_LEVEL="DEBUG",
        PYTHONUNBUFFERED="1",
    )
    process = subprocess.Popen(
        [sys.executable, "manage.py", "receive_mail", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    # Its output is read as it comes, by a thread: at DEBUG it writes more than a pipe
    # holds, and a full pipe would stop the receiver mid-answer.
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if "receiving mail for" in line:
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert ready.wait(60), "".join(lines)[-2000:]
        mx = Receiver(port)
        mx.deliver(plain("alice@example.com", address, "help"), address)
        signature = address.partition("@")[0].rsplit(".", 1)[1]
        tampered = address.replace(signature, signature[::-1])
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            mx.deliver(plain("alice@example.com", tampered, "help"), tampered)
        assert wait_until(lambda: InboundMail.objects.get().status == "done", 60)
    finally:
        process.terminate()
        process.wait(timeout=30)
        reader.join(timeout=30)
    output = "".join(lines)
    game, seat, version = address.partition("+")[2].split(".")[:3]
    assert f"to='play {game}.{seat}.{version}'" in output  # "mail received"
    assert "mail refused to='tampered play+" in output
    assert "rcpt TO:<play+" in output  # the SMTP server's own line
    assert signature not in output and signature[::-1] not in output


def test_a_message_with_a_null_envelope_sender_is_a_machines_and_plays_nothing(
    receiver: Receiver, address: str
) -> None:
    """``MAIL FROM:<>`` is what auto-responders and bounces send with (RFC 5321): an
    out-of-office that copies the e-mail's first line plays nothing and says nothing."""
    reply = read_address(address)
    assert isinstance(reply, ReplyAddress)
    text = "T\n\nI am out of the office until Monday."
    receiver.deliver(plain("alice@example.com", address, text), address, mail_from="")
    row = InboundMail.objects.get()
    assert row.envelope_from == ""  # stored as the empty sender it is, not "<>"
    assert wait_until(lambda: InboundMail.objects.get().status == "done", 30)
    row.refresh_from_db()
    assert row.outcome == InboundMail.Outcome.AUTOMATIC, (row.outcome, row.detail)
    assert Game.objects.get(pk=reply.game_id).version == reply.version
    assert not Message.objects.exists()
