"""A hosted provider's inbound webhook (django-anymail), feeding the inbound table.

Mailgun is wired (``/mail/inbound/mailgun/``, with ``MAILGUN_WEBHOOK_SIGNING_KEY``):
anymail checks the request's signature and hands us the message, raw MIME when the
route forwards it (``forward()`` to the URL ending ``/mime``, docs/play-by-mail.md).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from lib.logs import fields

from .receiving import receive

logger = logging.getLogger(__name__)


def received_by_provider(sender: object, event: Any, esp_name: str, **kwargs: Any) -> None:
    """anymail's ``inbound`` signal: store the message as the SMTP receiver would."""
    message = event.message
    raw = message.as_bytes()
    if len(raw) > settings.MAIL_MAX_BYTES:
        logger.warning("mail too large %s", fields(source=esp_name, size=len(raw)))
        return
    recipient = getattr(message, "envelope_recipient", None)
    receive(
        raw,
        source=esp_name.lower()[:16],
        envelope_from=getattr(message, "envelope_sender", None),
        envelope_to=[recipient] if recipient else [],
        keep_throttled=True,
    )
