"""The state of a game as it goes: its table, its record so far, the turn under way
and the last, the counts; and what may be asked of it now.

``GameState`` is the lowest of the game's three layers (``game.py`` tells them): it
holds, ``game_play.py`` changes, ``game.py`` records, stores and replays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .deal import deal
from .document import from_document
from .encoder import Encoder
from .errors import (
    PRIORITY_VIOLATIONS,
    GameError,
    IllegalMove,
)
from .moves import Move
from .position import Position
from .record import (
    CLASSIC,
    REFEREE,
    STOP_MODES,
    Entry,
)
from .rules import PRESETS, Rules
from .shuffle import reshuffle_key
from .stop import stop_judgement
from .views import view


@dataclass(frozen=True, slots=True)
class Turn:
    """A finished turn as the players saw it: its seat, its moves (each relative to the
    seat) and their record indexes; ``start`` is the record index where it began.
    ``stopped``: the move number a Stop! was called on, with the ``correction`` carried
    out; ``lost``: a turn lost to R7.5, with no moves."""

    seat: int
    moves: tuple[Move, ...]
    indexes: tuple[int, ...]
    start: int
    stopped: int | None = None
    correction: Move | None = None
    lost: bool = False


class GameState:
    """A game's state; ``Game`` (``game.py``) is the class to use."""

    def __init__(
        self,
        seed: int | str,
        rules: Rules | None = None,
        *,
        stop_mode: str = REFEREE,
        starter: int | None = None,
        encoding: bool = False,
        setup: dict[str, Any] | None = None,
    ) -> None:
        if stop_mode not in STOP_MODES:
            raise GameError("BAD_STOP_MODE", mode=stop_mode)
        self.seed = seed
        self.rules: Rules = rules if rules is not None else PRESETS["pagat"]
        self.stop_mode = stop_mode
        self.classic = stop_mode == CLASSIC
        self.starter = starter
        #: A game set up on a table of its own (a position document) starts there,
        #: not at the deal: a problem to solve, a test's table.
        self.setup = setup
        self._start: Position | None = self._first_position()
        self._start_seat = self._start.to_move
        self._position = self._start.copy()
        self._entries: list[Entry] = []
        #: The turn each entry belongs to (the export's turn lines): a move, the turn it
        #: is made in; a Stop!, the caller's turn it opens; a lost turn, the one it costs.
        self._turn_of: list[int] = []
        self._wrong = [0] * self.rules.seats
        self._offer: tuple[int, ...] = ()  # the seats that agree to a stalemate, offerer first
        self._current: list[Move] = []
        self._current_at: list[int] = []
        self._last: Turn | None = None
        # The positions at the start of the turn under way and of the last turn: a Stop!
        # replays the last (R7.2), and the players may see it again step by step.
        self._turn_start: Position | None = self._position.copy()
        self._last_start: Position | None = None
        self._called: set[int] = set()  # record indexes of the moves Stop! was called on
        self._forfeiter: int | None = None
        #: Entries before ``_entries[0]``: a resumed game starts from a snapshot.
        self._offset = 0
        self._encoder = Encoder(seed, self.rules, stop_mode, starter, setup) if encoding else None
        #: A resumed game's whole record, replayed (``game.Game._whole``).
        self._replayed: GameState | None = None

    @property
    def entry_count(self) -> int:
        """The number of record entries."""
        return self._offset + len(self._entries)

    def _append(self, entry: Entry, turn: int, legal: list[Move] | None = None) -> None:
        self._entries.append(entry)
        self._turn_of.append(turn)
        self._replayed = None
        if self._encoder is not None:
            self._encoder.add(entry, legal)

    # -------------------------------------------------------------- what it is now

    @property
    def position(self) -> Position:
        """The current position (the game's own object: do not change it)."""
        return self._position

    def start(self) -> Position:
        """The deal, or the table the game was set up on (a copy)."""
        if self._start is None:
            self._start = self._first_position()
        return self._start.copy()

    def _first_position(self) -> Position:
        """The deal, or the set-up table. A table under V13 with no reshuffle key gets
        the one a deal from the game's seed would have: the game's new hands follow
        from its seed and record, as a dealt game's do."""
        if self.setup is None:
            return deal(self.seed, self.rules, starter=self.starter)
        table = from_document(self.setup)
        if table.rules.shuffle_waste and table.reshuffle_key is None:
            table.reshuffle_key = reshuffle_key(self.seed)
        return table

    @property
    def first_seat(self) -> int:
        """The seat that started the game (R3, or ``starter``)."""
        return self._start_seat

    @property
    def to_move(self) -> int:
        return self._position.to_move

    @property
    def is_over(self) -> bool:
        return self._position.is_over

    @property
    def status(self) -> str:
        return self._position.status

    @property
    def ending(self) -> str | None:
        return self._position.ending

    @property
    def winner(self) -> int | None:
        return self._position.winner

    @property
    def forfeiter(self) -> int | None:
        """The seat that resigned or ran out of time (R8.6), if the game ended so."""
        return self._forfeiter

    @property
    def score(self) -> list[int] | None:
        return None if self._position.score is None else self._position.score[:]

    @property
    def wrong_calls(self) -> tuple[int, ...]:
        """Each seat's wrong Stop! calls so far (R7.5; public)."""
        return tuple(self._wrong)

    @property
    def stalemate_offer(self) -> tuple[int, ...]:
        """The seats that agree to a pending stalemate offer, the offerer first; () if none
        (and once the game is over, however it ended)."""
        return () if self.is_over else self._offer

    @property
    def last_turn(self) -> Turn | None:
        """The last finished turn (None before the first ends)."""
        return self._last

    def stopped_violation(self) -> IllegalMove | None:
        """What the last turn's stopped move violated, as the referee words it (R7.1-R7.3):
        what a successful Stop! tells the offender. None when no call stopped that turn."""
        last, start = self._last, self._last_start
        if last is None or last.stopped is None or start is None:
            return None
        return stop_judgement(start, last.moves, last.stopped - 1)[1]

    def recent_steps(self) -> list[tuple[int, Position]]:
        """What a player may step through while the game is played: the last finished
        turn as it was played and the turn under way, as (step, position) pairs. A step
        is a record index: ``n`` is the position after the first ``n`` entries (the
        first pair is where the last turn began)."""
        last, start = self._last, self._last_start
        steps: list[tuple[int, Position]] = []
        if last is not None and start is not None:
            position = start.copy()
            steps.append((last.start, position.copy()))
            for move, index in zip(last.moves, last.indexes, strict=True):
                position.push(move, classic=self.classic)
                steps.append((index + 1, position.copy()))
        if self._current and self._turn_start is not None:
            position = self._turn_start.copy()
            if not steps:
                steps.append((self._current_at[0], position.copy()))
            for move, index in zip(self._current, self._current_at, strict=True):
                position.push(move, classic=self.classic)
                steps.append((index + 1, position.copy()))
        return steps

    @property
    def current_indexes(self) -> tuple[int, ...]:
        """The record indexes of the turn under way's moves."""
        return tuple(self._current_at)

    @property
    def current_turn(self) -> tuple[Move, ...]:
        """The moves of the turn under way."""
        return tuple(self._current)

    def letter(self, seat: int) -> str:
        return self.rules.seat_names[seat]

    def legal_moves(self, seat: int) -> list[Move]:
        """The moves ``seat`` may make now: none unless it is its turn."""
        self._check_seat(seat)
        if self.is_over or self._position.to_move != seat:
            return []
        return self._position.legal_moves()

    def refusal(self, seat: int, move: Move) -> IllegalMove | None:
        """Why ``play`` would refuse ``move`` by ``seat`` now, or None when it would accept
        it: in a classic game a priority slip is accepted (R7.4)."""
        self._check_seat(seat)
        refusal = self._position.refusal(move, by_seat=seat)
        if refusal is not None and self.classic and refusal.code in PRIORITY_VIOLATIONS:
            try:  # a slip is accepted unless the turn's move cap (R7.6) refuses it
                self._position.copy().push(move, by_seat=seat, classic=True)
            except IllegalMove as exc:
                return exc
            return None
        return refusal

    def view(self, seat: int | None) -> dict[str, Any]:
        """The position as ``seat`` (None: a spectator) may see it: no face-down card."""
        if seat is not None:
            self._check_seat(seat)
        return view(self._position, seat)

    # ---------------------------------------------------------------- playing

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.rules.seats:
            raise GameError("NOT_A_SEAT", seat=seat)

    def _check_playing(self, seat: int) -> None:
        self._check_seat(seat)
        if self.is_over:
            raise GameError("GAME_OVER")
