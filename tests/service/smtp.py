"""A real SMTP server (aiosmtpd) in the test process, to read what was actually sent."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


class Inbox:
    """Collects every message the server accepts."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.fail_next = 0  # answer this many DATA commands with a temporary failure

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.fail_next:
            self.fail_next -= 1
            return "451 try again later"
        raw = envelope.content if isinstance(envelope.content, bytes) else b""
        message = message_from_bytes(raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in str(m["To"])]


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp_inbox(settings: Any) -> Iterator[Inbox]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    try:
        yield inbox
    finally:
        controller.stop()
