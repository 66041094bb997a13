"""The SMTP receiver (aiosmtpd): where an MX delivers the replies of play by mail.

It runs as its own process (``manage.py receive_mail``; ``make run`` starts it on
127.0.0.1:2525, ``docker/compose.yml`` as the ``mail`` service). It takes mail only
for our own play and bounce addresses: any other recipient, or one of ours whose
signature is wrong, is refused at RCPT (550), so the sending server, not we, tells
its sender. A message over ``MAIL_MAX_BYTES`` is refused at DATA (552). A taken
message is stored in the inbound table before the receiver says 250, and handed to
a worker; if it cannot be stored (the database is down) or its sender is over the
hourly limit, the answer is 451 and the sending server tries again later: nothing
is lost either way.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.conf import settings
from django.db import connection

from games.notify.mail_play import Tampered, address_label, read_address
from lib.logs import fields

from .receiving import STORED, THROTTLED, Receipt, receive

logger = logging.getLogger(__name__)


def store(raw: bytes, mail_from: str | None, rcpt_tos: list[str]) -> Receipt:
    """``receive`` in a thread of the receiver's pool, on a connection of its own that
    it closes: a pool thread never keeps one open between messages (a few a minute),
    so none goes stale or outlives the receiver."""
    try:
        return receive(raw, source="smtp", envelope_from=mail_from, envelope_to=rcpt_tos)
    finally:
        connection.close()


class Receiver:
    """aiosmtpd's handler: the checks of RCPT and DATA, and the storing."""

    def __init__(self, workers: int = 4) -> None:
        # The ORM is synchronous: each message is stored in a thread of this pool, so
        # the event loop goes on serving the other connections meanwhile.
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mail-store")

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        found = read_address(address)
        if found is None or isinstance(found, Tampered):
            logger.info("mail refused %s", fields(to=address_label(address)))
            return f"550 5.1.1 <{address[:100]}>: no such play-by-mail address here"
        if envelope.rcpt_tos:
            # One of our addresses a message, each stored and acted on alone: the
            # sending server delivers the others in messages of their own.
            return "452 4.5.3 one play-by-mail address a message: send the others apart"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content
        if not isinstance(raw, bytes):
            raw = str(raw).encode("utf-8", errors="replace")
        loop = asyncio.get_running_loop()
        try:
            receipt = await loop.run_in_executor(
                self.pool, store, raw, envelope.mail_from, list(envelope.rcpt_tos)
            )
        except Exception as error:  # the database is away: the sender's server retries
            logger.error("mail not stored %s", fields(error=repr(error)[:200]))
            return "451 4.3.0 the message could not be stored now: try again later"
        if receipt.status == THROTTLED:
            return f"451 4.7.1 too many messages from {receipt.sender[:100]} this hour: try later"
        return "250 2.0.0 OK: received" if receipt.status == STORED else "250 2.0.0 OK: had it"

    def close(self) -> None:
        self.pool.shutdown(wait=True)


def controller(host: str, port: int, **kwargs: Any) -> Controller:
    """The receiver's server, ready to ``start()`` (in a thread of its own). With
    ``MAIL_TLS_CERT`` and ``MAIL_TLS_KEY`` it offers STARTTLS."""
    if settings.MAIL_TLS_CERT and settings.MAIL_TLS_KEY:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(settings.MAIL_TLS_CERT, settings.MAIL_TLS_KEY)
        kwargs.setdefault("tls_context", context)
    return Controller(
        Receiver(),
        hostname=host,
        port=port,
        data_size_limit=settings.MAIL_MAX_BYTES,
        ident="Russian Bank play by mail",
        **kwargs,
    )
