"""Playing a game: moves all or none, resignation and timeout, stalemate offers and
answers, and Stop! with its verdict, the call window and the count of wrong calls.
Each action becomes a record entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .encoder import Encoder
from .errors import (
    GameError,
    IllegalMove,
    MoveRefused,
    WrongCallError,
)
from .game_state import GameState, Turn
from .moves import Move
from .position import BY_AGREEMENT, BY_RESIGNATION, BY_TIMEOUT, Position
from .record import (
    AgreeStalemate,
    BadRecord,
    DeclineStalemate,
    Entry,
    LostTurn,
    MoveEntry,
    OfferStalemate,
    Resign,
    StopCall,
    Timeout,
    WrongCall,
)
from .stop import WRONG_CALLS_PER_LOST_TURN, correct, corrections, stop_verdict


@dataclass(frozen=True, slots=True)
class _Saved:
    """What ``play`` restores when a move of its list is refused."""

    position: Position
    length: int
    offer: tuple[int, ...]
    current: list[Move]
    current_at: list[int]
    last: Turn | None
    turn_start: Position | None
    last_start: Position | None
    encoder: Encoder | None


class Playing(GameState):
    """A game's actions, over its state; ``Game`` (``game.py``) is the class to use."""

    def act(self, entry: Entry) -> tuple[Entry, ...]:
        """Carry out the action ``entry`` records and return the entries the game wrote.
        The verdicts are the game's to find: a move's slip and a call's violation in
        ``entry`` are not read. Raises the action's ``RulesError``."""
        length = len(self._entries)
        self._act(entry)
        return tuple(self._entries[length:])

    def _act(self, entry: Entry) -> None:
        if isinstance(entry, MoveEntry):
            self._move(entry.seat, entry.move)
        elif isinstance(entry, Resign):
            self.resign(entry.seat)
        elif isinstance(entry, Timeout):
            self.timeout(entry.seat)
        elif isinstance(entry, OfferStalemate):
            self.offer_stalemate(entry.seat)
        elif isinstance(entry, AgreeStalemate):
            self.agree_stalemate(entry.seat)
        elif isinstance(entry, DeclineStalemate):
            self.decline_stalemate(entry.seat)
        elif isinstance(entry, StopCall):
            self._stop(entry.seat, entry.move_number, entry.correction)
        elif isinstance(entry, WrongCall):
            self._stop(entry.seat, entry.move_number, None)
        else:
            raise BadRecord(f"{entry}: a lost turn follows the wrong call that costs it")

    def play(self, seat: int, moves: Sequence[Move | str] | str) -> list[MoveEntry]:
        """Apply ``moves`` (``Move`` values or the notation, relative to ``seat``; a string
        is split at spaces) in order, all or none: the first refusal raises
        ``MoveRefused`` and the game is as before. In a classic game a priority slip is
        accepted and recorded (R7.4): the returned entries carry it, and the caller must
        keep it secret until the game ends."""
        if isinstance(moves, str):
            moves = moves.split()
        self._check_playing(seat)
        if not moves:
            raise GameError("NO_MOVES")
        if self._position.to_move != seat:
            raise GameError(
                "NOT_YOUR_TURN", "someone_elses_turn", to_move=self.letter(self._position.to_move)
            )
        # A refused first move changes nothing: only a longer list needs a way back.
        saved = self._save() if len(moves) > 1 else None
        played = []
        try:
            for i, item in enumerate(moves):
                text = item if isinstance(item, str) else str(item)
                if self.is_over or self._position.to_move != seat:
                    raise MoveRefused(GameError("NOT_YOUR_TURN", "turn_ended"), text, i)
                try:
                    move = self._position.parse(item) if isinstance(item, str) else item
                    played.append(self._move(seat, move))
                except IllegalMove as exc:
                    raise MoveRefused(exc, text, i) from None
        except GameError:
            if saved is not None:
                self._restore(saved)
            raise
        return played

    def _move(self, seat: int, move: Move) -> MoveEntry:
        position = self._position
        turn = position.turns
        legal = position.legal_moves() if self._encoder is not None else None
        violation = position.push(move, by_seat=seat, classic=self.classic)
        entry = MoveEntry(seat, move, violation)
        self._current.append(move)
        self._current_at.append(self.entry_count)
        self._append(entry, turn, legal)
        if position.turns != turn:  # the move ended the turn
            self._last = Turn(
                seat, tuple(self._current), tuple(self._current_at), self._current_at[0]
            )
            self._current, self._current_at = [], []
            self._next_turn()
        if self._offer and seat not in self._offer:
            self._offer = ()  # R8.5: playing on declines the others' offer
        return entry

    def _next_turn(self) -> None:
        self._last_start, self._turn_start = self._turn_start, self._position.copy()

    def _save(self) -> _Saved:
        # The turn-start positions are replaced, never changed: keeping them is enough.
        return _Saved(
            self._position.copy(),
            len(self._entries),
            self._offer,
            self._current[:],
            self._current_at[:],
            self._last,
            self._turn_start,
            self._last_start,
            None if self._encoder is None else self._encoder.copy(),
        )

    def _restore(self, saved: _Saved) -> None:
        self._position = saved.position
        del self._entries[saved.length :]
        del self._turn_of[saved.length :]
        self._offer = saved.offer
        self._current, self._current_at = saved.current, saved.current_at
        self._last = saved.last
        self._turn_start, self._last_start = saved.turn_start, saved.last_start
        self._encoder = saved.encoder
        self._replayed = None

    def resign(self, seat: int) -> Resign:
        """R8.6: ``seat`` resigns (at any time, in turn or not)."""
        self._check_playing(seat)
        self._position.forfeit(seat, BY_RESIGNATION)
        self._forfeiter = seat
        entry = Resign(seat)
        self._append(entry, self._position.turns)
        return entry

    def timeout(self, seat: int) -> Timeout:
        """R8.6: ``seat``, the seat to move (only its clock runs), ran out of time."""
        self._check_playing(seat)
        if self._position.to_move != seat:
            raise GameError(
                "NOT_YOUR_TURN", "someone_elses_turn", to_move=self.letter(self._position.to_move)
            )
        self._position.forfeit(seat, BY_TIMEOUT)
        self._forfeiter = seat
        entry = Timeout(seat)
        self._append(entry, self._position.turns)
        return entry

    def may_offer_stalemate(self, seat: int) -> bool:
        """Whether ``seat`` may offer a stalemate now (R8.5: no offer is pending)."""
        return not self.is_over and not self._offer

    def may_answer_stalemate(self, seat: int) -> bool:
        """Whether ``seat`` has a stalemate offer to accept or decline (R8.5)."""
        return not self.is_over and bool(self._offer) and seat not in self._offer

    def offer_stalemate(self, seat: int) -> OfferStalemate:
        """R8.5: ``seat`` offers a stalemate. It stands until every other seat agrees
        (the game ends), one declines, or a seat that has not agreed plays a move."""
        self._check_playing(seat)
        if seat in self._offer:
            raise GameError("ALREADY_OFFERED")
        if self._offer:
            raise GameError("OFFER_PENDING", offerer=self.letter(self._offer[0]))
        self._offer = (seat,)
        entry = OfferStalemate(seat)
        self._append(entry, self._position.turns)
        return entry

    def agree_stalemate(self, seat: int) -> AgreeStalemate:
        """R8.5: ``seat`` agrees to the offer; the last agreement ends the game, scored
        as a stalemate (R8.3)."""
        self._check_playing(seat)
        if not self._offer or seat in self._offer:
            raise GameError("NO_OFFER")
        self._offer += (seat,)
        if len(self._offer) == self.rules.seats:
            self._offer = ()
            self._position.finish_stalemate(BY_AGREEMENT)
        entry = AgreeStalemate(seat)
        self._append(entry, self._position.turns)
        return entry

    def decline_stalemate(self, seat: int) -> DeclineStalemate:
        """R8.5: ``seat`` declines the offer, which is withdrawn."""
        self._check_playing(seat)
        if not self._offer or seat in self._offer:
            raise GameError("NO_OFFER")
        self._offer = ()
        entry = DeclineStalemate(seat)
        self._append(entry, self._position.turns)
        return entry

    # ---------------------------------------------------------------- Stop!

    def stop_refusal(self, seat: int) -> GameError | None:
        """Why ``seat`` may not call Stop! now, or None when it may (R7.4: the next seat,
        at the start of its turn, before its first move, once per turn; wrong calls leave
        the window open). It says nothing of whether the last turn held a violation."""
        self._check_seat(seat)
        if not self.classic:
            return GameError("STOP_NOT_IN_PLAY")
        if self.is_over:
            return GameError("GAME_OVER")
        if self._position.to_move != seat:
            return GameError("NOT_YOUR_TURN", "stop_not_your_turn")
        if self._current:
            return GameError("STOP_TOO_LATE")
        last = self._last
        # With three seats only the next seat may stop a turn: its window is the only one
        # that closes before anybody else moves.
        if last is None or last.seat != (seat - 1) % self.rules.seats or not last.moves:
            return GameError("NOTHING_TO_STOP")
        if last.stopped is not None:
            return GameError("NOTHING_TO_STOP", "already_stopped")
        return None

    def can_call_stop(self, seat: int) -> bool:
        return self.stop_refusal(seat) is None

    def call_stop(self, seat: int, move_number: int, choice: Move | str | None = None) -> StopCall:
        """Stop! by ``seat`` on move ``move_number`` (1-based) of the last turn (R7.1-R7.5).

        Right: that move and what followed are undone, the compulsory move is carried
        out (``choice``, named as the offender names it, picks it when several fit; a
        choice that does not fit is passed over for the first, so that the answer tells
        nothing but the verdict), the turn passes to ``seat``. Wrong: the call is
        recorded and counted, every third costs ``seat`` its turn, and
        ``WrongCallError`` is raised (the game has changed: keep it).
        """
        last = self._last
        entry = self._stop(seat, move_number, choice)
        if isinstance(entry, WrongCall):
            assert last is not None  # else the call was refused before anything changed
            count = self._wrong[seat]
            lost = count % WRONG_CALLS_PER_LOST_TURN == 0
            raise WrongCallError(
                "WRONG_STOP",
                "wrong_stop_turn_lost" if lost else "wrong_stop",
                move_number=move_number,
                move=str(last.moves[move_number - 1]),
                wrong_calls=count,
                turn_lost=lost,
                left=WRONG_CALLS_PER_LOST_TURN - count % WRONG_CALLS_PER_LOST_TURN,
            )
        return entry

    def _stop(self, seat: int, move_number: int, choice: Move | str | None) -> StopCall | WrongCall:
        refusal = self.stop_refusal(seat)
        if refusal is not None:
            raise refusal
        last, start = self._last, self._last_start
        assert last is not None and start is not None  # a classic game past its first turn
        if not 1 <= move_number <= len(last.moves):
            raise GameError("NO_SUCH_MOVE", moves=len(last.moves))
        if isinstance(choice, str):
            choice = start.parse(choice)  # the offender's turn: its pile names
        before, violation = stop_verdict(start, last.moves, move_number - 1)
        position = self._position
        if violation is None:
            self._wrong[seat] += 1
            wrong = WrongCall(seat, move_number)
            self._append(wrong, position.turns)
            if self._wrong[seat] % WRONG_CALLS_PER_LOST_TURN == 0:
                self._append(LostTurn(seat), position.turns)
                position.stop_turn()
                self._last = Turn(seat, (), (), self.entry_count - 1, lost=True)
                self._next_turn()
            return wrong
        options = corrections(before, violation, last.moves[move_number - 1])
        correction = choice if choice in options else (options[0] if options else None)
        self._position = correct(before, correction, position.reshuffles)
        entry = StopCall(seat, move_number, violation, correction)
        self._append(entry, self._position.turns)
        self._called.add(last.indexes[move_number - 1])
        self._last = replace(last, stopped=move_number, correction=correction)
        self._turn_start = self._position.copy()
        return entry
