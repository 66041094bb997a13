"""Taking a message in: stored in the inbound table, then handed to a worker.

Both ways in call ``receive``: the SMTP receiver (``mailplay.smtp``) and a hosted
provider's webhook (``mailplay.webhooks``). A message is stored before anything is
done with it, and its task is queued once the row is committed; a task the broker
cannot take is left to the minute sweep. The same message received again (by its
Message-ID, or its digest) is counted on the first row and never stored twice.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from games.notify.mail_play import address_label, read_address
from lib.logs import fields
from lib.outbox import dispatch_on_commit

from .models import InboundMail
from .reading import (
    address_of,
    digest,
    envelope_sender,
    header,
    message_id,
    parse,
    recipients_of,
)

logger = logging.getLogger(__name__)

HANDLE_INBOUND = "mailplay.tasks.handle_inbound"

STORED = "stored"
DUPLICATE = "duplicate"
THROTTLED = "throttled"


@dataclass(frozen=True)
class Receipt:
    status: str  # STORED, DUPLICATE or THROTTLED
    row: InboundMail | None
    sender: str


def ours(addresses: Sequence[str]) -> str:
    """The first of ``addresses`` that is one of our play or bounce addresses, else ""."""
    for address in addresses:
        if read_address(address) is not None:
            return address.strip().strip("<>").lower()
    return ""


def over_the_limit(sender: str, recipient: str) -> bool:
    """Whether ``sender`` has sent MAIL_RATE_PER_HOUR messages to ``recipient`` in the
    last hour. Keyed by both: a sender's address can be forged, but a reply address
    is known only to whoever got our e-mail, so a flood under a player's name cannot
    use up the quota of the reply address their next e-mail brings."""
    since = timezone.now() - timedelta(hours=1)
    recent = InboundMail.objects.filter(sender=sender, recipient=recipient, received_at__gte=since)
    return recent.count() >= settings.MAIL_RATE_PER_HOUR


def receive(
    raw: bytes,
    *,
    source: str,
    envelope_from: str | None,
    envelope_to: Sequence[str] = (),
    keep_throttled: bool = False,
) -> Receipt:
    """Store ``raw`` and queue its handling. A sender over the hourly limit is not
    stored (``THROTTLED``: the SMTP receiver asks their server to try again later),
    unless ``keep_throttled`` (a webhook, which cannot be asked that): then it is
    recorded as throttled and never acted on."""
    try:
        message = parse(raw)
        sender = address_of(header(message, "From"))[:254]
        mid = message_id(message)
        subject = header(message, "Subject")[:200]
        recipient = ours(recipients_of(message, list(envelope_to)))[:254]
    except (RecursionError, LookupError, ValueError, IndexError, TypeError):
        # Stored all the same, for the record: its handling finds it malformed.
        sender, mid, subject, recipient = "", "", "", ours(list(envelope_to))[:254]
    fingerprint = digest(raw)
    same = Q(digest=fingerprint) | (Q(message_id=mid) if mid else Q(pk__in=[]))
    with transaction.atomic():
        if InboundMail.objects.filter(same).update(duplicates=F("duplicates") + 1):
            logger.info("mail again %s", fields(message_id=mid or "-", sender=sender))
            return Receipt(DUPLICATE, None, sender)
        throttled = over_the_limit(sender, recipient)
        if throttled and not keep_throttled:
            logger.warning("mail throttled %s", fields(sender=sender, source=source))
            return Receipt(THROTTLED, None, sender)
        try:
            with transaction.atomic():
                row = InboundMail.objects.create(
                    source=source,
                    message_id=mid,
                    digest=fingerprint,
                    envelope_from=(envelope_sender(envelope_from) or "")[:254],
                    recipient=recipient,
                    sender=sender,
                    subject=subject,
                    raw=raw,
                    size=len(raw),
                    **(
                        {
                            "status": InboundMail.Status.DONE,
                            "outcome": InboundMail.Outcome.THROTTLED,
                            "next_attempt_at": None,
                            "handled_at": timezone.now(),
                        }
                        if throttled
                        else {}
                    ),
                )
        except IntegrityError:  # the same message, stored by a concurrent delivery
            return Receipt(DUPLICATE, None, sender)
        logger.info(
            "mail received %s",
            fields(
                id=row.pk,
                source=source,
                sender=sender,
                to=address_label(row.recipient),
                size=row.size,
            ),
        )
        if not throttled:
            dispatch_on_commit(HANDLE_INBOUND, row.pk)
    return Receipt(THROTTLED if throttled else STORED, row, sender)
