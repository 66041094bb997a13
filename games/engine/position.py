"""Playing a move: ``Position``, the standard game (docs/rules.md §4-8).

``Position`` is mutable, like a chess board: ``push`` applies a move after the
referee (``referee.py``) has accepted it, ``legal_moves`` (``generate.py``) lists
what the seat to move may do. Both use the same predicates, so a move is
generated exactly when ``push`` accepts it.

``Position(rules)`` gives an instance of the class that plays ``rules``: the
family's class with a small class per option in force (``families.py``). This
module is the standard game, with the hooks those classes override; it asks no
question about options.
"""

from __future__ import annotations

from .board import (
    BY_AGREEMENT,
    BY_CARDS,
    BY_RESIGNATION,
    BY_STALEMATE,
    BY_TIMEOUT,
    BY_TURN_LIMIT,
    PLAYING,
    STALEMATE,
    WON,
    SeatPiles,
)
from .cards import FACE_MASK, Card
from .errors import PRIORITY_VIOLATIONS, IllegalMove
from .moves import CARD, END, FOUNDATION, HOUSE, OPP_RESERVE, OPP_WASTE, RESERVE, TURN, TURNED, Move
from .referee import UNAVAILABLE, Referee

__all__ = [
    "BY_AGREEMENT",
    "BY_CARDS",
    "BY_RESIGNATION",
    "BY_STALEMATE",
    "BY_TIMEOUT",
    "BY_TURN_LIMIT",
    "PLAYING",
    "STALEMATE",
    "WON",
    "Position",
    "SeatPiles",
]


class Position(Referee):
    """A complete position of the standard game, as the referee sees it."""

    __slots__ = ()

    def copy(self) -> Position:
        other = super().copy()
        assert isinstance(other, Position)
        return other

    def push(self, move: Move, *, by_seat: int | None = None, classic: bool = False) -> str | None:
        """Check and apply ``move``. Raises ``IllegalMove`` when the rules refuse it.

        With ``classic=True`` the priority violations (S1-S3, and S6-S11 under the
        options) are accepted, for the opponent to call Stop! on, and their code is
        returned; building and availability violations are always refused.
        ``by_seat`` as in ``refusal``.
        """
        refusal: IllegalMove | None = None
        legal = self._legal
        if legal is not None and (by_seat is None or by_seat == self.to_move):
            for listed in legal:
                if listed is move:  # just listed by ``legal_moves``: nothing to check
                    break
            else:
                refusal = self.refusal(move, by_seat)
        else:
            refusal = self.refusal(move, by_seat)
        violation = None
        if refusal is not None:
            if not (classic and refusal.code in PRIORITY_VIOLATIONS):
                raise refusal
            if move.kind == CARD:
                cap = self._cap_refusal(move)  # a violation does not lift the cap
                if cap is not None:
                    raise cap
            violation = refusal.code
        self._apply(move)
        return violation

    def plain_push(
        self, move: Move, *, by_seat: int | None = None, classic: bool = False
    ) -> str | None:
        """``push`` of a class that overrides no hook of generation
        (``families.position_class`` puts it in place of ``push``): a card move that
        ``legal_moves`` has just listed is carried out at once; anything else as
        ``push``."""
        legal = self._legal
        if legal is not None and (by_seat is None or by_seat == self.to_move):
            for listed in legal:
                if listed is move:
                    state = self._houses_next
                    self._apply(move)
                    masks = self._masks
                    if state is None or masks is None:
                        return None
                    if move.kind == CARD:  # bring the houses' view up to date
                        tops, where, spaces = state
                        key = masks.key
                        houses = self.houses
                        for kind, h in ((move.src, move.si), (move.dst, move.di)):
                            if kind != HOUSE:
                                continue
                            pile = houses[h]
                            old = tops[h]
                            new = pile[-1] & FACE_MASK if pile else 0
                            bit = 1 << h
                            if old:
                                where[key[old]] &= ~bit
                            else:
                                spaces &= ~bit
                            if new:
                                where[key[new]] |= bit
                            else:
                                spaces |= bit
                            tops[h] = new
                        state = tops, where, spaces
                    self._houses_state = state
                    return None
        return Position.push(self, move, by_seat=by_seat, classic=classic)

    def play(self, text: str) -> Move:
        """Parse, check and apply one move given in the notation; returns the move."""
        move = self.parse(text)
        self.push(move)
        return move

    # ------------------------------------------------------------- applying

    def _apply(self, move: Move) -> None:
        """Carry out a checked move."""
        self._fmoves = None
        self._legal = None
        self._houses_next = self._houses_state = None
        self.turn_moves += 1
        kind = move.kind
        if kind == CARD:
            self._apply_card(move)
        elif kind == TURN:
            self._turn_card(self.seats[self.to_move])
        elif kind == END:
            self._end_turn()
        else:
            self._turn_stock(self.seats[self.to_move])

    def _apply_card(self, move: Move) -> None:
        """Hook: move a card from its source to its destination (R5), and a player
        who has just got rid of the last card wins (R8.1)."""
        m = self.to_move
        seat = self.seats[m]
        src = move.src
        card: Card
        if src == HOUSE:
            pile = self.houses[move.si]
            card = pile.pop()
            if not pile:
                self._emptied(move.si)
        elif src == RESERVE:
            card = seat.reserve.pop()
            self.turn_productive = True
            self._reserve_uncovered(seat)
        elif src == TURNED:
            assert seat.turned is not None
            card = seat.turned
            seat.turned = None
            if not move.is_discard:
                self.turn_productive = True
        else:
            card = self._take_card(move, seat)
        dst = move.dst
        if dst == FOUNDATION:
            self.foundations[move.di].append(card)
            self._fwant = None
            self._fmask = None
            self.turn_productive = True
        elif dst == HOUSE:
            self.houses[move.di].append(card)
        elif dst == OPP_RESERVE:
            self.seats[(m + move.di) % len(self.seats)].reserve.append(card)
        elif dst == OPP_WASTE:
            self.seats[(m + move.di) % len(self.seats)].waste.append(card)
        else:  # the discard ends the turn (R4.5)
            seat.waste.append(card)
            self._end_turn()
            return
        if src != HOUSE and not seat.has_cards:
            self._finish_won(m, BY_CARDS)

    def _take_card(self, move: Move, seat: SeatPiles) -> Card:
        """Hook: take the card of a source an option makes available (V1, V14, G4)."""
        raise IllegalMove("S5", UNAVAILABLE[move.src])

    def _reserve_uncovered(self, seat: SeatPiles) -> None:
        """Hook: ``seat``'s reserve has a new top card: the one above it left (R4.3,
        by the owner or, under V14, taken by the mover), or ``TR`` turned it up."""

    def _emptied(self, h: int) -> None:
        """Hook: house ``h`` has just lost its last face-up card: it is a space (R5.3)."""

    def _turn_card(self, seat: SeatPiles) -> None:
        """Hook: T, the top hand card turned up; an empty hand is first made of the
        waste, turned over in order (R4.4)."""
        m = self.to_move
        if not seat.hand:
            seat.hand = seat.waste[::-1]
            seat.waste = []
            self.turnovers[m] += 1
            self._new_hand(m)
        seat.turned = seat.hand.pop()

    def _new_hand(self, m: int) -> None:
        """Hook: seat ``m``'s waste has just become its hand."""

    def _turn_stock(self, seat: SeatPiles) -> None:
        """Hook: TR, only for a face-down stock (V14); the referee refuses it here."""
        raise IllegalMove("NO_CARDS", "no_stock")

    def _end_turn(self) -> None:
        """The turn passes to the next seat; R8.4 ends a game that is stuck."""
        m = self.to_move
        n = len(self.seats)
        self.turns += 1
        productive = self.turn_productive
        if productive:
            self.turnovers = [0] * n
            self.quiet_turns = [0] * n
        else:
            self.quiet_turns[m] += 1
        self.turn_moves = 0
        self.turn_productive = False
        self.turn_card_moved = False
        self.turn_own_played = False
        self.to_move = (m + 1) % n
        self._fmoves = None
        self._legal = None
        self._turn_starts()
        if not productive and self.is_stuck():
            self.finish_stalemate(BY_STALEMATE)
        elif self.turns >= self.rules.max_turns:
            self.finish_stalemate(BY_TURN_LIMIT)

    def _turn_starts(self) -> None:
        """Hook: a new turn has just begun."""

    def stop_turn(self) -> None:
        """End the mover's turn after a Stop! (R7.1, R7.2): a turned card goes back
        face down on top of the hand (Foster p.12), and the next seat plays."""
        seat = self.seats[self.to_move]
        if seat.turned is not None:
            seat.hand.append(seat.turned)
            seat.turned = None
        self._end_turn()

    # ----------------------------------------------- what the options ask

    def reveal_reserve(self) -> None:
        """Turn up a face-down reserve when its time has come (V9); a reserve dealt
        face up has nothing to turn."""

    def after_deal(self, seed: int | str) -> None:
        """Hook: the cards are dealt (R2); an option may turn them or key the hand."""

    def space_moves(self) -> list[Move]:
        """The moves that begin making a space before a turn (V6): none are compulsory
        in the standard game."""
        return []

    def run_moves(self) -> list[Move]:
        """The moves that play a card that must be played after the runs through the
        hand (V14, S11): none in the standard game."""
        return []

    def _house_loads_now(self) -> bool:
        """Hook: whether a house card may load an opponent now (R5.4: always)."""
        return True

    def _is_closed(self, h: int) -> bool:
        """Hook: whether house ``h`` lets no card leave (G4's whole suits): never here."""
        return False
