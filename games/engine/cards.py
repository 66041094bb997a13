"""Cards: two-character names, colours, and which cards fit on which (R1.2, R5).

A card is a small ``int`` so that the hot loops of move generation index flat
tables instead of calling methods:

    card = pack * 64 + suit * 16 + rank      (rank 1..13, suit 0..3 = S H D C)

The low six bits (``card & 63``) are the card's *face*: two cards of the same
rank and suit from different packs share a face and are interchangeable in
play (R1.1); the pack survives only for display and for sorting the packs after
the game. Index 4 of the suit field is the joker's (three-player game).
"""

from __future__ import annotations

from functools import cache
from typing import Final

Card = int
Face = int

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES: Final = (
    "", "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
ACE: Final = 1
KING: Final = 13
FACE_MASK: Final = 63
JOKER: Final[Face] = 0  # face 0 is never a playing card; the joker uses it

_INPUT_RANKS: Final = {r: i + 1 for i, r in enumerate(RANKS)} | {"10": 10}
_INPUT_SUITS: Final = {s: i for i, s in enumerate(SUITS)} | {
    sym: i for i, sym in enumerate(SUIT_SYMBOLS)
}


def make_card(rank: int, suit: int, pack: int = 0) -> Card:
    return pack * 64 + suit * 16 + rank


def rank_of(card: Card) -> int:
    return card & 15


def suit_of(card: Card) -> int:
    return (card >> 4) & 3


def pack_of(card: Card) -> int:
    return card >> 6


def is_red(card: Card) -> bool:
    return suit_of(card) in (1, 2)


def card_name(card: Card) -> str:
    """The notation's two-character name, e.g. ``TH`` (NOTATION.md, Cards)."""
    if card & FACE_MASK == JOKER:
        return "JK"
    return RANKS[rank_of(card) - 1] + SUITS[suit_of(card)]


def card_label(card: Card) -> str:
    """A short name for messages: ``10♥``, ``K♠``."""
    if card & FACE_MASK == JOKER:
        return "joker"
    rank = rank_of(card)
    return ("10" if rank == 10 else RANKS[rank - 1]) + SUIT_SYMBOLS[suit_of(card)]


def card_words(card: Card) -> str:
    """The card in words, for screen readers: ``seven of hearts``."""
    if card & FACE_MASK == JOKER:
        return "joker"
    return f"{RANK_NAMES[rank_of(card)]} of {SUIT_NAMES[suit_of(card)]}"


def parse_card(text: str, pack: int = 0) -> Card:
    """Read a card name: ``TH``, ``th``, ``10H``, ``10♥``. Raises ``ValueError``."""
    t = text.strip().upper()
    if t == "JK":
        return make_card(0, 0, pack)
    rank = _INPUT_RANKS.get(t[:-1])
    suit = _INPUT_SUITS.get(t[-1:]) if t else None
    if rank is None or suit is None:
        raise ValueError(f"not a card: {text!r}")
    return make_card(rank, suit, pack)


def full_pack(pack: int = 0) -> list[Card]:
    """The 52 cards of one pack, in a fixed order (spades A-K, hearts, diamonds, clubs)."""
    return [make_card(rank, suit, pack) for suit in range(4) for rank in range(1, 14)]


def _faces() -> range:
    return range(64)


# Flat tables indexed by face, built once. A table lookup costs less than the
# arithmetic it replaces, and move generation does thousands of them per game.

#: The face that goes on a foundation whose top has this face (0 when complete).
FOUNDATION_NEXT: Final[tuple[Face, ...]] = tuple(
    f + 1 if 1 <= (f & 15) < KING else 0 for f in _faces()
)

#: Faces that may be built on a house whose top has this face (R5.2): one rank
#: lower, the other colour.
HOUSE_FITS: Final[tuple[tuple[Face, ...], ...]] = tuple(
    tuple(
        make_card((f & 15) - 1, s)
        for s in range(4)
        if (f & 15) > ACE and (s in (1, 2)) != (((f >> 4) & 3) in (1, 2))
    )
    if 1 <= (f & 15) <= KING
    else ()
    for f in _faces()
)

#: V11: faces that may be built on a house whose top has this face when houses are
#: built down in suit: one rank lower, the same suit.
HOUSE_FITS_SAME_SUIT: Final[tuple[tuple[Face, ...], ...]] = tuple(
    (f - 1,) if ACE < (f & 15) <= KING else () for f in _faces()
)

#: Faces that may load a reserve or waste whose top has this face (R5.4): same
#: suit, one rank up or down, no wrap between King and Ace.
LOAD_FITS: Final[tuple[tuple[Face, ...], ...]] = tuple(
    tuple(f + d for d in (-1, 1) if 1 <= (f & 15) + d <= KING) if 1 <= (f & 15) <= KING else ()
    for f in _faces()
)


def _neighbours(rank: int, both_ways: bool, wrap: bool) -> tuple[int, ...]:
    """The ranks a card of ``rank`` may be built with: one lower, and with
    ``both_ways`` one higher too; with ``wrap`` the King and the Ace are neighbours."""
    out = []
    for d in (-1, 1) if both_ways else (-1,):
        r = rank + d
        if wrap:
            r = (r - 1) % KING + 1
        if 1 <= r <= KING:
            out.append(r)
    return tuple(out)


@cache
def house_fits_table(
    same_suit: bool, both_ways: bool = False, wrap: bool = False
) -> tuple[tuple[Face, ...], ...]:
    """Faces that may be built on a house top, by face: R5.2 (the other colour, one
    rank lower), V11 (``same_suit``), and Foster's one-pack game (G4: in suit, up or
    down, ``wrap`` making the King and Ace neighbours)."""
    table: list[tuple[Face, ...]] = []
    for f in _faces():
        rank, suit = f & 15, (f >> 4) & 3
        if not 1 <= rank <= KING:
            table.append(())
            continue
        fits = []
        for r in _neighbours(rank, both_ways, wrap):
            if same_suit:
                fits.append(make_card(r, suit))
            else:
                fits.extend(make_card(r, s) for s in range(4) if (s in (1, 2)) != (suit in (1, 2)))
        table.append(tuple(fits))
    return tuple(table)


@cache
def load_fits_table(wrap: bool) -> tuple[tuple[Face, ...], ...]:
    """LOAD_FITS, or with ``wrap`` (G4) the Ace and King of a suit loading each other."""
    if not wrap:
        return LOAD_FITS
    return tuple(
        tuple(make_card(r, (f >> 4) & 3) for r in _neighbours(f & 15, True, True))
        if 1 <= (f & 15) <= KING
        else ()
        for f in _faces()
    )
