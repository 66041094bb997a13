"""Small positions for rule tests, written the way a player reads a table.

    position(H={1: "8S", 2: "7H"}, F={3: "AS 2S"},
             A={"reserve": "4C TD 7S", "hand": "2H QC"}, B={"reserve": "6C"})

Piles are numbered from 1 as in the notation and list cards bottom to top;
anything not given is empty. The result is read through the public position
document (NOTATION.md), so these tests exercise the reader too.
"""

from __future__ import annotations

from typing import Any

from games.engine import Position, Rules, from_document
from games.engine.cards import Card, full_pack, make_card
from games.engine.families import family_of


def _cards(text: str | None) -> list[str]:
    return text.split() if text else []


def _seat(data: dict[str, str] | None) -> dict[str, Any]:
    data = data or {}
    return {
        "reserve": _cards(data.get("reserve")),
        "hand": _cards(data.get("hand")),
        "waste": _cards(data.get("waste")),
        "turned": data.get("turned"),
    }


def document(
    *,
    to_move: str = "A",
    F: dict[int, str] | None = None,
    H: dict[int, str] | None = None,
    A: dict[str, str] | None = None,
    B: dict[str, str] | None = None,
    engine: dict[str, Any] | None = None,
    rules: Any = "pagat",
) -> dict[str, Any]:
    F = F or {}
    H = H or {}
    doc: dict[str, Any] = {
        "format": "rbank-position/1",
        "rules": rules,
        "to_move": to_move,
        "foundations": [_cards(F.get(i)) for i in range(1, 9)],
        "houses": [_cards(H.get(i)) for i in range(1, 9)],
        "A": _seat(A),
        "B": _seat(B),
        "status": "playing",
        "winner": None,
        "score": None,
    }
    if engine:
        doc["engine"] = engine
    return doc


def position(**kwargs: Any) -> Position:
    return from_document(document(**kwargs))


def legal(pos: Position) -> list[str]:
    return sorted(str(m) for m in pos.legal_moves())


def dealt_cards(rules: Rules) -> list[Card]:
    """Every card a deal under ``rules`` holds, sorted: a pack per seat (R1.1), the
    one pack of the one-pack games (G2, G4), or G3's two packs and joker."""
    jokers = [make_card(0, 0, rules.packs)] * family_of(rules).jokers
    return sorted([c for p in range(rules.packs) for c in full_pack(p)] + jokers)
