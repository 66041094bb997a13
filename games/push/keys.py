"""The server's VAPID key pair (RFC 8292): the identity a push service checks on every
push, and whose public half a browser is given when it subscribes.

Read from ``settings.VAPID_PRIVATE_KEY`` (PEM, or the raw key in base64url), else from
the file ``settings.VAPID_KEY_FILE`` that ``manage.py make_vapid_keys`` writes; never
kept in the repository. Without either, push is off (``enabled``).
"""

from __future__ import annotations

import base64
import functools
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid


def _text() -> str:
    if settings.VAPID_PRIVATE_KEY:
        return str(settings.VAPID_PRIVATE_KEY).strip()
    path = Path(settings.VAPID_KEY_FILE)
    return path.read_text(encoding="ascii").strip() if path.is_file() else ""


@functools.lru_cache(maxsize=4)
def _load(text: str) -> Vapid:
    if "-----BEGIN" in text:
        return Vapid.from_pem(text.encode())
    return Vapid.from_string(text)


def vapid() -> Vapid | None:
    """The key pair, or None when none is configured."""
    text = _text()
    return _load(text) if text else None


def enabled() -> bool:
    return vapid() is not None


def public_key() -> str:
    """The public key as browsers take it (``applicationServerKey``): the uncompressed
    P-256 point, base64url without padding; "" when push is off."""
    pair = vapid()
    if pair is None:
        return ""
    point = pair.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()


def new_private_pem() -> str:
    """A new P-256 private key, in PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return pem.decode()


def write_key_file(path: Path) -> None:
    """A new key in ``path``, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(new_private_pem())
