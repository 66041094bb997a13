"""The table in an e-mail, drawn from a seat's view (never from the full position).

``mail_table`` lays the view out once: the others above in turn order, the houses
one per row, the foundations, the viewer below. The text part of an e-mail prints
it as lines (``board_text``)::

    Opponent (B)  reserve 13, top Q♠   hand 35   waste 0
    ------------------------------------------------------
    H1 3♠                       F1 --    F2 --   H5 Q♦ J♠
    ...
    You (A)       reserve 12, top K♣   hand 35   waste 0

and the HTML part draws it as cards (``templates/emails/_board.html``): a small
table, one house a row, whose cards wrap within the row, so it fits a phone.

The words are in the active language (the recipient's, as the e-mail is rendered),
and so are the cards' letters, as the pages' corners show them (French ``R♠``,
German ``K♠`` for a king; ``games.words.cards.RANK_LABELS``); the pile names of the
notation (H1, F1) are not words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import pgettext

from games.words.cards import CardFace, card_face


@dataclass(frozen=True)
class SeatLine:
    """What a seat shows across the table: counts, and the face-up tops."""

    label: str  # "Opponent (B)", "You (A)"; "Seat A" for a spectator
    reserve: int
    reserve_top: CardFace | None
    hand: int
    waste: int
    waste_top: CardFace | None
    turned: CardFace | None


@dataclass(frozen=True)
class MailTable:
    others: list[SeatLine]
    houses: list[list[CardFace]]  # H1, H2, ... bottom to top
    foundations: list[CardFace | None]  # F1, F2, ... their top cards
    me: SeatLine

    @property
    def house_rows(self) -> list[tuple[str, list[CardFace]]]:
        return [(f"H{i + 1}", cards) for i, cards in enumerate(self.houses)]

    @property
    def foundation_tops(self) -> list[tuple[str, CardFace | None]]:
        return [(f"F{i + 1}", top) for i, top in enumerate(self.foundations)]


def _face(name: str | None) -> CardFace | None:
    return card_face(name) if name else None


def _seat(label: str, seat: dict[str, Any]) -> SeatLine:
    return SeatLine(
        label=label,
        reserve=seat["reserve"]["count"],
        reserve_top=_face(seat["reserve"]["top"]),
        hand=seat["hand"]["count"],
        waste=seat["waste"]["count"],
        waste_top=_face(seat["waste"]["top"]),
        turned=_face(seat["turned"]),
    )


def mail_table(seen: dict[str, Any]) -> MailTable:
    """The view ``seen`` (games.engine.view) laid out for an e-mail: the viewer below,
    the others above in turn order (a spectator sees seat A below)."""
    letters = "".join(letter for letter in "ABC" if letter in seen)
    me = seen["viewer"] or "A"
    at = letters.index(me)
    others = [letters[(at + d) % len(letters)] for d in range(1, len(letters))]

    def name(letter: str) -> str:
        # The seats' names in the table of an e-mail; %(seat)s is the seat's letter.
        if not seen["viewer"]:
            # Translators: a seat's name in an e-mail's table, to a spectator: "Seat A".
            return pgettext("e-mail table", "Seat %(seat)s") % {"seat": letter}
        if letter == me:
            return pgettext("e-mail table", "You (%(seat)s)") % {"seat": letter}
        return pgettext("e-mail table", "Opponent (%(seat)s)") % {"seat": letter}

    return MailTable(
        others=[_seat(name(other), seen[other]) for other in others],
        houses=[[card_face(c) for c in pile] for pile in seen["houses"]],
        foundations=[_face(pile[-1] if pile else None) for pile in seen["foundations"]],
        me=_seat(name(me), seen[me]),
    )


def _card(face: CardFace | None) -> str:
    return "--" if face is None else face.short


def _pile(cards: list[CardFace]) -> str:
    return " ".join(_card(c) for c in cards) if cards else pgettext("pile", "(empty)")


def _top(face: CardFace | None) -> str:
    if face is None:
        return ""
    # Translators: the face-up top card of a pile, after its count: "reserve 13, top K♠".
    return ", " + pgettext("e-mail table", "top %(card)s") % {"card": _card(face)}


def _count(pile: str, count: int) -> str:
    """A pile's name and how many cards it holds: "reserve 13"."""
    # Translators: a pile's name and how many cards it holds, in the table of a
    # plain-text e-mail: "reserve 13".
    return pgettext("e-mail table", "%(pile)s %(count)s") % {"pile": pile, "count": count}


#: The seats' names take this many columns at least, and the longest name two more.
LABEL_WIDTH = 16


def _seat_line(seat: SeatLine, label_width: int = LABEL_WIDTH) -> str:
    parts = [
        f"{seat.label:<{label_width}}",
        _count(pgettext("pile", "reserve"), seat.reserve) + _top(seat.reserve_top),
        _count(pgettext("pile", "hand"), seat.hand),
        _count(pgettext("pile", "waste"), seat.waste) + _top(seat.waste_top),
    ]
    if seat.turned:
        parts.append(pgettext("e-mail table", "turned %(card)s") % {"card": _card(seat.turned)})
    return "   ".join(parts)


def board_text(seen: dict[str, Any]) -> str:
    """The view ``seen`` as lines of text. The houses are split as on the page (the
    first half on the left), the foundations two by two in the middle."""
    table = mail_table(seen)
    houses, foundations = table.houses, table.foundations
    half = (len(houses) + 1) // 2
    left, right = houses[:half], houses[half:]
    width = max([len(_pile(h)) for h in left] + [8])
    seats = [*table.others, table.me]
    label_width = max([LABEL_WIDTH] + [len(seat.label) + 2 for seat in seats])
    lines = [_seat_line(other, label_width) for other in table.others]
    lines.append("-" * 72)
    for row in range(max(half, (len(foundations) + 1) // 2)):
        west = f"H{row + 1} {_pile(left[row])}" if row < len(left) else ""
        middle = "  ".join(
            f"F{k + 1} {_card(foundations[k]):<4}"
            for k in (2 * row, 2 * row + 1)
            if k < len(foundations)
        )
        east = f"H{row + half + 1} {_pile(right[row])}" if row < len(right) else ""
        lines.append(f"{west:<{width + 4}}  {middle:<18}  {east}".rstrip())
    lines.append("-" * 72)
    lines.append(_seat_line(table.me, label_width))
    return "\n".join(lines)
