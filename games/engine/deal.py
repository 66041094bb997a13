"""The deal (R2) and who starts (R3), reproducible from a seed.

The shuffle draws from SHA-256 in counter mode keyed by the seed: the same seed
always gives the same deal on any machine and Python version, and nothing a
player sees (a few dozen face-up cards) lets anyone recover the seed or predict
the hidden cards. A server draws the seed from ``secrets`` (``new_seed``),
publishes ``seed_commitment(seed)`` at the deal and reveals the seed at the end,
so anyone can re-deal and replay the game (``python -m games.engine deal``).
"""

from __future__ import annotations

import hashlib
import secrets

from .cards import Card, full_pack, rank_of
from .position import Position, SeatPiles
from .rules import PRESETS, Rules

DEAL_DOMAIN = b"rbank-deal/1:"


class SeedStream:
    """Uniform random integers derived from a seed (SHA-256 in counter mode)."""

    def __init__(self, seed: int | str) -> None:
        self._key = DEAL_DOMAIN + str(seed).encode()
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


def new_seed() -> int:
    """A fresh secret seed for a server deal (R2.1): 128 bits from the OS."""
    return secrets.randbits(128)


def seed_commitment(seed: int | str) -> str:
    """The hash shown to both players at the deal; it binds the server to the seed."""
    return hashlib.sha256(DEAL_DOMAIN + str(seed).encode()).hexdigest()


def deal(seed: int | str, rules: Rules | None = None) -> Position:
    """The starting position of a game (R2), with the starting seat chosen by R3."""
    rules = rules if rules is not None else PRESETS["pagat"]
    stream = SeedStream(seed)
    position = Position(rules)
    hps = rules.houses_per_seat
    for s in range(rules.seats):
        pack = full_pack(s)
        stream.shuffle(pack)
        reserve = pack[: rules.reserve_size]
        houses = pack[rules.reserve_size : rules.reserve_size + hps]
        hand = pack[rules.reserve_size + hps :]
        position.seats[s] = SeatPiles(reserve=reserve, hand=hand)
        for k, card in enumerate(houses):
            position.houses[s * hps + k] = [card]
    position.to_move = first_seat(position, stream)
    return position


def first_seat(position: Position, stream: SeedStream) -> int:
    """R3: the lower top reserve card starts; ties compare the houses next to each
    reserve outward (H1/H5, then H2/H6...); a complete tie is settled by the seed (R3.3)."""
    hps = position.rules.houses_per_seat

    def key(seat: int) -> tuple[int, ...]:
        reserve = position.seats[seat].reserve
        houses = position.houses[seat * hps : (seat + 1) * hps]
        return (rank_of(reserve[-1]) if reserve else 0, *(rank_of(h[0]) for h in houses if h))

    keys = [key(s) for s in range(position.rules.seats)]
    lowest = min(keys)
    tied = [s for s, k in enumerate(keys) if k == lowest]
    return tied[0] if len(tied) == 1 else tied[stream.below(len(tied))]
