"""The signature of a webhook delivery, and the check a receiver makes (docs/webhooks.md).

Stripe's scheme: the header ``Rbank-Signature: t=<unix time>,v1=<hex>`` where the hex
is HMAC-SHA256, keyed with the webhook's secret, of ``f"{t}.{body}"`` (the body's
bytes as sent). The time is signed with the body, so a delivery recorded and sent
again later fails the check once ``tolerance`` seconds have passed; within them, a
receiver drops what it has already seen by the ``Rbank-Delivery`` header (or the
event's ``id``).

Nothing here but the standard library: a receiver may copy this file as it is.
"""

from __future__ import annotations

import hashlib
import hmac
import time

#: Seconds a signature stays valid, either way (clocks differ a little).
TOLERANCE = 300


class SignatureError(Exception):
    """The delivery is not to be trusted: the message says why."""


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of ``"<timestamp>.<body>"`` keyed with ``secret``."""
    signed = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, timestamp: int | None = None) -> str:
    """The ``Rbank-Signature`` header's value for ``body`` sent now (or at ``timestamp``)."""
    t = int(time.time()) if timestamp is None else timestamp
    return f"t={t},v1={signature(secret, t, body)}"


def verify(
    secret: str,
    header: str,
    body: bytes,
    *,
    now: float | None = None,
    tolerance: int = TOLERANCE,
) -> int:
    """Check an ``Rbank-Signature`` header against the body received; returns its
    timestamp, or raises ``SignatureError``.

    The body must be the bytes as received, before any JSON parsing. Any ``v1`` value
    may match (there is one; a later change of secret may send two), compared in
    constant time; the timestamp must be within ``tolerance`` seconds of ``now``.
    """
    timestamp: int | None = None
    candidates: list[str] = []
    for item in header.split(","):
        key, _, value = item.strip().partition("=")
        if key == "t" and value.isascii() and value.isdigit():
            timestamp = int(value)
        elif key == "v1":
            candidates.append(value)
    if timestamp is None or not candidates:
        raise SignatureError("no timestamp or no v1 signature in the header")
    expected = signature(secret, timestamp, body)
    if not any(hmac.compare_digest(expected.encode(), c.encode()) for c in candidates):
        raise SignatureError("the signature does not match the body")
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        raise SignatureError(
            f"the timestamp is {int(current - timestamp)} s old, outside the tolerance "
            f"of {tolerance} s (a replay?)"
        )
    return timestamp
