"""Options that change the priorities: turning first (V8), compulsory loading (V5)
and the reserve to a house (V12)."""

from __future__ import annotations

from ..board import SeatPiles
from ..cards import FACE_MASK, Card, card_name
from ..errors import IllegalMove
from ..moves import CARD, HOUSE, OPP_RESERVE, OPP_WASTE, RESERVE, TURN, TURN_MOVE, Move, pile_name
from ..position import Position
from ..referee import acting


class LenientTurn(Position):
    """V8: the first action of a turn may be T whatever the priorities say; they
    apply again after it."""

    __slots__ = ()

    def _lenient_turn_open(self) -> bool:
        """It is the start of the turn and a hand card can be turned."""
        seat = self.seats[self.to_move]
        return self.turn_moves == 0 and seat.turned is None and bool(seat.hand or seat.waste)

    def _foundation_only(self, foundation: list[Move]) -> list[Move]:
        moves = super()._foundation_only(foundation)
        if self._lenient_turn_open():
            moves.append(TURN_MOVE)
        return moves

    def _forced_moves(self, moves: list[Move]) -> list[Move] | None:
        forced = super()._forced_moves(moves)
        if forced is not None and self._lenient_turn_open():
            forced.append(TURN_MOVE)
        return forced

    def _turn_actions(self, seat: SeatPiles, spaces: list[int], moves: list[Move]) -> list[Move]:
        # Whatever the other rules hold back (P3, V6, V14's stock and late play: S11),
        # the first action may be T; this class runs before theirs (``OPTION_CLASSES``).
        actions = super()._turn_actions(seat, spaces, moves)
        if self._lenient_turn_open() and TURN_MOVE not in actions:
            actions.append(TURN_MOVE)
        return actions

    def _turning_refusal(self, move: Move, action: str) -> IllegalMove | None:
        if move.kind == TURN and self.turn_moves == 0:
            return None  # turning first thing in the turn breaks no priority
        return super()._turning_refusal(move, action)


class CompulsoryLoading(Position):
    """V5: with no foundation move open, a possible load of an opponent's pile comes
    before every other move, turn, discard or ``E`` (S6)."""

    __slots__ = ()

    def _forced_moves(self, moves: list[Move]) -> list[Move] | None:
        loads = [m for m in moves if m.dst == OPP_RESERVE or m.dst == OPP_WASTE]
        return loads if loads else super()._forced_moves(moves)

    def _compulsion_refusal(self, move: Move, action: str, card: Card | None) -> IllegalMove | None:
        load = self._pending_load()
        if load is None:
            return super()._compulsion_refusal(move, action, card)
        if move.kind == CARD and move.dst in (OPP_RESERVE, OPP_WASTE):
            return None
        loading, pile = load
        return IllegalMove(
            "S6", "load_first", card=card_name(loading), pile=pile, **acting(action, card)
        )

    def _pending_load(self) -> tuple[Card, str] | None:
        """An available card that can load an opponent's pile, and that pile's name."""
        seat = self.seats[self.to_move]
        cards = []
        if self._house_loads_now():  # G4, V14: house cards may not load (now)
            cards = [
                pile[-1] for h, pile in enumerate(self.houses) if pile and not self._is_closed(h)
            ]
        if seat.reserve:  # (G4 has no reserve)
            cards.insert(0, seat.reserve[-1])
        if seat.turned is not None:
            cards.insert(0, seat.turned)
        if self.rules.own_waste_available and seat.waste:  # V1
            cards.append(seat.waste[-1])
        for fits, rows, _ in self._load_targets():
            for card in cards:
                if card & FACE_MASK in fits:
                    return card, "reserve" if rows is self._table.to_opp_reserve else "waste"
        return None


class ReserveToHouse(Position):
    """V12: a reserve card that fits a house (an empty one included) goes there before
    any other non-foundation move, turn, discard or ``E`` (S7)."""

    __slots__ = ()

    def _forced_moves(self, moves: list[Move]) -> list[Move] | None:
        fills = [m for m in moves if m.src == RESERVE and m.dst == HOUSE]
        return fills if fills else super()._forced_moves(moves)

    def _compulsion_refusal(self, move: Move, action: str, card: Card | None) -> IllegalMove | None:
        fill = self._pending_fill()
        if fill is None:
            return super()._compulsion_refusal(move, action, card)
        if move.kind == CARD and move.src == RESERVE and move.dst == HOUSE:
            return None
        return IllegalMove(
            "S7",
            "reserve_to_house",
            card=card_name(self.seats[self.to_move].reserve[-1]),
            house=pile_name(HOUSE, fill),
            **acting(action, card),
        )

    def _pending_fill(self) -> int | None:
        """The first house the mover's reserve card fits (an empty one included)."""
        seat = self.seats[self.to_move]
        if not seat.reserve:
            return None
        face = seat.reserve[-1] & FACE_MASK
        for j, pile in enumerate(self.houses):
            if j == self.retired_house:  # G3: out of play
                continue
            if not pile or face in self._house_fits[pile[-1] & FACE_MASK]:
                return j
        return None
