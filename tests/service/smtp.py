"""A real SMTP server (aiosmtpd) in the test process, to read what was actually sent.

It can also misbehave as real servers do: refuse a message for a while (4xx), refuse
an address for good (5xx), or take a message and never answer (``hang_data``).
``silent_smtp`` is a server that accepts connections and never says a word.
"""

from __future__ import annotations

import asyncio
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
        #: Addresses refused at RCPT, with the answer (e.g. "550 5.1.1 no such user").
        self.refuse: dict[str, str] = {}
        #: While set, DATA is taken and never answered (until the client gives up).
        self.hang_data = False
        self.data_commands = 0  # every DATA the server read, delivered or not

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.data_commands += 1
        while self.hang_data:
            await asyncio.sleep(0.05)
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


@pytest.fixture
def silent_smtp() -> Iterator[int]:
    """The port of a server that hangs: the kernel accepts its connections (they wait
    in the listening socket's backlog) but nothing ever answers, not even the greeting."""
    with socket.create_server(("127.0.0.1", 0), backlog=256) as listener:
        yield int(listener.getsockname()[1])
