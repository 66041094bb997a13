"""Options that change the mover's own piles: the own waste available (V1), the
reserve dealt face down (V9), the waste shuffled into the new hand (V13)."""

from __future__ import annotations

import secrets

from ..board import SeatPiles
from ..cards import FACE_MASK, Card, Face
from ..errors import IllegalMove
from ..moves import FOUNDATION, RESERVE, WASTE, Move
from ..position import Position
from ..shuffle import reshuffle_key, reshuffle_stream


class OwnWaste(Position):
    """V1: the top card of the mover's own waste is available (source ``W``)."""

    __slots__ = ()

    def _more_foundation_moves(
        self, seat: SeatPiles, want: dict[Face, list[int]], moves: list[Move]
    ) -> None:
        if seat.waste:
            targets = want.get(seat.waste[-1] & FACE_MASK)
            if targets:
                row = self._table.to_foundation[self._table.waste]
                moves.extend(row[i] for i in targets)
        super()._more_foundation_moves(seat, want, moves)

    def _tableau(
        self, seat: SeatPiles
    ) -> tuple[dict[Face, list[int]], list[int], list[tuple[int, Face]]]:
        accepts, spaces, sources = super()._tableau(seat)
        if seat.waste:
            sources.append((self._table.waste, seat.waste[-1] & FACE_MASK))
        return accepts, spaces, sources

    def _source_card(self, move: Move, seat: SeatPiles) -> Card | IllegalMove:
        if move.src != WASTE:
            return super()._source_card(move, seat)
        return seat.waste[-1] if seat.waste else IllegalMove("S5", "waste_empty")

    def _take_card(self, move: Move, seat: SeatPiles) -> Card:
        if move.src != WASTE:
            return super()._take_card(move, seat)
        self.turn_productive = True  # a card the mover gets rid of
        return seat.waste.pop()


class FaceDownReserve(Position):
    """V9: every reserve is dealt face down, and turned up at its seat's first turn
    once no house card fits a foundation (the tableau's foundation moves first)."""

    __slots__ = ()

    def after_deal(self, seed: int | str) -> None:
        for seat in self.seats:
            seat.reserve, seat.reserve_down = [], seat.reserve
        super().after_deal(seed)

    def reveal_reserve(self) -> None:
        """Turn up the mover's face-down reserve once no house card fits a foundation.
        Called after every foundation move and at the start of every turn, which are
        what change it (a house card that fits a foundation may move nowhere else, P2;
        a slip accepted in classic play may move it, so it is called then too)."""
        seat = self.seats[self.to_move]
        if not seat.reserve_down or self.is_over:
            return
        want = self._fwant if self._fwant is not None else self._foundation_wants()
        if any(pile and pile[-1] & FACE_MASK in want for pile in self.houses):
            return
        seat.reserve, seat.reserve_down = seat.reserve_down, []
        self._fmoves = None

    def push(self, move: Move, *, by_seat: int | None = None, classic: bool = False) -> str | None:
        violation = super().push(move, by_seat=by_seat, classic=classic)
        if violation is not None:  # an S2 slip may move a fitting card
            self.reveal_reserve()
        return violation

    def _apply_card(self, move: Move) -> None:
        super()._apply_card(move)
        if move.dst == FOUNDATION:  # the tableau's foundation moves may all be made
            self.reveal_reserve()

    def _turn_starts(self) -> None:
        super()._turn_starts()
        self.reveal_reserve()  # the new mover's, unless a house card fits a foundation

    def _source_card(self, move: Move, seat: SeatPiles) -> Card | IllegalMove:
        if move.src == RESERVE and not seat.reserve and seat.reserve_down:
            return IllegalMove("S5", "reserve_down")
        return super()._source_card(move, seat)


class ShuffleWaste(Position):
    """V13: the waste is shuffled as it becomes the new hand, from a key derived from
    the deal seed, so a game still replays from its seed and moves."""

    __slots__ = ()

    def after_deal(self, seed: int | str) -> None:
        self.reshuffle_key = reshuffle_key(seed)
        super().after_deal(seed)

    def _new_hand(self, m: int) -> None:
        super()._new_hand(m)
        if self.reshuffle_key is None:
            # A position that did not come from a deal (a hand-made document): no seed
            # to derive the key from, so draw one; such a game is not replayed from a seed.
            self.reshuffle_key = secrets.token_hex(32)
        count = self.reshuffles[m]
        reshuffle_stream(self.reshuffle_key, self.seat_name(m), count).shuffle(self.seats[m].hand)
        self.reshuffles[m] = count + 1
