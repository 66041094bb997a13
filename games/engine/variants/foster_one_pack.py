"""Foster's one-pack game (G4), rebuilt from his illustrative hand (docs/variants.md):
no reserve and no foundations; houses built in suit up or down, King next to Ace;
only the turned card and the own waste top load; the opponent's waste top may be
built on a house; spaces are filled from the own waste; a whole suit is closed."""

from __future__ import annotations

from ..board import BY_CARDS, SeatPiles
from ..cards import FACE_MASK, Card, Face, card_name
from ..errors import IllegalMove
from ..moves import HOUSE, OPP_RESERVE, OPP_WASTE, TURNED, WASTE, Move, pile_name
from ..position import Position

#: A house of this many cards (built in suit) holds a whole suit.
WHOLE_SUIT = 13


class FosterOnePackPosition(Position):
    """G4's position: the hooks its own building, loading and spaces change."""

    __slots__ = ()

    def _is_closed(self, h: int) -> bool:
        """House ``h`` holds a whole suit (13 cards built in suit): nothing leaves it.
        Built in alternating colours instead (``houses_same_suit`` off), a house never
        holds a suit, and its top card moves as any other house's."""
        return self.rules.houses_same_suit and len(self.houses[h]) >= WHOLE_SUIT

    def _house_loads_now(self) -> bool:
        return False  # only the turned card and the own waste top load

    def _fills_from_waste(self, seat: SeatPiles) -> bool:
        """With no reserve, the own waste's top fills a space (P3 with the waste), unless
        V14's "no waste card into an empty house" is chosen too: then it never does."""
        rules = self.rules
        return rules.own_waste_available and not rules.waste_never_fills_spaces and bool(seat.waste)

    def _more_card_moves(
        self, seat: SeatPiles, accepts: dict[Face, list[int]], moves: list[Move]
    ) -> list[Move]:
        moves = [
            m
            for m in moves
            if not (m.src == HOUSE and self._is_closed(m.si))
            and not (m.dst in (OPP_RESERVE, OPP_WASTE) and m.src not in (TURNED, WASTE))
        ]
        moves = super()._more_card_moves(seat, accepts, moves)
        opp = self.seats[(self.to_move + 1) % len(self.seats)]
        if opp.waste and not self.rules.take_from_opponent:  # (V14's rule adds it too)
            row = self._table.to_house[self._table.opp_waste]
            moves.extend(
                row[j] for j in accepts.get(opp.waste[-1] & FACE_MASK, ()) if self.houses[j]
            )
        return moves

    def _capped_moves(self, seat: SeatPiles) -> tuple[list[Move], list[int]]:
        moves, spaces = super()._capped_moves(seat)
        if not seat.reserve and self._fills_from_waste(seat):
            row = self._table.to_house[self._table.waste]
            moves = [row[j] for j in spaces]
        return moves, spaces

    def _may_turn(self, seat: SeatPiles, spaces: list[int]) -> bool:
        return super()._may_turn(seat, spaces) and not (spaces and self._fills_from_waste(seat))

    def _space_source(self, seat: SeatPiles) -> str | None:
        source = super()._space_source(seat)
        if source is None and self._fills_from_waste(seat):
            return "your_waste_top"
        return source

    def _cap_allows(self, move: Move) -> bool:
        seat = self.seats[self.to_move]
        return super()._cap_allows(move) or (
            move.src == WASTE
            and move.dst == HOUSE
            and not self.houses[move.di]
            and not seat.reserve
            and self._fills_from_waste(seat)
        )

    def _source_card(self, move: Move, seat: SeatPiles) -> Card | IllegalMove:
        if move.src != OPP_WASTE or move.si != 1 or self.rules.take_from_opponent:
            return super()._source_card(move, seat)
        waste = self.seats[(self.to_move + 1) % len(self.seats)].waste
        if not waste:
            return IllegalMove("S5", "opponent_pile_empty", pile="waste")
        if move.dst == HOUSE and self.houses[move.di]:
            return waste[-1]
        # Where it may go is a building rule (S4), checked here because no other card
        # has this limit.
        return IllegalMove("S4", "borrowed_card_target", card=card_name(waste[-1]))

    def _take_card(self, move: Move, seat: SeatPiles) -> Card:
        if move.src != OPP_WASTE or self.rules.take_from_opponent:
            return super()._take_card(move, seat)
        self.turn_productive = True
        return self.seats[(self.to_move + 1) % len(self.seats)].waste.pop()

    def _apply_card(self, move: Move) -> None:
        super()._apply_card(move)
        if move.src == OPP_WASTE and not self.is_over:
            other = (self.to_move + 1) % len(self.seats)
            if not self.seats[other].has_cards:  # its last card taken, it wins (R8.1)
                self._finish_won(other, BY_CARDS)

    def _fit_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        if (
            move.dst == HOUSE
            and not self.houses[move.di]
            and move.src == HOUSE
            and self._is_closed(move.si)
        ):  # only an empty house could take a closed house's top card
            return IllegalMove("S5", "house_closed", house=pile_name(HOUSE, move.si))
        return super()._fit_refusal(move, card)

    def _load_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        if move.src not in (TURNED, WASTE):
            return IllegalMove("S4", "load_source", card=card_name(card))
        return super()._load_refusal(move, card)

    def _house_rule(self, card: Card, top: Card) -> str:
        return "in_suit_both_ways"
