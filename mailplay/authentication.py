"""Who wrote a reply: its DKIM signature checked, and aligned with its From domain as
DMARC aligns it (RFC 6376, RFC 7489), by the service itself.

A reply address is the capability to play a seat, and the From check (the sender must
be the seat's player) stops a stolen or forwarded address only if the From cannot be
forged. A reply passes when one of its DKIM signatures verifies against the key its
domain publishes and that domain is the From domain's: the same organisational domain
(``mail.example.com`` signs for ``example.com``), or the very same one when the From
domain's DMARC record says ``adkim=s``. SPF is not read: it vouches for the server a
message came through, which a provider's webhook hides and forwarding changes, and a
DKIM signature travels with the message whichever way it came.

DNS is the edge of the world: ``dns_txt`` asks it, and a test puts a zone of its own in
its place. A lookup that fails for now (a timeout, a server failure) raises
``DnsUnavailable``: the message is tried again later, not refused.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import dkim
import dns.exception
import dns.resolver
from authheaders.dmarc_lookup import DMARCException, answer_to_dict, get_org_domain
from django.conf import settings

PASS = "pass"
FAIL = "fail"

#: Signatures looked at, at most: a message may pile up many, each costing a lookup.
MAX_SIGNATURES = 5

#: A name's TXT records, each one's strings joined; [] when it has none.
TxtLookup = Callable[[str], list[str]]


class DnsUnavailable(Exception):
    """DNS could not answer for now: the verdict must wait."""


@dataclass(frozen=True)
class Verdict:
    result: str  # PASS or FAIL
    detail: str  # in a line, for the record: "dkim=pass header.d=example.com aligned"


def dns_txt(name: str) -> list[str]:
    """``name``'s TXT records from DNS (dnspython, ``MAIL_DNS_TIMEOUT`` seconds)."""
    try:
        answer = dns.resolver.resolve(name, "TXT", lifetime=settings.MAIL_DNS_TIMEOUT)
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    except dns.exception.DNSException as error:  # a timeout, no server answering
        raise DnsUnavailable(f"{name}: {type(error).__name__}") from error
    return [b"".join(record.strings).decode("utf-8", "replace") for record in answer]


@functools.lru_cache(maxsize=4096)
def organisational_domain(domain: str) -> str:
    """``domain``'s registered domain, by the Public Suffix List authheaders ships:
    ``mail.example.co.uk`` -> ``example.co.uk``."""
    return str(get_org_domain(domain)).lower()


def dmarc_record(domain: str, txt: TxtLookup) -> dict[str, str]:
    """The DMARC record that governs ``domain`` (its own, else its organisational
    domain's), as tags; {} when none (or more than one, which counts as none)."""
    for name in dict.fromkeys([domain, organisational_domain(domain)]):
        records = [r for r in txt(f"_dmarc.{name}") if r.strip('" ').startswith("v=DMARC1")]
        if len(records) == 1:
            try:
                return dict(answer_to_dict(records[0]))
            except DMARCException:
                return {}
        if records:
            return {}
    return {}


def aligned(signer: str, author: str, txt: TxtLookup) -> bool:
    """Whether a signature by ``signer`` speaks for the From domain ``author``."""
    if signer == author:
        return True
    if organisational_domain(signer) != organisational_domain(author):
        return False
    return dmarc_record(author, txt).get("adkim", "r") != "s"


def verify(raw: bytes, sender: str, txt: TxtLookup | None = None) -> Verdict:
    """The verdict on ``raw``, whose From address is ``sender``. Raises
    ``DnsUnavailable`` when DNS cannot answer for now."""
    lookup = txt or dns_txt
    author = sender.rpartition("@")[2].strip().lower().rstrip(".")
    if not author:
        return Verdict(FAIL, "no From domain")

    def key_record(name: bytes, timeout: int = 5) -> bytes | None:  # dkimpy's dnsfunc
        records = lookup(name.decode("ascii", "replace").rstrip("."))
        return records[0].encode() if records else None

    try:
        message = dkim.DKIM(raw, minkey=1024)
    except dkim.DKIMException as error:  # headers dkimpy cannot read
        return Verdict(FAIL, f"unreadable: {str(error)[:80]}")
    count = sum(1 for name, _ in message.headers if name.lower() == b"dkim-signature")
    if not count:
        return Verdict(FAIL, "no DKIM signature")
    seen = []
    for index in range(min(count, MAX_SIGNATURES)):
        try:
            valid = message.verify(idx=index, dnsfunc=key_record)
        except dkim.DKIMException as error:
            seen.append(f"dkim=fail ({str(error)[:80]})")
            continue
        tags = message.signature_fields
        signer = tags.get(b"d", b"").decode("ascii", "replace").lower().rstrip(".")
        if not valid:
            seen.append(f"dkim=fail header.d={signer}")
        elif b"l" in tags:  # the body past l= is anyone's
            seen.append(f"dkim=pass header.d={signer} but l= leaves the body open")
        elif aligned(signer, author, lookup):
            return Verdict(PASS, f"dkim=pass header.d={signer} aligned with {author}")
        else:
            seen.append(f"dkim=pass header.d={signer} not aligned with {author}")
    return Verdict(FAIL, "; ".join(seen)[:300])
