"""The card table as the pages draw it, built from a seat's view, never from a position.

Everything here starts from ``games.engine.view`` (or, once a game is over,
``games.engine.revealed_view``), so a page can only show what that seat may see.

Layout decisions (docs/pages.md): the viewer sits at the bottom and the opponent
at the top (a spectator or a finished game puts A at the bottom; in the
three-player game both opponents sit at the top, in turn order); the first half of
the houses (H1-H4) is on the left, the rest on the right, for every player, so a
pile has one place whoever looks; the foundations are in the middle, two by two.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.engine import Layout, moved_piles, seat_pile_names
from games.words.cards import (
    CardFace,
    card_face,
)


@dataclass
class Pile:
    id: str  # unique on the page: F1, H3, RA, WB, CA, HANDB
    label: str  # "House 3", "Bob's reserve"
    cards: list[CardFace] = field(default_factory=list)  # face-up cards drawn, bottom to top
    count: int = 0  # cards in the pile, face-down ones included
    move_name: str = ""  # how a move by the viewer names this pile: "H3", "R", "OW"
    back: str = ""  # "a" or "b": draw a face-down back of that seat's pack on top
    moved: bool = False  # touched by the last turn
    fanned: bool = False  # houses: every card shows; other piles show their top
    down: int = 0  # houses (V7): face-down cards under the face-up ones

    @property
    def top(self) -> CardFace | None:
        return self.cards[-1] if self.cards else None

    @property
    def spoken(self) -> str:
        """The pile in words for the button's accessible name."""
        if self.back and not self.cards:
            what = (
                ngettext("%(count)s face-down card", "%(count)s face-down cards", self.count)
                % {"count": self.count}
                if self.count
                else pgettext("pile", "empty")
            )
        elif self.top is None:
            what = pgettext("pile", "empty")
        elif self.fanned and len(self.cards) > 1:
            what = _("%(cards)s (the first is the outermost)") % {
                "cards": ", ".join(c.words for c in reversed(self.cards))
            }
        else:
            what = self.top.words
            if self.count > 1:
                # Translators: a pile's top card and how many cards it holds.
                what = ngettext(
                    "%(card)s, %(count)s card", "%(card)s, %(count)s cards", self.count
                ) % {
                    "card": what,
                    "count": self.count,
                }
        if self.down:
            # Translators: a house's cards and the face-down cards under them (variant V7).
            what = ngettext(
                "%(cards)s, over %(count)s face-down card",
                "%(cards)s, over %(count)s face-down cards",
                self.down,
            ) % {"cards": what, "count": self.down}
        if self.moved:
            # Translators: a pile for screen readers, touched by the last turn:
            # "House 3: seven of hearts; moved in the last turn".
            return pgettext("pile", "%(pile)s: %(cards)s; moved in the last turn") % {
                "pile": self.label,
                "cards": what,
            }
        # Translators: a pile for screen readers: "House 3: seven of hearts, 2 cards".
        return pgettext("pile", "%(pile)s: %(cards)s") % {"pile": self.label, "cards": what}


@dataclass
class SeatPanel:
    letter: str
    name: str
    is_viewer: bool
    to_move: bool
    reserve: Pile
    hand: Pile
    waste: Pile
    turned: Pile
    cards_left: int  # cards still to play: reserve, hand, waste and the turned card
    count: int  # the scoring count of R8.2 (2 a reserve card): not a number of cards
    waste_cards: list[CardFace] = field(default_factory=list)  # the viewer's own, spread
    new_hands: int | None = None  # V14: times the waste has become the hand (S11)


@dataclass
class Board:
    rows: list[tuple[Pile | None, list[Pile], Pile | None]]
    tops: list[SeatPanel]  # the opponents, in turn order after the bottom seat
    bottom: SeatPanel
    legal_moves: list[str]  # relative notation, for the viewer when it is their turn
    can_turn: bool
    can_discard: bool
    can_end: bool
    can_turn_stock: bool  # V14: TR, the face-down stock's top card turned up
    revealed: dict[str, dict[str, list[CardFace]]] | None  # a finished game's face-down cards
    set_aside: list[CardFace] = field(default_factory=list)  # G3: the joker, out of play

    @property
    def piles(self) -> Iterable[Pile]:
        for left, foundations, right in self.rows:
            yield from (p for p in (left, *foundations, right) if p is not None)
        for panel in (*self.tops, self.bottom):
            yield from (panel.reserve, panel.hand, panel.waste, panel.turned)


def build_board(
    seen: dict[str, Any],
    *,
    names: dict[str, str],
    legal_moves: list[str] | None = None,
    last_turn: tuple[str | None, list[str]] = (None, []),
) -> Board:
    """The table from a view (``games.engine.view`` or ``revealed_view``); the piles the
    last turn touched and the names the viewer's moves give them are the engine's
    (``moved_piles``, ``seat_pile_names``)."""
    viewer = seen["viewer"]
    letters = "".join(letter for letter in "ABC" if letter in seen)
    bottom_letter = viewer or "A"
    at = letters.index(bottom_letter)
    top_letters = [letters[(at + d) % len(letters)] for d in range(1, len(letters))]
    layout = Layout(len(letters), len(seen["foundations"]), len(seen["houses"]))
    mover = last_turn[0]
    moved = moved_piles(last_turn[1], letters.index(mover), layout) if mover else set()
    moves = legal_moves or []
    # Only the viewer ever moves from this page, so the piles are named as they name
    # them (the page's pile ids are the engine's table names: RA, WB, CA).
    move_names = seat_pile_names(letters.index(viewer), len(letters)) if viewer else {}

    def panel(letter: str) -> SeatPanel:
        seat = seen[letter]
        who = names[letter]
        reserve = seat["reserve"]
        reserve_pile = Pile(
            "R" + letter,
            pgettext("pile", "%(player)s's reserve") % {"player": who},
            [card_face(reserve["top"])] if reserve["top"] else [],
            reserve["count"],
            move_names.get("R" + letter, ""),
            # A back shows under the top card, or alone over a face-down stock (V9, V14).
            back=letter.lower() if reserve["count"] > (1 if reserve["top"] else 0) else "",
        )
        hand = Pile(
            "HAND" + letter,
            pgettext("pile", "%(player)s's hand") % {"player": who},
            count=seat["hand"]["count"],
            back=letter.lower(),
            move_name="T" if letter == viewer else "",
        )
        waste = seat["waste"]
        waste_pile = Pile(
            "W" + letter,
            pgettext("pile", "%(player)s's waste") % {"player": who},
            [card_face(waste["top"])] if waste["top"] else [],
            waste["count"],
            move_names.get("W" + letter, ""),
        )
        turned = Pile(
            "C" + letter,
            pgettext("pile", "%(player)s's turned card") % {"player": who},
            [card_face(seat["turned"])] if seat["turned"] else [],
            1 if seat["turned"] else 0,
            move_names.get("C" + letter, ""),
        )
        for pile in (reserve_pile, hand, waste_pile, turned):
            pile.moved = pile.id in moved
        return SeatPanel(
            letter=letter,
            name=who,
            is_viewer=letter == viewer,
            to_move=seen["status"] == "playing" and seen["to_move"] == letter,
            reserve=reserve_pile,
            hand=hand,
            waste=waste_pile,
            turned=turned,
            cards_left=reserve["count"]
            + seat["hand"]["count"]
            + waste["count"]
            + (1 if seat["turned"] else 0),
            count=seat["count"],
            new_hands=seat.get("new_hands"),
            waste_cards=[card_face(c) for c in waste.get("cards", [])],
        )

    retired = seen.get("retired_house")  # G3

    def pile(kind: str, index: int, cards: list[str], down: int = 0) -> Pile:
        pid = f"{kind}{index + 1}"
        number = {"number": index + 1}
        if kind == "F":
            label = pgettext("pile", "Foundation %(number)s") % number
        elif index == retired:
            label = (
                pgettext("pile", "House %(number)s (out of play: the first house emptied)") % number
            )
        else:
            label = pgettext("pile", "House %(number)s") % number
        shown = cards if kind == "H" else cards[-1:]
        return Pile(
            pid,
            label,
            [card_face(c) for c in shown],
            len(cards),
            pid if viewer else "",
            back="n" if down else "",  # a face-down card shows no pack: neutral back
            moved=pid in moved,
            fanned=kind == "H",
            down=down,
        )

    downs = seen.get("houses_down") or [0] * len(seen["houses"])  # V7
    houses = [pile("H", i, cards, downs[i]) for i, cards in enumerate(seen["houses"])]
    foundations = [pile("F", i, cards) for i, cards in enumerate(seen["foundations"])]
    half = (len(houses) + 1) // 2
    left, right = houses[:half], houses[half:]
    depth = max(half, (len(foundations) + 1) // 2)
    rows = [
        (
            left[i] if i < len(left) else None,
            foundations[2 * i : 2 * i + 2],
            right[i] if i < len(right) else None,
        )
        for i in range(depth)
    ]
    revealed = None
    if "cards" in seen[bottom_letter]["reserve"]:
        # Keyed by the words the replay shows: each seat's piles, then the houses'.
        parts = {
            "reserve": pgettext("pile", "reserve"),
            "hand": pgettext("pile", "hand"),
            "waste": pgettext("pile", "waste"),
        }
        revealed = {
            letter: {
                words: [card_face(c) for c in seen[letter][part]["cards"]]
                for part, words in parts.items()
            }
            for letter in (bottom_letter, *top_letters)
        }
        for i, cards in enumerate(seen.get("houses_down_cards", [])):
            if cards:
                under = pgettext("pile", "under %(house)s") % {"house": f"H{i + 1}"}
                revealed.setdefault(pgettext("pile", "houses"), {})[under] = [
                    card_face(c) for c in cards
                ]
    return Board(
        rows=rows,
        tops=[panel(letter) for letter in top_letters],
        bottom=panel(bottom_letter),
        legal_moves=moves,
        can_turn="T" in moves,
        can_discard="C-W" in moves,
        can_end="E" in moves,
        can_turn_stock="TR" in moves,
        revealed=revealed,
        set_aside=[card_face(c) for c in seen.get("set_aside", [])],
    )
