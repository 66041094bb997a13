"""A text picture of the table, drawn from a seat's view (never from the full position).

Used in e-mails, where a player should see the game at a glance::

    Opponent (B)  reserve 13, top Q♠   hand 35   waste 0
    ------------------------------------------------------
    H1 3♠                       F1 --    F2 --   H5 Q♦ J♠
    ...
    You (A)       reserve 12, top K♣   hand 35   waste 0
"""

from __future__ import annotations

from typing import Any

from games.engine import parse_card
from games.engine.cards import card_label


def _card(name: str | None) -> str:
    return "--" if not name else card_label(parse_card(name))


def _pile(names: list[str]) -> str:
    return " ".join(_card(n) for n in names) if names else "(empty)"


def _seat_line(label: str, seat: dict[str, Any]) -> str:
    reserve = seat["reserve"]
    waste = seat["waste"]
    parts = [
        f"{label:<16}",
        f"reserve {reserve['count']}"
        + (f", top {_card(reserve['top'])}" if reserve["top"] else ""),
        f"hand {seat['hand']['count']}",
        f"waste {waste['count']}" + (f", top {_card(waste['top'])}" if waste["top"] else ""),
    ]
    if seat["turned"]:
        parts.append(f"turned {_card(seat['turned'])}")
    return "   ".join(parts)


def board_text(seen: dict[str, Any]) -> str:
    """The view ``seen`` (games.engine.view) as lines of text, the viewer at the bottom
    and the others above, in turn order. The houses are split as on the page (the first
    half on the left), the foundations two by two in the middle."""
    letters = "".join(letter for letter in "ABC" if letter in seen)
    me = seen["viewer"] or "A"
    at = letters.index(me)
    others = [letters[(at + d) % len(letters)] for d in range(1, len(letters))]
    houses = seen["houses"]
    foundations = seen["foundations"]
    half = (len(houses) + 1) // 2
    left, right = houses[:half], houses[half:]
    width = max([len(_pile(h)) for h in left] + [8])
    lines = [
        _seat_line(f"Opponent ({other})" if seen["viewer"] else f"Seat {other}", seen[other])
        for other in others
    ]
    lines.append("-" * 72)
    for row in range(max(half, (len(foundations) + 1) // 2)):
        west = f"H{row + 1} {_pile(left[row])}" if row < len(left) else ""
        middle = "  ".join(
            f"F{k + 1} {_card(foundations[k][-1] if foundations[k] else None):<4}"
            for k in (2 * row, 2 * row + 1)
            if k < len(foundations)
        )
        east = f"H{row + half + 1} {_pile(right[row])}" if row < len(right) else ""
        lines.append(f"{west:<{width + 4}}  {middle:<18}  {east}".rstrip())
    lines.append("-" * 72)
    lines.append(_seat_line(f"You ({me})" if seen["viewer"] else f"Seat {me}", seen[me]))
    return "\n".join(lines)
