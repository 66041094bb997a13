"""The deal (R2) and who starts (R3, V3), reproducible from a seed.

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

from .cards import ACE, SUITS, Card, full_pack, make_card, rank_of, suit_of
from .families import family_of
from .position import Position
from .rules import CUT_HIGHER, CUT_LOWER, HIGHER_RESERVE, PRESETS, TABLEAU, Rules
from .shuffle import DEAL_DOMAIN, SeedStream

__all__ = [
    "DEAL_DOMAIN",
    "SeedStream",
    "cut_for_start",
    "deal",
    "first_seat",
    "new_seed",
    "seed_commitment",
]


def new_seed() -> int:
    """A fresh secret seed for a server deal (R2.1): 128 bits from the OS."""
    return secrets.randbits(128)


def seed_commitment(seed: int | str) -> str:
    """The hash shown to both players at the deal; it binds the server to the seed."""
    return hashlib.sha256(DEAL_DOMAIN + str(seed).encode()).hexdigest()


def deal(seed: int | str, rules: Rules | None = None, *, starter: int | None = None) -> Position:
    """The starting position of a game (R2).

    The starting seat is chosen as ``rules.starter`` says (R3, V3), unless
    ``starter`` names it: a match played with ``starter="alternate"`` deals its
    first game without it and passes the seat for each later game (``match.py``,
    ``alternating_starter``). Naming the starter leaves the cards as they are.
    """
    rules = rules if rules is not None else PRESETS["pagat"]
    stream = SeedStream(seed)
    family = family_of(rules)
    position = Position(rules)
    family.lay_out(position, seat_cards(stream, rules, family.jokers), rules.face_down_tableau)
    position.after_deal(seed)  # V9, V14: reserves face down; V13: the reshuffle key
    if starter is None:
        position.to_move = first_seat(position, stream)
    elif 0 <= starter < rules.seats:
        position.to_move = starter
    else:
        raise ValueError(f"there is no seat {starter}")
    position.reveal_reserve()  # V9: at once, unless a house card fits a foundation
    return position


def seat_cards(stream: SeedStream, rules: Rules, jokers: int = 0) -> list[list[Card]]:
    """The cards each seat plays with, shuffled from the seed (R2.1): its own pack
    when there is one pack per seat; else every pack (and G3's jokers) shuffled
    together once and shared, by suits when the rules give each seat its suits
    (``seat_suits``, G2), else in equal shares (G3, G4)."""
    if rules.packs == rules.seats and not jokers:
        out = []
        for s in range(rules.seats):
            pack = full_pack(s)
            stream.shuffle(pack)
            out.append(pack)
        return out
    pool = [card for p in range(rules.packs) for card in full_pack(p)]
    pool += [make_card(0, 0, rules.packs)] * jokers  # G3: the joker is pack C's
    stream.shuffle(pool)
    if rules.seat_suits:
        return [[c for c in pool if SUITS[suit_of(c)] in suits] for suits in rules.seat_suits]
    share = len(pool) // rules.seats
    return [pool[s * share : (s + 1) * share] for s in range(rules.seats)]


def first_seat(position: Position, stream: SeedStream) -> int:
    """Who starts, as ``rules.starter`` says (R3, V3). A complete tie is settled by
    the seed (R3.3); a tied cut is cut again.

    * ``lower_reserve`` and ``alternate`` (R3.1, R3.2): the lower top reserve card
      starts, ace low, suits ignored; ties compare the houses next to each reserve
      outward (H1/H5, then H2/H6...). A face-down reserve (V9) is not looked at: the
      houses alone decide, as if the reserve cards tied.
    * ``higher_reserve``: the higher top reserve card starts, ace high, and between
      equal ranks spades > hearts > diamonds > clubs; two identical cards compare
      the houses the same way.
    * ``tableau``: the houses alone, compared as in R3.2.
    * ``cut_lower`` / ``cut_higher``: each seat cuts a card from its own pack (a
      fresh draw from the seed stream, after the deal), ace low; the lower / higher
      card starts.
    """
    starter = position.rules.starter
    if starter in (CUT_LOWER, CUT_HIGHER):
        rules = position.rules
        higher = starter == CUT_HIGHER
        return cut_for_start(stream, rules.seats, higher=higher, packs=rules.packs)[0]
    hps = position.rules.houses_per_seat
    higher = starter == HIGHER_RESERVE
    use_reserve = starter != TABLEAU

    def value(card: Card) -> int:
        if not higher:
            return rank_of(card)
        rank = 14 if rank_of(card) == ACE else rank_of(card)
        return -(rank * 4 + 3 - suit_of(card))  # negated: the lowest key starts

    def key(seat: int) -> tuple[int, ...]:
        reserve = position.seats[seat].reserve
        houses = position.houses[seat * hps : (seat + 1) * hps]
        top = ((value(reserve[-1]) if reserve else 0),) if use_reserve else ()
        return (*top, *(value(h[0]) for h in houses if h))

    keys = [key(s) for s in range(position.rules.seats)]
    lowest = min(keys)
    tied = [s for s, k in enumerate(keys) if k == lowest]
    return tied[0] if len(tied) == 1 else tied[stream.below(len(tied))]


def cut_for_start(
    stream: SeedStream, seats: int, *, higher: bool, packs: int = 2
) -> tuple[int, list[list[Card]]]:
    """V3, the cut: the starting seat and the cards cut, round by round.

    Each seat still in the cut draws one card of its own pack (with a single pack,
    G2 and G4, each draws a different card of it); the lowest (or highest) rank
    wins, ace low, suits ignored; the seats that tie cut again. A round lists the
    cards of the seats that cut in it, in seat order.
    """
    in_cut = list(range(seats))
    rounds: list[list[Card]] = []
    while True:
        if packs == 1:
            pack = full_pack(0)
            cards = [pack.pop(stream.below(len(pack))) for _ in in_cut]
        else:
            cards = [full_pack(s)[stream.below(52)] for s in in_cut]
        rounds.append(cards)
        ranks = [rank_of(c) for c in cards]
        best = max(ranks) if higher else min(ranks)
        in_cut = [s for s, r in zip(in_cut, ranks, strict=True) if r == best]
        if len(in_cut) == 1:
            return in_cut[0], rounds
