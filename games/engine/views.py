"""What each participant may see: the only form in which a position leaves the server.

Face-down cards never appear: a reserve shows its count and its top (face-up)
card (R2.2), a hand only its count, the face-down cards under a house (V7) only
their count. Face-up cards are shown: foundations,
houses, the turned card (it lies face up on the table for both players), and
wastes. A seat sees its whole own waste (it may spread it, Foster p.14); others
see its top card and count, as across a real table. Nothing of the referee's
``engine`` object appears either: under V13 it holds the key that orders
reshuffled hands.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import card_name
from .position import Position

FORMAT: Final = "rbank-view/1"
SPECTATOR: Final = None


def view(position: Position, viewer: int | None = SPECTATOR) -> dict[str, Any]:
    """The position as seat ``viewer`` (or a spectator, ``None``) may see it."""
    letters = position.rules.seat_names
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": position.rules.to_document(),
        "viewer": None if viewer is None else letters[viewer],
        "to_move": letters[position.to_move],
        "foundations": [[card_name(c) for c in pile] for pile in position.foundations],
        "houses": [[card_name(c) for c in pile] for pile in position.houses],
    }
    if position.rules.face_down_tableau or any(position.houses_down):
        # V7: a face-down house card is shown only as a count.
        out["houses_down"] = [len(pile) for pile in position.houses_down]
    for i, seat in enumerate(position.seats):
        waste: dict[str, Any] = {
            "count": len(seat.waste),
            "top": card_name(seat.waste[-1]) if seat.waste else None,
        }
        if i == viewer:
            waste["cards"] = [card_name(c) for c in seat.waste]
        out[letters[i]] = {
            "reserve": {  # V9: a face-down reserve shows its count only
                "count": len(seat.reserve) + len(seat.reserve_down),
                "top": card_name(seat.reserve[-1]) if seat.reserve else None,
            },
            "hand": {"count": len(seat.hand)},
            "waste": waste,
            "turned": None if seat.turned is None else card_name(seat.turned),
            "count": seat.count,
        }
        if position.rules.compulsory_after_runs:  # V14: S11 starts after 2 or 3 of these
            out[letters[i]]["new_hands"] = position.new_hands[i]
    if position.family.jokers or position.set_aside:  # G3: the jokers put aside, face up
        out["set_aside"] = [card_name(c) for c in position.set_aside]
    if position.family.retires_houses:  # G3: the house that left play, or null
        out["retired_house"] = position.retired_house
    out["status"] = position.status
    out["winner"] = None if position.winner is None else letters[position.winner]
    out["score"] = (
        None if position.score is None else dict(zip(letters, position.score, strict=True))
    )
    out["turn_moves"] = position.turn_moves
    out["turns"] = position.turns
    return out


def revealed_view(position: Position) -> dict[str, Any]:
    """A spectator's view with every face-down card named: for a finished game only
    (each seat's whole reserve, hand and waste; under V7 ``houses_down_cards``)."""
    out = view(position)
    for letter, seat in zip(position.rules.seat_names, position.seats, strict=True):
        # V9: a reserve still face down lies under the turned-up part (both bottom to top).
        out[letter]["reserve"]["cards"] = [card_name(c) for c in seat.reserve_down + seat.reserve]
        out[letter]["hand"]["cards"] = [card_name(c) for c in seat.hand]
        out[letter]["waste"]["cards"] = [card_name(c) for c in seat.waste]
    if any(position.houses_down):  # V7
        out["houses_down_cards"] = [[card_name(c) for c in pile] for pile in position.houses_down]
    return out
