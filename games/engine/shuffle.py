"""Seeded randomness: uniform integers and shuffles drawn from SHA-256 in counter mode.

The same seed gives the same numbers on any machine and Python version, and the
numbers tell nothing about the seed. The deal (R2.1) draws from a stream keyed
by the game's seed; the reshuffles of V13 from streams keyed by a secret derived
from that seed at the deal (``reshuffle_key``), so a game replays from its seed
and its moves while nobody can foresee a reshuffled hand.
"""

from __future__ import annotations

import hashlib
from typing import Final

from .cards import Card

DEAL_DOMAIN: Final = b"rbank-deal/1:"
#: V13: the key of a game's reshuffles is derived from its seed under this domain.
RESHUFFLE_DOMAIN: Final = b"rbank-reshuffle/1:"
#: V13: one reshuffle's stream is keyed by the key, the seat and the reshuffle count.
RESHUFFLE_STREAM_DOMAIN: Final = b"rbank-reshuffle-stream/1:"


class SeedStream:
    """Uniform random integers derived from a seed (SHA-256 in counter mode)."""

    def __init__(self, seed: int | str, domain: bytes = DEAL_DOMAIN) -> None:
        self._key = domain + str(seed).encode()
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, by rejection sampling (no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = int.from_bytes(self._bytes(8), "big")
            if value < limit:
                return value % n

    def shuffle(self, cards: list[Card]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def reshuffle_key(seed: int | str) -> str:
    """V13: the secret that keys a game's reshuffles, derived from the deal seed.

    It is kept in the referee's position (``engine.reshuffle_key``) and never shown
    to a player; the seed commitment uses another domain, so it does not reveal it.
    """
    return hashlib.sha256(RESHUFFLE_DOMAIN + str(seed).encode()).hexdigest()


def reshuffle_stream(key: str, seat: str, count: int) -> SeedStream:
    """V13: the stream that shuffles ``seat``'s waste the ``count``-th time (from 0)."""
    return SeedStream(f"{key}:{seat}:{count}", RESHUFFLE_STREAM_DOMAIN)
