"""Cards as a reader sees them in their language: the corner's letters (French R, D,
V; German K, D, B), the suit's symbol, and the card in words for screen readers.
The notation (API, e-mail replies) keeps its own letters whatever the language."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import pgettext, pgettext_lazy

from games.engine import parse_card
from games.engine.cards import SUIT_SYMBOLS, is_red, rank_of, suit_of

#: The ranks as the corner of a card shows them, by rank (1 the ace): the country's own
#: letters (French R, D, V; German K, D, B). The notation (API, e-mail replies) keeps
#: its own letters whatever the language.
RANK_LABELS: tuple[str | Promise, ...] = (
    "",
    # Translators: the ace's letter in a card's corner.
    pgettext_lazy("card rank letter", "A"),
    *(str(number) for number in range(2, 11)),
    # Translators: the jack's letter in a card's corner (French V, German B).
    pgettext_lazy("card rank letter", "J"),
    # Translators: the queen's letter in a card's corner (French D, German D).
    pgettext_lazy("card rank letter", "Q"),
    # Translators: the king's letter in a card's corner (French R, German K).
    pgettext_lazy("card rank letter", "K"),
)


#: The ranks in words, by rank (1 the ace), for screen readers: "seven" in "seven of hearts".
RANK_WORDS: dict[int, Promise] = {
    1: pgettext_lazy("card rank", "ace"),
    2: pgettext_lazy("card rank", "two"),
    3: pgettext_lazy("card rank", "three"),
    4: pgettext_lazy("card rank", "four"),
    5: pgettext_lazy("card rank", "five"),
    6: pgettext_lazy("card rank", "six"),
    7: pgettext_lazy("card rank", "seven"),
    8: pgettext_lazy("card rank", "eight"),
    9: pgettext_lazy("card rank", "nine"),
    10: pgettext_lazy("card rank", "ten"),
    11: pgettext_lazy("card rank", "jack"),
    12: pgettext_lazy("card rank", "queen"),
    13: pgettext_lazy("card rank", "king"),
}


#: The suits in words, in the engine's order (``SUIT_SYMBOLS``): "hearts" in "seven of hearts".
SUIT_WORDS: tuple[Promise, ...] = (
    pgettext_lazy("card suit", "spades"),
    pgettext_lazy("card suit", "hearts"),
    pgettext_lazy("card suit", "diamonds"),
    pgettext_lazy("card suit", "clubs"),
)


def card_words(rank: int, suit: int) -> str:
    """A card in words, for screen readers: ``seven of hearts``."""
    # Translators: a card for screen readers, e.g. "seven of hearts": the rank and the
    # suit are the words of contexts "card rank" and "card suit". Reorder at will
    # ("%(suit)s-%(rank)s").
    return pgettext("card", "%(rank)s of %(suit)s") % {
        "rank": RANK_WORDS[rank],
        "suit": SUIT_WORDS[suit],
    }


@dataclass(frozen=True)
class CardFace:
    code: str  # the notation's name, e.g. "7H"
    rank: str  # what the corner shows: "7", "10", "Q"
    suit: str  # the suit's symbol
    words: str  # for screen readers: "seven of hearts"
    red: bool

    @property
    def short(self) -> str:
        """The card in a line of text, with the corner's letters: ``10♥``, French ``R♠``."""
        return self.rank + self.suit


def card_short(code: str) -> str:
    """A card's notation name (``KS``) as text reads it in the active language: the
    corner's letters (``RANK_LABELS``) and the suit's symbol, ``K♠``, French ``R♠``.
    The text e-mails and the engine's refusals show cards so, as the pages draw them."""
    return card_face(code).short


def card_face(code: str) -> CardFace:
    card = parse_card(code)
    if code == "JK":
        return CardFace(code, "★", "", pgettext("card", "joker"), False)
    return CardFace(
        code,
        str(RANK_LABELS[rank_of(card)]),
        SUIT_SYMBOLS[suit_of(card)],
        card_words(rank_of(card), suit_of(card)),
        is_red(card),
    )
