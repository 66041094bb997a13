"""Which URLs a webhook may have, and which addresses a delivery may connect to.

A webhook makes the server send requests where a player says: without a guard it
would probe the server's own network (its database, the cloud's metadata service at
169.254.169.254, an admin page on the loopback). So, unless
``settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES`` (on under DEBUG and in tests):

- at registration, the URL's host must resolve, and only to public addresses;
- at each delivery the host is resolved again, checked again, and the connection made
  to the address checked (never resolved a second time by the HTTP client), so a
  name whose DNS answer changes in between (DNS rebinding) cannot reach inside.

``settings.WEBHOOK_REQUIRE_HTTPS`` (on outside DEBUG) refuses plain ``http``.
A URL's syntax is one pattern (``URL_PATTERN``), which the API's schema states too.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

MAX_URL_LENGTH = 2000

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_PORT = r"(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])"
#: Printable ASCII but ``#`` (no fragment: it is never sent).
_TARGET = r"[\x21\x22\x24-\x7e]*"
#: ``http(s)://host[:port][/path][?query]``: a host name (ASCII: an international one in
#: its ``xn--`` form) or an IPv4 address, no user or password, no fragment.
URL_PATTERN = rf"^https?://{_LABEL}(?:\.{_LABEL})*(?::{_PORT})?(?:/{_TARGET})?(?:\?{_TARGET})?$"


class Refused(Exception):
    """The URL or its host may not be used; the message says why, for its owner, in the
    active language (the request's at registration; English at delivery, which stores
    it)."""


@dataclass(frozen=True)
class Target:
    """Where a delivery goes: the URL's parts, and the addresses checked to connect to."""

    scheme: str
    host: str
    port: int
    path: str  # the request target: path and query
    addresses: list[str]  # checked, tried in order

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        return self.host if self.port == default else f"{self.host}:{self.port}"


def check_syntax(url: str) -> None:
    """Raise ``Refused`` unless ``url`` is one the pattern allows."""
    if len(url) > MAX_URL_LENGTH:
        raise Refused(
            _("the URL is longer than %(length)s characters") % {"length": MAX_URL_LENGTH}
        )
    if not re.fullmatch(URL_PATTERN, url):
        raise Refused(
            _(
                "not a URL a webhook can have: http:// or https://, a host name, an optional "
                "port, path and query; no user, password or #fragment"
            )
        )


def check_scheme(url: str) -> None:
    if settings.WEBHOOK_REQUIRE_HTTPS and not url.startswith("https://"):
        raise Refused(_("the URL must start with https://"))


def check_url(url: str) -> None:
    """At registration: the syntax, HTTPS if required, and (unless private addresses
    are allowed) a host that resolves to public addresses only."""
    check_syntax(url)
    check_scheme(url)
    if not settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        parts = urlsplit(url)
        resolve(parts.hostname or "", parts.port or 443)


def target(url: str) -> Target:
    """At delivery: where to connect, checked now (raises ``Refused``)."""
    check_syntax(url)
    check_scheme(url)
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    port = parts.port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path, resolve(host, port))


def is_public(address: str) -> bool:
    """Whether ``address`` is on the public internet: not loopback, private, link-local
    (cloud metadata), shared, multicast, reserved or unspecified; an IPv4 address
    written as IPv6 (``::ffff:127.0.0.1``, 6to4, Teredo) is judged as itself."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None and not is_public(str(embedded)):
            return False
    return ip.is_global and not (
        ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_private
    )


def resolve(host: str, port: int) -> list[str]:
    """The addresses of ``host``, each public unless private addresses are allowed;
    raises ``Refused`` when it does not resolve, or when any address is not public (a
    name that mixes them is refused whole)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise Refused(
            _("%(host)s does not resolve (%(error)s)") % {"host": host, "error": exc}
        ) from exc
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        raise Refused(_("%(host)s does not resolve") % {"host": host})
    if not settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        private = [a for a in addresses if not is_public(a)]
        if private:
            raise Refused(
                _(
                    "%(host)s resolves to %(address)s, which is not a public address: "
                    "webhooks are delivered to the public internet only"
                )
                % {"host": host, "address": private[0]}
            )
    return addresses
