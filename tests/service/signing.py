"""Real DKIM keys and signatures for the tests, and a DNS zone to publish them in.

A key is a fresh RSA key (1024 bits, primes by Miller-Rabin from ``secrets``); its
public half is published as a mail domain does (``<selector>._domainkey.<domain>``, a
``v=DKIM1`` record holding the SubjectPublicKeyInfo), and dkimpy signs with its private
half (PKCS#1) exactly as a mail provider's server would. ``Zone`` stands for DNS, the
edge of the world: ``mailplay.authentication.dns_txt`` is replaced by its ``txt``.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field

import dkim

from mailplay.authentication import DnsUnavailable

#: Headers a provider signs (From always: DKIM requires it).
SIGNED = [b"from", b"to", b"subject", b"date", b"message-id", b"in-reply-to", b"content-type"]


def _probably_prime(n: int, rounds: int = 32) -> bool:
    if n < 2 or any(n % p == 0 for p in (2, 3, 5, 7, 11, 13)):
        return n in (2, 3, 5, 7, 11, 13)
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for _ in range(rounds):
        x = pow(secrets.randbelow(n - 3) + 2, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(bits: int) -> int:
    while True:
        candidate = secrets.randbits(bits) | (1 << (bits - 1)) | (1 << (bits - 2)) | 1
        if _probably_prime(candidate):
            return candidate


def _der(tag: int, content: bytes) -> bytes:
    size = len(content)
    if size < 0x80:
        return bytes([tag, size]) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def _integer(value: int) -> bytes:
    return _der(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))


def _sequence(*parts: bytes) -> bytes:
    return _der(0x30, b"".join(parts))


#: The algorithm identifier of rsaEncryption (OID 1.2.840.113549.1.1.1, no parameters).
_RSA_ENCRYPTION = _sequence(bytes.fromhex("06092a864886f70d010101"), b"\x05\x00")


@dataclass(frozen=True)
class Key:
    private_pem: bytes
    public_record: str  # the TXT record a domain publishes for it

    @classmethod
    def new(cls, bits: int = 1024) -> Key:
        e = 65537
        while True:
            p, q = _prime(bits // 2), _prime(bits // 2)
            phi = (p - 1) * (q - 1)
            if p != q and phi % e:
                break
        n, d = p * q, pow(e, -1, phi)
        private = _sequence(
            *map(_integer, (0, n, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p)))
        )
        public = _sequence(_integer(n), _integer(e))
        info = _sequence(_RSA_ENCRYPTION, _der(0x03, b"\x00" + public))
        body = base64.encodebytes(private).replace(b"\n", b"")
        lines = b"\n".join(body[i : i + 64] for i in range(0, len(body), 64))
        pem = b"-----BEGIN RSA PRIVATE KEY-----\n" + lines + b"\n-----END RSA PRIVATE KEY-----\n"
        return cls(pem, "v=DKIM1; k=rsa; p=" + base64.b64encode(info).decode())

    def sign(self, raw: bytes, domain: str, selector: str = "mail", **options: object) -> bytes:
        """``raw`` with the DKIM-Signature its domain's server would put on top (its
        lines ending as ``raw``'s do)."""
        header = dkim.sign(
            raw,
            selector.encode(),
            domain.encode(),
            self.private_pem,
            include_headers=SIGNED,
            linesep=b"\r\n" if b"\r\n" in raw else b"\n",
            **options,
        )
        assert header, "dkimpy signed nothing"
        return bytes(header) + raw


@dataclass
class Zone:
    """The TXT records of a few names; a name in ``down`` fails as a DNS timeout does."""

    records: dict[str, list[str]] = field(default_factory=dict)
    down: set[str] = field(default_factory=set)
    asked: list[str] = field(default_factory=list)

    def publish(self, name: str, *texts: str) -> None:
        self.records.setdefault(name.lower(), []).extend(texts)

    def publish_key(self, key: Key, domain: str, selector: str = "mail") -> None:
        self.publish(f"{selector}._domainkey.{domain}", key.public_record)

    def txt(self, name: str) -> list[str]:
        name = name.lower().rstrip(".")
        self.asked.append(name)
        if name in self.down:
            raise DnsUnavailable(f"{name}: Timeout")
        return list(self.records.get(name, []))
