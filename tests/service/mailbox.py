"""Replies as mail programs write them, to test play by mail with real messages.

``reply`` answers one of our e-mails as a player's mail program would: to its
Reply-To, with its subject, In-Reply-To and a fresh Message-ID, the player's text on
top and the e-mail quoted below in the style of a given program (Gmail and Outlook,
in English, French or German), a signature if asked, in any charset.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, make_msgid
from typing import Any

#: How each program introduces the quoted e-mail.
ATTRIBUTIONS = {
    "gmail-en": "On Tue, Nov 24, 2026 at 10:12 AM Russian Bank <games@localhost> wrote:",
    "gmail-fr": "Le mar. 24 nov. 2026 à 10:12, Russian Bank <games@localhost> a écrit :",
    "gmail-de": "Am Di., 24. Nov. 2026 um 10:12 Uhr schrieb Russian Bank <games@localhost>:",
    "thunderbird-fr": "Le 24/11/2026 à 10:12, Russian Bank a écrit :",
    "apple-de": "Am 24.11.2026 um 10:12 schrieb Russian Bank <games@localhost>:",
    "outlook-fr": (
        "________________________________\n"
        "De : Russian Bank <games@localhost>\n"
        "Envoyé : mardi 24 novembre 2026 10:12\n"
        "À : marie@example.com\n"
        "Objet : Your turn"
    ),
    "outlook-de": (
        "________________________________\n"
        "Von: Russian Bank <games@localhost>\n"
        "Gesendet: Dienstag, 24. November 2026 10:12\n"
        "An: hans@example.com\n"
        "Betreff: Your turn"
    ),
}


def text_of(message: Message) -> str:
    assert isinstance(message, EmailMessage)
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def quoted(original: Message, style: str) -> str:
    lines = text_of(original).splitlines()
    body = "\n".join(lines) if style.startswith("outlook") else "\n".join(f"> {x}" for x in lines)
    return f"{ATTRIBUTIONS[style]}\n\n{body}\n"


def reply(
    original: Message,
    text: str,
    *,
    sender: str | None = None,
    style: str = "gmail-en",
    signature: str = "",
    charset: str = "utf-8",
    html_only: bool = False,
    headers: dict[str, str] | None = None,
    to: str | None = None,
) -> bytes:
    """A reply to ``original`` with ``text`` on top, as bytes on the wire."""
    sender = sender or str(original["To"])
    text = text.encode(charset, errors="replace").decode(charset)
    body = text + (f"\n\n-- \n{signature}" if signature else "") + "\n\n" + quoted(original, style)
    if html_only:
        html = (
            "<html><body><div dir='ltr'>"
            + "<br>".join(text.splitlines())
            + "</div><br><div class='gmail_quote'><div>"
            + ATTRIBUTIONS[style].replace("\n", "<br>")
            + "</div><blockquote>"
            + "<br>".join(text_of(original).splitlines())
            + "</blockquote></div></body></html>"
        )
        message: Message = MIMEText(html, "html", charset)
    else:
        message = MIMEMultipart("alternative")
        # What the charset cannot write (the cards' suits in Latin-1) becomes "?", as
        # mail programs do.
        body = body.encode(charset, errors="replace").decode(charset)
        message.attach(MIMEText(body, "plain", charset))
    message["From"] = sender
    message["To"] = to or str(original["Reply-To"] or original["From"])
    subject = str(original["Subject"])
    message["Subject"] = subject if subject.startswith("Re: ") else "Re: " + subject
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = make_msgid(uuid.uuid4().hex[:12], domain="player.example")
    if original["Message-ID"]:
        message["In-Reply-To"] = str(original["Message-ID"])
    for name, value in (headers or {}).items():
        message[name] = value
    return message.as_bytes()


def plain(sender: str, to: str, text: str, **headers: Any) -> bytes:
    """A message that answers nothing: ``text`` alone."""
    message = MIMEText(text, "plain", "utf-8")
    message["From"] = sender
    message["To"] = to
    message["Subject"] = headers.pop("subject", "hello")
    message["Message-ID"] = make_msgid(uuid.uuid4().hex[:12], domain="player.example")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    return message.as_bytes()


def delivery_report(
    failed: str, to: str, *, status: str = "5.1.1", action: str = "failed"
) -> bytes:
    """A delivery status notification (RFC 3464) saying ``failed`` could not be reached."""
    report = MIMEMultipart("report", report_type="delivery-status")
    report["From"] = "Mail Delivery System <MAILER-DAEMON@mx.example.net>"
    report["To"] = to
    report["Subject"] = "Undelivered Mail Returned to Sender"
    report["Message-ID"] = make_msgid("dsn", domain="mx.example.net")
    report["Auto-Submitted"] = "auto-replied"
    report.attach(MIMEText(f"Your message could not be delivered to {failed}.\n"))
    status_part = Message()
    status_part.set_type("message/delivery-status")
    per_message = Message()
    per_message["Reporting-MTA"] = "dns; mx.example.net"
    per_recipient = Message()
    per_recipient["Final-Recipient"] = f"rfc822; {failed}"
    per_recipient["Action"] = action
    per_recipient["Status"] = status
    per_recipient["Diagnostic-Code"] = f"smtp; 550 {status} <{failed}>: user unknown"
    status_part.set_payload([per_message, per_recipient])
    report.attach(status_part)
    return report.as_bytes()
