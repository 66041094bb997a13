"""The play-by-mail SMTP receiver (``mailplay.smtp``) running in the test process, as
``manage.py receive_mail`` runs it, and a client that delivers to it as an MX would."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from mailplay.smtp import controller

from .smtp import free_port


@dataclass(frozen=True)
class Receiver:
    port: int

    def deliver(self, raw: bytes, to: str, mail_from: str = "player@example.com") -> None:
        """Deliver ``raw`` to ``to``; raises smtplib's errors for a refusal. Lines end in
        CRLF on the wire, as every server sends them (smtplib leaves bytes as they are)."""
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        # A receiver that handles the reply before it answers (tasks run eagerly in a
        # test) may take long on a loaded machine: a refusal comes at once anyway.
        with smtplib.SMTP("127.0.0.1", self.port, timeout=120) as client:
            client.sendmail(mail_from, [to], raw)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    port = free_port()
    server = controller("127.0.0.1", port)
    server.start()
    try:
        yield Receiver(port)
    finally:
        server.stop()
        server.handler.close()
