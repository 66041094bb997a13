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
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr

from bs4 import BeautifulSoup
from mailparser_reply import EmailReplyParser
from mailparser_reply.parser import EmailMessage as ParsedText

#: The reply styles recognised: the site's languages and their neighbours'.
REPLY_LANGUAGES = ["en", "fr", "de", "es", "it", "nl"]

#: Headers whose presence marks a message made by a machine (RFC 3834 and what the
#: common auto-responders add), and ``Precedence`` values that do.
_AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Autoresponder", "List-Id")
_AUTOMATIC_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply"})
#: How the common auto-responders begin their subjects (those that add no header).
_AUTOMATIC_SUBJECTS = (
    "out of office",
    "automatic reply",
    "auto:",
    "autoreply",
    "auto-reply",
    "réponse automatique",
    "absence",
    "abwesenheitsnotiz",
    "automatische antwort",
    "respuesta automática",
)
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


def envelope_sender(value: str | None) -> str | None:
    """The SMTP envelope sender as an address: "" for the null sender, however it came
    (``<>``, the SMTP server's spelling, or ""), None when unknown (a provider's
    webhook may not say)."""
    return None if value is None else value.strip().strip("<>").strip().lower()


def message_id(message: Message) -> str:
    return header(message, "Message-ID").strip().strip("<>")[:255]


def digest(raw: bytes) -> str:
    """SHA-256 of the message without its trace headers (read as raw header lines, so
    that no message is too strange to be told apart from another)."""
    raw = raw.replace(b"\r\n", b"\n")
    head, _, body = raw.partition(b"\n\n")
    fields: list[bytes] = []
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1] += b" " + line.strip()  # a folded header goes on
        else:
            fields.append(line.strip())
    kept = [
        f
        for f in fields
        if f.partition(b":")[0].strip().lower().decode(errors="replace") not in _TRACE
    ]
    return hashlib.sha256(b"\n".join(kept) + b"\n\n" + body).hexdigest()


def recipients_of(message: Message, envelope: list[str]) -> tuple[str, ...]:
    named = []
    for name in ("Delivered-To", "X-Original-To", "To", "Cc"):
        try:
            named += [address for _, address in getaddresses(message.get_all(name, []) or [])]
        except (ValueError, IndexError, TypeError):  # a header the parser cannot make out
            continue
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
    subject = header(message, "Subject").lower()
    if subject.startswith(_AUTOMATIC_SUBJECTS):
        return f"Subject: {subject[:40]}"
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


def _decoded(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "us-ascii"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        return payload.decode("utf-8", errors="replace")


#: Bounds on what is parsed: a reply's command is in its first lines, and a parser's
#: cost must not grow with what a hostile message puts after them.
HTML_LIMIT = 100_000
TEXT_LIMIT = 4_000


def html_text(html: str) -> str:
    """An HTML body as the text it shows, quoted history (blockquotes and the reply
    programs' quote markers) left out; each block and line break on its own line."""
    # Line breaks as text first (one pass over the string, where Beautiful Soup would
    # take one pass per tag replaced), so that an empty line still ends the moves.
    html = re.sub(r"<br\s*/?>", "\n", html[:HTML_LIMIT], flags=re.IGNORECASE)
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "head", "blockquote"]):
        tag.decompose()
    for marker in soup.select(".gmail_quote, #divRplyFwdMsg, #appendonsend, .moz-cite-prefix"):
        # Where the quoted message starts: it and everything after it go.
        for later in list(marker.find_all_next()):
            later.decompose()
        marker.decompose()
    return soup.get_text("\n")


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


@dataclass(frozen=True)
class OwnText:
    """What the player wrote in a reply: ``text``, without what it quotes, and whether
    it quoted anything (the e-mail answered, or lines marked ``>``)."""

    text: str
    quoted: bool


#: A line a mail program quotes: "> ", however deep.
_QUOTED_LINE = re.compile(r"^[ \t]*>.*$", re.MULTILINE)


def new_text(text: str) -> OwnText:
    """What the player wrote in this reply, without what it quotes: every line marked
    ``>`` (with or without an "On ... wrote:" line above it), and the quoted e-mail
    below such a line or an Outlook header block. Its signature is left to the reader
    of the message under the moves (``split_signature``): a signature is guessed, and
    what is left out for one is said in the answer. Runs of blanks and of empty lines
    are folded and only the first ``TEXT_LIMIT`` characters are read: the reply
    parser's time grows fast with such runs."""
    text = re.sub(r"[ \t\r\f\v]+", " ", text)
    unquoted = _QUOTED_LINE.sub("", text)  # a quoted block becomes a blank line
    quoted_lines = unquoted != text
    text = re.sub(r"\n( ?\n)+", "\n\n", unquoted)[:TEXT_LIMIT]
    replies = EmailReplyParser(languages=list(REPLY_LANGUAGES)).read(text).replies
    if not replies:
        return OwnText("", quoted_lines)
    # The first part is the player's (the parser drops a part left empty: the quote's
    # header at the very top, when the player wrote below the quoted e-mail).
    first = replies[0]
    return OwnText(first.full_body, quoted_lines or len(replies) > 1 or bool(first.headers))


def split_signature(message: str) -> tuple[str, str]:
    """``message`` (the text under a reply's moves) as what the player says and what
    looks like their signature: from a ``--`` line, a mail program's "Sent from my ..."
    line, or a closing such as "Best regards," / "Viele Grüße" after the first line,
    to the end. A message that opens with such words ("Thanks, great game!") is a
    message: only its later lines can be a signature."""
    parser = ParsedText(text=message, languages=list(REPLY_LANGUAGES), keep_hyphen_lists=True)
    found = parser.SIGNATURE_REGEX.search(parser.text)
    if found is None:
        return message.strip(), ""
    return parser.text[: found.start()].strip(), found.group().strip()


class Malformed(ValueError):
    """A message Python's e-mail package cannot read at all (nested beyond its limits)."""


def parsed(raw: bytes | EmailMessage) -> EmailMessage:
    """``raw`` as a message (parsed once by a caller that reads it twice). Raises
    ``Malformed``."""
    if isinstance(raw, EmailMessage):
        return raw
    try:
        return parse(raw)
    except (RecursionError, LookupError, ValueError, IndexError, TypeError) as error:
        raise Malformed(f"{type(error).__name__}: {error}"[:200]) from error


def read(
    raw: bytes | EmailMessage,
    envelope_from: str | None = None,
    envelope_to: list[str] | None = None,
) -> Letter:
    """``raw``'s headers as a ``Letter`` (its text is read apart, by ``own_text``, once
    the message is known to deserve it). ``envelope_from`` is the SMTP sender ("" or
    ``<>`` for the null sender of bounces and auto-replies, None when unknown). Raises
    ``Malformed``."""
    envelope_from = envelope_sender(envelope_from)
    message = parsed(raw)
    try:
        return Letter(
            message_id=message_id(message),
            sender=address_of(header(message, "From")),
            subject=header(message, "Subject")[:200],
            recipients=recipients_of(message, envelope_to or []),
            automatic=automatic(message, envelope_from),
            bounce=bounce_of(message, envelope_from),
        )
    except (RecursionError, LookupError, ValueError, IndexError, TypeError) as error:
        raise Malformed(f"{type(error).__name__}: {error}"[:200]) from error


def own_text(raw: bytes | EmailMessage) -> OwnText:
    """What the player wrote in this message (``new_text`` of its body)."""
    message = parsed(raw)
    try:
        return new_text(body_text(message))
    except (RecursionError, LookupError, ValueError, IndexError, TypeError) as error:
        raise Malformed(f"{type(error).__name__}: {error}"[:200]) from error
