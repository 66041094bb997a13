"""The three-player game (G3): two packs and a joker pooled and shared out; the joker
is put aside as soon as it shows, and the first house emptied leaves play."""

from __future__ import annotations

from ..board import BY_CARDS, SeatPiles
from ..cards import FACE_MASK, JOKER, Card, Face
from ..errors import IllegalMove
from ..moves import HOUSE, Move, pile_name
from ..position import Position


class ThreePlayerPosition(Position):
    """G3's position: the hooks the joker and the retired house change."""

    __slots__ = ()

    def spaces(self) -> list[int]:
        return [j for j in super().spaces() if j != self.retired_house]

    def _tableau(
        self, seat: SeatPiles
    ) -> tuple[dict[Face, list[int]], list[int], list[tuple[int, Face]]]:
        accepts, spaces, sources = super()._tableau(seat)
        if self.retired_house in spaces:  # a retired house is no space
            spaces.remove(self.retired_house)
        return accepts, spaces, sources

    def _fit_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        if move.dst == HOUSE and move.di == self.retired_house:
            return IllegalMove("S4", "house_retired", house=pile_name(HOUSE, move.di))
        return super()._fit_refusal(move, card)

    def _emptied(self, h: int) -> None:
        super()._emptied(h)
        if self.retired_house is None and not self.houses[h]:
            self.retired_house = h  # the first house emptied leaves play

    def _reserve_uncovered(self, seat: SeatPiles) -> None:
        super()._reserve_uncovered(seat)
        self.set_aside_jokers(seat)

    def set_aside_jokers(self, seat: SeatPiles) -> None:
        """A joker on top of ``seat``'s reserve leaves the game; the card under it is
        turned up (R4.3)."""
        reserve = seat.reserve
        while reserve and reserve[-1] & FACE_MASK == JOKER:
            self.set_aside.append(reserve.pop())

    def _turn_card(self, seat: SeatPiles) -> None:
        super()._turn_card(seat)
        if seat.turned is not None and seat.turned & FACE_MASK == JOKER:  # put aside
            self.set_aside.append(seat.turned)
            seat.turned = None
            if not seat.has_cards:  # the joker was its last card (R8.1)
                self._finish_won(self.to_move, BY_CARDS)
