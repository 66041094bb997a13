"""Foster's two-pack rules of 1920 (V14), each an option of its own (docs/variants.md):
a face-down stock turned by hand (``TR``), the opponent's stock and discard tops
available, no waste card into a space, house cards loading only early in a turn,
one card turned before the first card move, compulsory play after the runs
through the hand (S11), and a stalemate that scores nothing."""

from __future__ import annotations

from typing import Final

from ..board import BY_CARDS, SeatPiles
from ..cards import FACE_MASK, Card, Face, card_name
from ..errors import IllegalMove
from ..moves import (
    CARD,
    END,
    END_MOVE,
    FOUNDATION,
    HOUSE,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    TURN,
    TURN_STOCK,
    TURN_STOCK_MOVE,
    TURNED,
    WASTE,
    Move,
)
from ..position import Position
from ..referee import acting

#: How many times a seat's waste must have become its hand before a playable reserve
#: card (``STOCK_RUNS``), and a playable turned card or own waste top (``HAND_RUNS``),
#: must be played (S11, Foster p.17).
STOCK_RUNS: Final = 2
HAND_RUNS: Final = 3


class Stock(Position):
    """The reserve is a face-down stock: nothing turns up by itself, ``TR`` turns its
    top card once none of it is face up, and P3 fills the spaces from it."""

    __slots__ = ()

    def after_deal(self, seed: int | str) -> None:
        for seat in self.seats:
            seat.reserve, seat.reserve_down = [], seat.reserve
        super().after_deal(seed)

    def _can_draw(self, seat: SeatPiles) -> bool:
        return seat.turned is None and not seat.reserve and bool(seat.reserve_down)

    def _turn_actions(self, seat: SeatPiles, spaces: list[int], moves: list[Move]) -> list[Move]:
        actions = super()._turn_actions(seat, spaces, moves)
        if self._can_draw(seat):  # TR; no E while a stock card can be turned
            return [TURN_STOCK_MOVE, *(a for a in actions if a is not END_MOVE)]
        return actions

    def _may_turn(self, seat: SeatPiles, spaces: list[int]) -> bool:
        return super()._may_turn(seat, spaces) and not (spaces and seat.reserve_down)

    def _space_source(self, seat: SeatPiles) -> str | None:
        if seat.reserve or not seat.reserve_down:
            return super()._space_source(seat)
        return "your_stock"

    def _stock_refusal(self, seat: SeatPiles) -> IllegalMove | None:
        if seat.turned is not None:
            return IllegalMove(
                "ALREADY_TURNED", "stock_after_hand_card", card=card_name(seat.turned)
            )
        if seat.reserve:
            return IllegalMove("ALREADY_TURNED", "stock_top_up", card=card_name(seat.reserve[-1]))
        if not seat.reserve_down:
            return IllegalMove("NO_CARDS", "stock_empty")
        return self._turning_refusal(TURN_STOCK_MOVE, "turn_reserve_card")

    def _end_refusal(self, seat: SeatPiles) -> IllegalMove | None:
        if not (seat.turned is not None or seat.hand or seat.waste) and self._can_draw(seat):
            return IllegalMove("CANNOT_END", "cannot_end_stock")
        return super()._end_refusal(seat)

    def _source_card(self, move: Move, seat: SeatPiles) -> Card | IllegalMove:
        if move.src == RESERVE and not seat.reserve and seat.reserve_down:
            return IllegalMove("S5", "stock_top_down")
        return super()._source_card(move, seat)

    def _turn_stock(self, seat: SeatPiles) -> None:
        seat.reserve.append(seat.reserve_down.pop())
        self._reserve_uncovered(seat)
        if not seat.has_cards:  # the card turned up left the game (G3's joker): R8.1
            self._finish_won(self.to_move, BY_CARDS)


class TakeFromOpponent(Position):
    """The top cards of the next seat's face-up reserve and waste are available: to a
    foundation (so P2 makes them compulsory there) or onto a house card."""

    __slots__ = ()

    def _opponent_tops(self) -> list[tuple[list[Card], int]]:
        """(pile, source number) of the next seat's waste and reserve."""
        opp = self.seats[(self.to_move + 1) % len(self.seats)]
        table = self._table
        return [(opp.waste, table.opp_waste), (opp.reserve, table.opp_reserve)]

    def _more_foundation_moves(
        self, seat: SeatPiles, want: dict[Face, list[int]], moves: list[Move]
    ) -> None:
        super()._more_foundation_moves(seat, want, moves)
        table = self._table.to_foundation
        for pile, source in self._opponent_tops():
            if pile:
                targets = want.get(pile[-1] & FACE_MASK)
                if targets:
                    moves.extend(table[source][i] for i in targets)

    def _more_card_moves(
        self, seat: SeatPiles, accepts: dict[Face, list[int]], moves: list[Move]
    ) -> list[Move]:
        moves = super()._more_card_moves(seat, accepts, moves)
        houses = self.houses
        for pile, source in self._opponent_tops():
            if pile:
                row = self._table.to_house[source]
                moves.extend(row[j] for j in accepts.get(pile[-1] & FACE_MASK, ()) if houses[j])
        return moves

    def _source_card(self, move: Move, seat: SeatPiles) -> Card | IllegalMove:
        if move.src not in (OPP_WASTE, OPP_RESERVE) or move.si != 1:
            return super()._source_card(move, seat)
        opp = self.seats[(self.to_move + 1) % len(self.seats)]
        pile = opp.waste if move.src == OPP_WASTE else opp.reserve
        what = "waste" if move.src == OPP_WASTE else "reserve"
        if not pile:
            if opp.reserve_down and move.src == OPP_RESERVE:
                return IllegalMove("S5", "opponent_stock_down")
            return IllegalMove("S5", "opponent_pile_empty", pile=what)
        if move.dst == FOUNDATION or (move.dst == HOUSE and self.houses[move.di]):
            return pile[-1]
        return IllegalMove("S4", "taken_card_target", card=card_name(pile[-1]), pile=what)

    def _take_card(self, move: Move, seat: SeatPiles) -> Card:
        if move.src not in (OPP_WASTE, OPP_RESERVE):
            return super()._take_card(move, seat)
        opp = self.seats[(self.to_move + 1) % len(self.seats)]
        if move.src == OPP_WASTE:
            return opp.waste.pop()
        card = opp.reserve.pop()
        self._reserve_uncovered(opp)
        return card

    def _apply_card(self, move: Move) -> None:
        super()._apply_card(move)
        if move.src in (OPP_WASTE, OPP_RESERVE) and not self.is_over:
            other = (self.to_move + 1) % len(self.seats)
            if not self.seats[other].has_cards:  # its last card taken, it wins (R8.1)
                self._finish_won(other, BY_CARDS)


class NoWasteSpaces(Position):
    """No waste card, the mover's own or the opponent's, goes into an empty house."""

    __slots__ = ()

    def _more_card_moves(
        self, seat: SeatPiles, accepts: dict[Face, list[int]], moves: list[Move]
    ) -> list[Move]:
        houses = self.houses
        moves = [m for m in moves if not (m.src == WASTE and m.dst == HOUSE and not houses[m.di])]
        return super()._more_card_moves(seat, accepts, moves)

    def _fit_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        if move.src == WASTE and move.dst == HOUSE and not self.houses[move.di]:
            return IllegalMove("S4", "waste_to_space", card=card_name(card))
        return super()._fit_refusal(move, card)


class TurnTracking(Position):
    """Keeps the turn's two flags the rules below read: a card has moved, and one of
    the mover's own (reserve, turned card or waste)."""

    __slots__ = ()

    def _apply_card(self, move: Move) -> None:
        self.turn_card_moved = True
        if move.src in (RESERVE, TURNED, WASTE):
            self.turn_own_played = True
        super()._apply_card(move)


class HouseLoadsFirst(TurnTracking):
    """A house card loads the opponent only before the mover has played a card of its
    own in the turn (Foster p.9)."""

    __slots__ = ()

    def _house_loads_now(self) -> bool:
        return not self.turn_own_played and super()._house_loads_now()

    def _more_card_moves(
        self, seat: SeatPiles, accepts: dict[Face, list[int]], moves: list[Move]
    ) -> list[Move]:
        if self.turn_own_played:
            moves = [m for m in moves if not (m.src == HOUSE and m.dst in (OPP_RESERVE, OPP_WASTE))]
        return super()._more_card_moves(seat, accepts, moves)

    def _load_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        if move.src == HOUSE and self.turn_own_played:
            return IllegalMove("S4", "late_house_load", card=card_name(card))
        return super()._load_refusal(move, card)


class OneCardFirst(TurnTracking):
    """Before the first card move of a turn only one card is turned, from the hand or
    the stock, unless no card can move (``ONE_CARD_FIRST``, Foster p.15)."""

    __slots__ = ()

    def _blocks(self, moves: list[Move]) -> bool:
        """A card was turned this turn before any card moved, and a tableau change is
        open among ``moves``. Plays of the card just turned up from the stock do not
        count: Foster lets a player leave that card and go to the hand (p.7)."""
        if self.turn_moves == 0 or self.turn_card_moved:
            return False
        return any(m.kind == CARD and m.src != RESERVE for m in moves)

    def _turn_actions(self, seat: SeatPiles, spaces: list[int], moves: list[Move]) -> list[Move]:
        actions = super()._turn_actions(seat, spaces, moves)
        if seat.turned is None and self._blocks(moves):
            return [a for a in actions if a.kind not in (TURN, TURN_STOCK)]
        return actions

    def _turning_refusal(self, move: Move, action: str) -> IllegalMove | None:
        if self._blocks(self.legal_moves()):
            return IllegalMove("ONE_CARD_FIRST", "one_card_first", action=action)
        return super()._turning_refusal(move, action)


class CompulsoryAfterRuns(Position):
    """Once a seat's waste has become its hand twice, a playable reserve card must be
    played; three times, its playable turned card and waste top too, before it turns,
    discards or ends its turn (S11, Foster p.17)."""

    __slots__ = ()

    def _new_hand(self, m: int) -> None:
        super()._new_hand(m)
        self.new_hands[m] += 1

    def run_moves(self) -> list[Move]:
        return self._run_moves(self.legal_moves())

    def _run_moves(self, moves: list[Move]) -> list[Move]:
        """Among ``moves``, those that play a card the mover must play now. Lapses at
        the R7.6 cap."""
        runs = self.new_hands[self.to_move]
        if runs < STOCK_RUNS or self.turn_moves >= self.rules.max_turn_moves:
            return []
        sources = (RESERVE, TURNED, WASTE) if runs >= HAND_RUNS else (RESERVE,)
        return [m for m in moves if m.kind == CARD and m.src in sources and not m.is_discard]

    def _turn_actions(self, seat: SeatPiles, spaces: list[int], moves: list[Move]) -> list[Move]:
        actions = super()._turn_actions(seat, spaces, moves)
        if self._run_moves(moves):  # only TR may come before the compulsory card
            return [a for a in actions if a.kind == TURN_STOCK]
        return actions

    def _compulsion_refusal(self, move: Move, action: str, card: Card | None) -> IllegalMove | None:
        refusal = super()._compulsion_refusal(move, action, card)
        if refusal is not None or not (move.kind in (TURN, END) or move.is_discard):
            return refusal
        moves = self.run_moves()
        if not moves:
            return None
        first = moves[0]
        playable = self._source_card(first, self.seats[self.to_move])
        assert not isinstance(playable, IllegalMove)
        what = {RESERVE: "your_reserve_card", TURNED: "your_turned_card", WASTE: "your_waste_card"}
        return IllegalMove(
            "S11",
            "play_after_runs",
            what=what[first.src],
            card=card_name(playable),
            compulsory=str(first),
            runs=self.new_hands[self.to_move],
            **acting(action, card),
        )


class StalemateDraw(Position):
    """A stalemate, found or agreed, is a draw: nobody scores (Foster p.16)."""

    __slots__ = ()

    def _stalemate_score(self, counts: list[int]) -> list[int]:
        return [0] * len(counts)
