"""Why the rules refuse a move: the standard game's refusals, in docs/rules.md §7 order.

``Referee.refusal`` is the one place that decides a move: ``push`` asks it, and a
property test checks that it refuses exactly what ``legal_moves`` leaves out.
A refusal is data (``errors.IllegalMove``: a code, a reason, cards and piles);
the words come from ``messages.py``. Families and options add refusals through
the hooks below, which the standard game answers simply.

Refusals that say the action cannot happen at all come first; then the
violations S5 > S4 > S1 > S2 > S8 > S6 > S7 > S10 > S11 > S3 > S9 (the codes of
the options, docs/variants.md, take their places in that order); then R7.6.
"""

from __future__ import annotations

from .board import PLAYING, SeatPiles
from .cards import ACE, FACE_MASK, FOUNDATION_NEXT, Card, card_name, is_red, rank_of
from .errors import IllegalMove
from .generate import Generator
from .moves import (
    CARD,
    END,
    END_MOVE,
    FOUNDATION,
    HOUSE,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    TURN,
    TURN_MOVE,
    TURNED,
    WASTE,
    Move,
    pile_name,
)

#: The S5 reason for each source that is never available in the standard game.
UNAVAILABLE = {
    FOUNDATION: "foundation_source",
    WASTE: "own_waste_source",
    OPP_RESERVE: "opponent_reserve_source",
    OPP_WASTE: "opponent_waste_source",
}


def acting(action: str, card: Card | None) -> dict[str, object]:
    """The parameters naming what the player tried: an action, and the card it moves."""
    return {"action": action} if card is None else {"action": action, "moving": card_name(card)}


class Referee(Generator):
    """The refusals of the standard game, and the hooks the variants override."""

    __slots__ = ()

    def is_legal(self, move: Move) -> bool:
        return self.refusal(move) is None

    def refusal(self, move: Move, by_seat: int | None = None) -> IllegalMove | None:
        """Why the rules refuse ``move`` now, or None if it is legal.

        With ``by_seat`` given, a move by any seat but the one to move is ``NOT_YOUR_TURN``.
        """
        if self.status != PLAYING:
            return IllegalMove("GAME_OVER", "game_over")
        if by_seat is not None and by_seat != self.to_move:
            return IllegalMove("NOT_YOUR_TURN", "not_your_turn")
        seat = self.seats[self.to_move]
        kind = move.kind
        if kind == CARD:
            return self._card_refusal(move, seat)
        if kind == TURN:
            return self._turn_refusal(seat)
        if kind == END:
            return self._end_refusal(seat)
        return self._stock_refusal(seat)

    # ---------------------------------------------------------------- actions

    def _turn_refusal(self, seat: SeatPiles) -> IllegalMove | None:
        """T: turn the top hand card (R4.4)."""
        if seat.turned is not None:
            return IllegalMove("ALREADY_TURNED", "already_turned", card=card_name(seat.turned))
        if not seat.hand and not seat.waste:
            return IllegalMove("NO_CARDS", "nothing_to_turn")
        return self._turning_refusal(TURN_MOVE, "turn_hand_card")

    def _turning_refusal(self, move: Move, action: str) -> IllegalMove | None:
        """Hook: what the priorities say to turning a card now (``T``; ``TR`` under V14):
        P1/P2, the compulsory moves of the options, then P3 for a hand card."""
        refusal = self._priority_refusal(action) or self._compulsion(move, action)
        if refusal is None and move.kind == TURN:
            refusal = self._space_refusal(self.seats[self.to_move])
        return refusal

    def _end_refusal(self, seat: SeatPiles) -> IllegalMove | None:
        """Hook: E, ending a turn with no hand, waste or turned card (R4.6)."""
        if seat.turned is not None or seat.hand or seat.waste:
            return IllegalMove("CANNOT_END", "cannot_end")
        return self._priority_refusal("end_turn") or self._compulsion(END_MOVE, "end_turn")

    def _stock_refusal(self, seat: SeatPiles) -> IllegalMove | None:
        """Hook: TR, turning a stock card: only Foster's face-down stock has one (V14)."""
        return IllegalMove("NO_CARDS", "no_stock")

    def _card_refusal(self, move: Move, seat: SeatPiles) -> IllegalMove | None:
        """A card move: available (S5), fitting (S4), then the priorities."""
        if move.is_discard and seat.turned is None:
            return IllegalMove("NO_TURNED_CARD", "no_turned_card")
        card = self._source_card(move, seat)
        if isinstance(card, IllegalMove):
            return card
        refusal = self._fit_refusal(move, card)
        if refusal is not None:
            return refusal
        if move.dst == FOUNDATION:
            self.foundation_moves()
            if self._p1 and move.src != RESERVE:
                return self._p1_refusal("play_card", card)
            return None
        action = "discard" if move.is_discard else "move_card"
        if self.foundation_moves():
            return self._priority_refusal(action, card)
        return self._compulsion(move, action, card) or self._cap_refusal(move)

    # ------------------------------------------------------------- S5 and S4

    def _source_card(self, move: Move, seat: SeatPiles) -> Card | IllegalMove:
        """Hook: the available card ``move`` takes (R4.2), or an S5 refusal."""
        src = move.src
        if src == HOUSE:
            pile = self.houses[move.si]
            if pile:
                return pile[-1]
            return IllegalMove("S5", "house_empty", house=pile_name(HOUSE, move.si))
        if src == RESERVE:
            if seat.reserve:
                return seat.reserve[-1]
            return IllegalMove("S5", "reserve_empty")
        if src == TURNED:
            if seat.turned is not None:
                return seat.turned
            return IllegalMove("S5", "no_turned_card_to_play")
        return IllegalMove("S5", UNAVAILABLE[src])

    def _fit_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        """Hook: an S4 refusal when ``card`` may not go where ``move`` puts it (R5)."""
        dst, di = move.dst, move.di
        if dst == FOUNDATION:
            return self._foundation_refusal(card, di)
        if dst == HOUSE:
            if move.src == HOUSE and move.si == di:
                return IllegalMove(
                    "S4", "same_house", card=card_name(card), house=pile_name(HOUSE, di)
                )
            pile = self.houses[di]
            if not pile or (card & FACE_MASK) in self._house_fits[pile[-1] & FACE_MASK]:
                return None
            top = pile[-1]
            return IllegalMove(
                "S4",
                "house_sequence",
                card=card_name(card),
                top=card_name(top),
                why=self._house_rule(card, top),
            )
        if dst in (OPP_RESERVE, OPP_WASTE):
            return self._load_refusal(move, card)
        if dst == WASTE:
            return None if move.src == TURNED else IllegalMove("S4", "waste_target")
        if dst == RESERVE:
            return IllegalMove("S4", "reserve_target")
        return IllegalMove("S4", "turned_target")

    def _foundation_refusal(self, card: Card, di: int) -> IllegalMove | None:
        """R5.1: foundations start with an ace and are built up in suit."""
        pile = self.foundations[di]
        where = pile_name(FOUNDATION, di)
        if not pile:
            if rank_of(card) == ACE:
                return None
            return IllegalMove("S4", "foundation_needs_ace", card=card_name(card), foundation=where)
        top = pile[-1]
        if not FOUNDATION_NEXT[top & FACE_MASK]:  # (before the joker's face 0 could match)
            return IllegalMove("S4", "foundation_complete", foundation=where)
        if FOUNDATION_NEXT[top & FACE_MASK] == card & FACE_MASK:
            return None
        return IllegalMove(
            "S4",
            "foundation_sequence",
            card=card_name(card),
            top=card_name(top),
            foundation=where,
        )

    def _house_rule(self, card: Card, top: Card) -> str:
        """Hook: the building rule ``card`` broke on ``top`` (R5.2), as a phrase."""
        if rank_of(card) + 1 == rank_of(top):
            return "alternating_colours"
        if is_red(card) != is_red(top):
            return "one_rank_down"
        return "alternating_one_rank"

    def _load_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        """Hook: R5.4, loading an opponent's reserve or waste in suit, a rank up or down."""
        target = self.seats[(self.to_move + move.di) % self.rules.seats]
        pile = target.reserve if move.dst == OPP_RESERVE else target.waste
        what = "reserve" if move.dst == OPP_RESERVE else "waste"
        if not pile:
            if move.dst == OPP_RESERVE and target.reserve_down:  # V9, V14: face down
                return IllegalMove("S4", "load_face_down")
            return IllegalMove("S4", "load_empty", pile=what)
        if (card & FACE_MASK) in self._load_fits[pile[-1] & FACE_MASK]:
            return None
        return IllegalMove(
            "S4", "load_sequence", card=card_name(card), pile=what, top=card_name(pile[-1])
        )

    # ------------------------------------------------------------ priorities

    def _p1_refusal(self, action: str, card: Card | None = None) -> IllegalMove:
        """S1 (P1): the reserve card fits a foundation."""
        reserve = self.seats[self.to_move].reserve[-1]
        return IllegalMove(
            "S1",
            "reserve_to_foundation",
            card=card_name(reserve),
            foundation=pile_name(FOUNDATION, self.foundation_moves()[0].di),
            **acting(action, card),
        )

    def _priority_refusal(self, action: str, card: Card | None = None) -> IllegalMove | None:
        """S1/S2 when a foundation move is pending and ``action`` is not one (P1, P2)."""
        pending = self.foundation_moves()
        if not pending:
            return None
        if self._p1:
            return self._p1_refusal(action, card)
        first = pending[0]
        fits = self._source_card(first, self.seats[self.to_move])
        assert not isinstance(fits, IllegalMove)
        where = {"card": card_name(fits), "foundation": pile_name(FOUNDATION, first.di)}
        if first.src == TURNED:
            return IllegalMove("S2", "turned_to_foundation", **where, **acting(action, card))
        return IllegalMove(
            "S2",
            "pile_to_foundation",
            **where,
            source_pile=pile_name(first.src, first.si),
            **acting(action, card),
        )

    def _compulsion(self, move: Move, action: str, card: Card | None = None) -> IllegalMove | None:
        """The options' compulsory moves (S8, S6, S7, S10, S11), which lapse past the
        R7.6 cap: the cap's own rules leave only the moves that end a turn."""
        if self.turn_moves >= self.rules.max_turn_moves:
            return None
        return self._compulsion_refusal(move, action, card)

    def _compulsion_refusal(self, move: Move, action: str, card: Card | None) -> IllegalMove | None:
        """Hook: a compulsory move of an option that ``move`` leaves (none here)."""
        return None

    def _space_refusal(self, seat: SeatPiles) -> IllegalMove | None:
        """Hook: S3 (P3): no turning while a house is empty and can be filled."""
        source = self._space_source(seat)
        if source is None:
            return None
        spaces = self.spaces()
        if not spaces:
            return None
        return IllegalMove("S3", "fill_spaces", house=pile_name(HOUSE, spaces[0]), source=source)

    def _space_source(self, seat: SeatPiles) -> str | None:
        """Hook: what fills a space (P3): the reserve, while it has a card."""
        return "your_reserve" if seat.reserve else None

    def _cap_refusal(self, move: Move) -> IllegalMove | None:
        """R7.6: past the cap only foundation moves, T, C-W, E, and filling a space from
        the reserve (which P3 compels before turning) are allowed."""
        if (
            self.turn_moves < self.rules.max_turn_moves
            or move.dst == FOUNDATION
            or move.is_discard
            or self._cap_allows(move)
        ):
            return None
        return IllegalMove("TURN_TOO_LONG", "turn_too_long", max=self.rules.max_turn_moves)

    def _cap_allows(self, move: Move) -> bool:
        """Hook: past the cap, the card moves still allowed besides foundation moves
        and the discard: the reserve filling a space."""
        return move.src == RESERVE and move.dst == HOUSE and not self.houses[move.di]
