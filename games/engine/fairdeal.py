"""A deal nobody can choose (docs/fair-deal.md): the server's secret, its commitment,
the players' contributions, and the seed derived from them all.

Scheme 2 (every game dealt by the service since it came in):

* the server draws a secret, 64 lowercase hex digits (``new_secret``), and publishes
  its commitment ``SHA-256("rbank-commit/2:" + secret)`` when the challenge (or the
  game) is made, before any contribution exists;
* each seat contributes a value, 32 to 64 hex digits (``clean_contribution``): a
  player's own (the page draws it with ``crypto.getRandomValues``, an API client
  sends it), or one the server drew for them (``new_contribution``), and the record
  says which;
* the seed is the keyed hash ``SHA-256("rbank-seed/2:" + secret + "\\n" + "A:" + a +
  "\\n" + "B:" + b + "\\n" ...)``, the contributions in seat order (``derive_seed``);
  the secret is a fixed-length prefix, so this is a keyed hash anyone can redo with
  ``sha256sum``;
* the seed, 64 hex digits, deals as any seed does (``deal.deal``: SHA-256 in counter
  mode over ``"rbank-deal/1:" + seed``, Fisher-Yates with rejection sampling).

Scheme 1 (games dealt before): the server drew the seed itself and published
``seed_commitment(seed)`` (``deal.seed_commitment``); those games still verify.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import card_name
from .deal import seed_commitment
from .position import Position

#: The schemes: 1, the server's seed alone; 2, the secret and the contributions.
SEED_ONLY: Final = 1
CONTRIBUTED: Final = 2
COMMIT_DOMAIN: Final = "rbank-commit/2:"
SEED_DOMAIN: Final = "rbank-seed/2:"
#: Who drew a contribution: the seat's player, or the server for them (an e-mail
#: acceptance, a computer player, a game dealt with no player at hand).
PLAYER: Final = "player"
SERVER: Final = "server"
_HEX = re.compile(r"[0-9a-f]{32,64}")
_SECRET = re.compile(r"[0-9a-f]{64}")


class BadContribution(ValueError):
    """A contribution that is not 32 to 64 hexadecimal digits."""


def new_secret() -> str:
    """The server's secret for one deal: 256 bits from the OS, as hex."""
    return secrets.token_hex(32)


def new_contribution() -> str:
    """A contribution the server draws for a seat: 128 bits from the OS, as hex."""
    return secrets.token_hex(16)


def commitment(secret: str) -> str:
    """What the server publishes before any contribution: it binds it to ``secret``."""
    return hashlib.sha256((COMMIT_DOMAIN + secret).encode()).hexdigest()


def clean_contribution(value: object) -> str:
    """A contribution as it is kept: 32 to 64 hex digits, lowercased."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if not _HEX.fullmatch(text) or len(text) % 2:
        raise BadContribution("a contribution is 32 to 64 hexadecimal digits (an even number)")
    return text


def seed_message(secret: str, contributions: Sequence[str], letters: str = "ABC") -> bytes:
    """The bytes the seed is the SHA-256 of: the domain, the secret, then one line
    ``letter:value`` per seat in seat order, each line ended by a newline."""
    if not _SECRET.fullmatch(secret):
        raise BadContribution("the server's secret is 64 hexadecimal digits")
    lines = "".join(
        f"{letter}:{clean_contribution(value)}\n"
        for letter, value in zip(letters, contributions, strict=False)
    )
    if len(contributions) > len(letters):
        raise BadContribution("more contributions than seats")
    return f"{SEED_DOMAIN}{secret}\n{lines}".encode()


def derive_seed(secret: str, contributions: Sequence[str], letters: str = "ABC") -> str:
    """The deal's seed: a keyed hash of every contribution under the server's secret."""
    return hashlib.sha256(seed_message(secret, contributions, letters)).hexdigest()


@dataclass(frozen=True)
class Contribution:
    seat: str
    value: str
    by: str  # PLAYER or SERVER

    def as_dict(self) -> dict[str, str]:
        return {"seat": self.seat, "value": self.value, "by": self.by}


@dataclass(frozen=True)
class Check:
    """What a verification found: each line says what was recomputed and whether it
    matched; ``ok`` when every one did."""

    lines: tuple[tuple[str, bool], ...]

    @property
    def ok(self) -> bool:
        return all(good for _text, good in self.lines)


def verify(
    scheme: int,
    published: str,
    seed: str,
    secret: str = "",
    contributions: Sequence[str] = (),
) -> Check:
    """Recompute a finished game's commitment and seed. Scheme 1: the commitment is
    the seed's; scheme 2: the commitment is the secret's, and the seed is derived
    from the secret and the contributions."""
    if scheme == SEED_ONLY:
        computed = seed_commitment(seed)
        return Check(((f"SHA-256(rbank-deal/1:{seed}) = {computed}", computed == published),))
    if scheme != CONTRIBUTED:
        return Check(((f"unknown scheme {scheme}", False),))
    try:
        derived = derive_seed(secret, contributions)
    except BadContribution as exc:
        return Check(((str(exc), False),))
    made = commitment(secret)
    return Check(
        (
            (f"SHA-256({COMMIT_DOMAIN}secret) = {made}", made == published),
            (f"seed = {derived}", derived == seed),
        )
    )


def dealt_cards(start: Position) -> list[dict[str, list[str]]]:
    """Each seat's cards at the deal, as the verify page compares them with the deal it
    makes itself (``verify.js``): its whole reserve (face down or not, bottom to top),
    the card dealt to each of its houses, its hand. Only for a deal already revealed."""
    per_seat = start.rules.houses_per_seat
    return [
        {
            "reserve": [card_name(c) for c in piles.reserve_down + piles.reserve],
            "houses": [
                card_name(house[0]) if house else ""
                for house in start.houses[s * per_seat : (s + 1) * per_seat]
            ],
            "hand": [card_name(c) for c in piles.hand],
        }
        for s, piles in enumerate(start.seats)
    ]
