"""A text picture of the table, drawn from a seat's view (never from the full position).

Used in e-mails, where a player should see the game at a glance::

    Opponent (B)  reserve 13, top Q♠   hand 35   waste 0
    ------------------------------------------------------
    H1 3♠                       F1 --    F5 --   H5 Q♦ J♠
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
    """The view ``seen`` (games.engine.view) as lines of text, the viewer at the bottom."""
    me = seen["viewer"] or "A"
    other = "B" if me == "A" else "A"
    houses = seen["houses"]
    foundations = seen["foundations"]
    half = len(houses) // 2
    width = max([len(_pile(h)) for h in houses[:half]] + [8])
    lines = [_seat_line(f"Opponent ({other})" if seen["viewer"] else f"Seat {other}", seen[other])]
    lines.append("-" * 72)
    for row in range(half):
        left = f"H{row + 1} {_pile(houses[row])}"
        f_left, f_right = foundations[row], foundations[row + half]
        middle = f"F{row + 1} {_card(f_left[-1] if f_left else None):<4} "
        middle += f"F{row + half + 1} {_card(f_right[-1] if f_right else None):<4}"
        right = f"H{row + half + 1} {_pile(houses[row + half])}"
        lines.append(f"{left:<{width + 4}}  {middle}  {right}")
    lines.append("-" * 72)
    lines.append(_seat_line(f"You ({me})" if seen["viewer"] else f"Seat {me}", seen[me]))
    return "\n".join(lines)
