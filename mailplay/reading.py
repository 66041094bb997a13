"""Reading a received message: who sent it, whether a machine did, and the player's
own new text.

Only what the player wrote now is read: the quoted history, the "On ... wrote:" /
"Le ... a écrit :" / "Am ... schrieb ..." blocks and the signatures are stripped by
mail-parser-reply, which knows the reply styles of the common mail programs in many
languages. An HTML-only message is read as text (Beautiful Soup). Any charset and
transfer encoding Python's e-mail package knows is decoded; an unknown charset is
read as UTF-8 with replacement characters rather than refused.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr

import authres
from bs4 import BeautifulSoup
from django.conf import settings
from mailparser_reply import EmailReplyParser

#: The reply styles recognised: the site's languages and their neighbours'.
REPLY_LANGUAGES = ["en", "fr", "de", "es", "it", "nl"]

#: Headers whose presence marks a message made by a machine (RFC 3834 and what the
#: common auto-responders add), and ``Precedence`` values that do.
_AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "List-Id")
_AUTOMATIC_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply"})
#: Senders no person reads: never answered, whatever the rest of the message says.
_MACHINE_SENDERS = frozenset({"mailer-daemon", "postmaster", "noreply", "no-reply", "donotreply"})
#: Trace headers each relay adds: left out of a message's digest, so a copy that came
#: another way is still the same message.
_TRACE = frozenset(
    {"received", "return-path", "delivered-to", "x-original-to", "authentication-results"}
)


@dataclass(frozen=True)
class Bounce:
    """A delivery report: the address that failed, and whether for good."""

    recipient: str
    permanent: bool
    reason: str


@dataclass(frozen=True)
class Letter:
    message_id: str
    sender: str  # the From address, lower case
    subject: str
    #: Every address the message names as its recipients, ours among them.
    recipients: tuple[str, ...]
    #: Why it was written by a machine ("Auto-Submitted: auto-replied"), or "".
    automatic: str
    bounce: Bounce | None
    #: "pass", "fail" or "none": what the receiving side's Authentication-Results say.
    authentication: str
    #: The player's own new text: no quoted history, no signature.
    text: str


def parse(raw: bytes) -> EmailMessage:
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def header(message: Message, name: str) -> str:
    """A header's value as text, "" when absent or beyond repair."""
    try:
        value = message.get(name)
    except (ValueError, IndexError, TypeError):  # a header the parser cannot make out
        return ""
    return " ".join(str(value).split()) if value is not None else ""


def address_of(value: str) -> str:
    return parseaddr(value)[1].strip().lower()


def message_id(message: Message) -> str:
    return header(message, "Message-ID").strip().strip("<>")[:255]


def digest(raw: bytes) -> str:
    """SHA-256 of the message without its trace headers."""
    message = message_from_bytes(raw, policy=policy.compat32)
    kept = [(name, str(value)) for name, value in message.items() if name.lower() not in _TRACE]
    head = "\n".join(f"{name}: {' '.join(value.split())}" for name, value in kept)
    _, _, body = raw.partition(b"\r\n\r\n") if b"\r\n\r\n" in raw else raw.partition(b"\n\n")
    return hashlib.sha256(head.encode(errors="replace") + b"\n\n" + body).hexdigest()


def recipients_of(message: Message, envelope: list[str]) -> tuple[str, ...]:
    named = [
        address
        for name in ("Delivered-To", "X-Original-To", "To", "Cc")
        for _, address in getaddresses(message.get_all(name, []) or [])
    ]
    return tuple(dict.fromkeys(a.strip().lower() for a in [*envelope, *named] if a))


def automatic(message: Message, envelope_from: str | None) -> str:
    """Why ``message`` is a machine's (an auto-reply, a list, a receipt), or ""."""
    auto = header(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    for name in _AUTOMATIC_HEADERS:
        if message.get(name) is not None:
            return f"{name} header"
    precedence = header(message, "Precedence").lower()
    if precedence in _AUTOMATIC_PRECEDENCE:
        return f"Precedence: {precedence}"
    if message.get_content_type() == "multipart/report":
        return f"a report ({message.get_param('report-type') or 'unknown'})"
    if address_of(header(message, "From")).partition("@")[0] in _MACHINE_SENDERS:
        return "sent by " + address_of(header(message, "From"))
    if envelope_from == "":
        return "an empty envelope sender"
    return ""


def bounce_of(message: Message, envelope_from: str | None) -> Bounce | None:
    """The failed recipient of a delivery status notification (RFC 3464), if it is one."""
    is_report = message.get_content_type() == "multipart/report"
    if not is_report or message.get_param("report-type") != "delivery-status":
        sender = address_of(header(message, "From"))
        if envelope_from != "" or not sender.startswith(("mailer-daemon@", "postmaster@")):
            return None
        return Bounce(recipient="", permanent=False, reason=header(message, "Subject"))
    for part in message.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        for block in blocks[1:] if isinstance(blocks, list) else []:
            if not isinstance(block, Message):
                continue
            action = header(block, "Action").lower()
            status = header(block, "Status")
            recipient = header(block, "Final-Recipient") or header(block, "Original-Recipient")
            reason = header(block, "Diagnostic-Code") or status
            if action == "failed" or status.startswith("5"):
                return Bounce(address_of(recipient.partition(";")[2]), True, reason)
            if action:
                return Bounce(address_of(recipient.partition(";")[2]), False, reason)
    return Bounce(recipient="", permanent=False, reason="a delivery report")


def authentication(message: Message) -> str:
    """The receiving side's verdict: "fail" when DMARC fails, or, without a DMARC
    result, when SPF or DKIM fails and neither passes; "pass" when one passes; "none"
    without a result to read. Only the headers of ``MAIL_AUTHSERV_ID`` count (a sender
    can write such a header too); without that setting, the topmost, which the last
    server to receive it added."""
    values = [str(v) for v in message.get_all("Authentication-Results", []) or []]
    results: dict[str, str] = {}
    for value in values if settings.MAIL_AUTHSERV_ID else values[:1]:
        try:
            parsed = authres.AuthenticationResultsHeader.parse_value(" ".join(value.split()))
        except Exception:  # authres raises its own SyntaxError and others on junk
            continue
        if settings.MAIL_AUTHSERV_ID and parsed.authserv_id != settings.MAIL_AUTHSERV_ID:
            continue
        for result in parsed.results:
            results.setdefault(str(result.method).lower(), str(result.result).lower())
    failing = {"fail", "softfail", "permerror"}
    if results.get("dmarc") == "pass":
        return "pass"
    if results.get("dmarc") in failing:
        return "fail"
    if "pass" in (results.get("dkim"), results.get("spf")):
        return "pass"
    if results.get("dkim") in failing or results.get("spf") in failing:
        return "fail"
    return "none"


def _decoded(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "us-ascii"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        return payload.decode("utf-8", errors="replace")


_BLOCKS = ("p", "div", "li", "tr", "table", "h1", "h2", "h3", "h4", "pre", "blockquote")


def html_text(html: str) -> str:
    """An HTML body as the text it shows, quoted history (blockquotes) left out."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "head", "blockquote"]):
        tag.decompose()
    for tag in soup.select(".gmail_quote, #divRplyFwdMsg, #appendonsend, .moz-cite-prefix"):
        # The reply programs' own markers of where the quoted message starts.
        for later in list(tag.find_all_next()):
            later.decompose()
        tag.decompose()
    for br in soup.find_all("br"):
        br.replace_with("\n")
    for block in soup.find_all(_BLOCKS):
        block.insert_after("\n")
    return soup.get_text()


def body_text(message: EmailMessage) -> str:
    """The message's text: its plain part, else its HTML part as text."""
    plain = message.get_body(preferencelist=("plain",))
    if plain is not None:
        return _decoded(plain)
    html = message.get_body(preferencelist=("html",))
    if html is not None:
        return html_text(_decoded(html))
    if message.get_content_maintype() == "text":
        return _decoded(message)
    return ""


def new_text(text: str) -> str:
    """What the player wrote in this reply, without what it quotes or its signature."""
    replies = EmailReplyParser(languages=list(REPLY_LANGUAGES)).read(text).replies
    return replies[0].body if replies else ""


def read(
    raw: bytes, envelope_from: str | None = None, envelope_to: list[str] | None = None
) -> Letter:
    """``raw`` as a ``Letter``. ``envelope_from`` is the SMTP sender ("" for a bounce's
    empty one, None when unknown)."""
    message = parse(raw)
    bounce = bounce_of(message, envelope_from)
    auto = automatic(message, envelope_from)
    return Letter(
        message_id=message_id(message),
        sender=address_of(header(message, "From")),
        subject=header(message, "Subject")[:200],
        recipients=recipients_of(message, envelope_to or []),
        automatic=auto,
        bounce=bounce,
        authentication=authentication(message),
        text="" if auto or bounce else new_text(body_text(message)),
    )
