"""The development mailbox: with no SMTP server (``make run``), each e-mail is kept as a
file under ``MAIL_FOLDER`` (``var/mail/<time>-<subject>.eml``) and the log gets one line
for it (its subject, recipients and file), instead of the whole message. The page
``/dev/mail/`` (DEBUG only) lists them newest first, each with its links, so a newcomer
finds the sign-up's confirmation link at once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage as ParsedMessage
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage
from django.utils.text import slugify

from .logs import fields

logger = logging.getLogger(__name__)

#: A kept e-mail's file name: its time (UTC, to the microsecond) and its subject.
NAME = re.compile(r"^\d{8}-\d{6}-\d{6}(?:-[a-z0-9-]{1,60})?(?:-\d+)?\.eml$")
#: A link in an e-mail's text.
LINK = re.compile(r"https?://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]")


def folder() -> Path:
    return Path(settings.MAIL_FOLDER)


class MailFolderBackend(BaseEmailBackend):
    """Django's e-mail backend that keeps each message in a file of its own."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        where = folder()
        where.mkdir(parents=True, exist_ok=True)
        kept = 0
        for message in email_messages:
            if not message.recipients():
                continue
            path = _new_file(where, str(message.subject))
            path.write_bytes(message.message().as_bytes())
            logger.info(
                "e-mail kept %s",
                fields(subject=message.subject, to=",".join(message.recipients()), path=path),
            )
            kept += 1
        return kept


def _new_file(where: Path, subject: str) -> Path:
    """A file of its own for a message: created here, so two processes never share one."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    slug = slugify(subject)[:60].strip("-")
    stem = f"{stamp}-{slug}" if slug else stamp
    for attempt in range(100):
        path = where / (f"{stem}.eml" if not attempt else f"{stem}-{attempt}.eml")
        try:
            path.open("xb").close()
        except FileExistsError:
            continue
        return path
    raise FileExistsError(where / f"{stem}.eml")


@dataclass(frozen=True)
class Kept:
    """A kept e-mail, as the mailbox page shows it."""

    name: str
    subject: str
    to: str
    date: str
    text: str
    html: str

    @property
    def links(self) -> list[str]:
        """Every link of its text part, once each, in order."""
        return list(dict.fromkeys(LINK.findall(self.text)))


def read(name: str) -> Kept | None:
    """The kept e-mail called ``name``, or None when there is none (or the name is not
    one this mailbox writes: nothing outside its folder is ever read)."""
    if not NAME.match(name):
        return None
    path = folder() / name
    if not path.is_file():
        return None
    parsed = message_from_bytes(path.read_bytes(), policy=policy.default)
    assert isinstance(parsed, ParsedMessage)
    return Kept(
        name=name,
        subject=str(parsed.get("Subject", "")),
        to=str(parsed.get("To", "")),
        date=str(parsed.get("Date", "")),
        text=_part(parsed, "plain"),
        html=_part(parsed, "html"),
    )


def _part(parsed: ParsedMessage, kind: str) -> str:
    body = parsed.get_body(preferencelist=(kind,))
    if body is None or body.get_content_subtype() != kind:
        return ""
    content = body.get_content()
    return content if isinstance(content, str) else ""


def kept(limit: int = 200) -> list[Kept]:
    """The newest kept e-mails first (their names start with their time)."""
    where = folder()
    if not where.is_dir():
        return []
    names = sorted((p.name for p in where.iterdir() if NAME.match(p.name)), reverse=True)
    return [message for name in names[:limit] if (message := read(name)) is not None]
