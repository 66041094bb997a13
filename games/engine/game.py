"""The engine's game: a deal, the rules, the Stop! mode, the starter and the record.

``Game`` is the whole game as the rules see it. Every action a player takes goes
through it and becomes a record entry (``record.py``): moves, all or none
(``play``), resignation and timeout (R8.6), stalemate offers and agreement (R8.5),
Stop! calls with their verdict, the call window (R7.4) and the count of wrong calls
(R7.5). The current position is kept as the game goes (a move costs one checked
push); ``Game.from_record`` replays a record, checking every entry, and gives the
same game. A service stores the record and asks the game everything else.

Errors are ``GameError`` (a ``Refusal``): a ``code`` for programs, the ``reason`` and
``params`` as data, and ``message`` in words from the catalogue (``messages.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .deal import deal, seed_commitment
from .document import from_document, to_document
from .encoder import Encoder, all_moves, exception_entry, move_codes, read
from .errors import (
    PRIORITY_VIOLATIONS,
    GameError,
    IllegalMove,
    MoveRefused,
    RulesError,
    WrongCallError,
)
from .moves import Move, parse_move
from .position import BY_AGREEMENT, BY_RESIGNATION, BY_TIMEOUT, Position
from .record import (
    CLASSIC,
    REFEREE,
    STOP_MODES,
    AgreeStalemate,
    BadRecord,
    DeclineStalemate,
    Entry,
    LostTurn,
    MoveEntry,
    OfferStalemate,
    Record,
    Resign,
    StopCall,
    Timeout,
    WrongCall,
    public,
)
from .rules import PRESETS, Rules
from .stop import WRONG_CALLS_PER_LOST_TURN, correct, corrections, stop_verdict
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


class Game:
    """One game: ``seed``, ``rules``, ``stop_mode`` (``referee`` or ``classic``),
    ``starter`` (the seat named to start, or None: the deal chooses, R3) and the record.

    The live ``position`` is the game's own: read it, never change it.

    With ``encoding=True`` the game writes its compact encoding as it goes
    (``encoded()``), and ``snapshot()`` gives what a server stores to go on later
    without replaying anything (``Game.resume``). A resumed game holds only the turns
    it needs for play; what reads the whole record (``log``, ``export``...) replays
    it from the encoding, once.
    """

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
        self._start: Position | None = (
            deal(seed, self.rules, starter=starter) if setup is None else from_document(setup)
        )
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
        self._replayed: Game | None = None  # a resumed game's whole record, replayed

    # ----------------------------------------------------------------- the record

    @classmethod
    def from_record(cls, record: Record) -> Game:
        """Replay ``record``, checking every entry against the rules; raises ``BadRecord``."""
        game = cls(
            record.seed,
            record.rules,
            stop_mode=record.stop_mode,
            starter=record.starter,
            setup=record.setup,
        )
        for _ in game.feed(record.entries):
            pass
        if len(game._entries) != len(record.entries):
            missing = game._entries[len(record.entries)]
            raise BadRecord(f"the record stops before {missing}, which its last entry brings")
        return game

    @classmethod
    def from_encoded(cls, data: bytes, *, encoding: bool = False) -> Game:
        """Replay an encoded record (``encoded()``, ``encoding.encode``). Raises
        ``BadRecord`` for bytes that are not one, or decode to another game."""
        parts = read(data)
        number = parts.number
        game = cls(
            parts.seed,
            parts.rules,
            stop_mode=parts.stop_mode,
            starter=parts.starter,
            encoding=encoding,
            setup=parts.setup,
        )
        moves = all_moves(parts.rules)
        codes = move_codes(parts.rules)
        try:
            for action in range(parts.actions):
                if action in parts.exceptions:
                    game.act(exception_entry(*parts.exceptions[action], moves))
                    continue
                legal = sorted(game.position.legal_moves(), key=codes.__getitem__)
                if not legal:
                    raise BadRecord(f"action {action + 1} is a move, but none is legal there")
                number, digit = divmod(number, len(legal))
                game.act(MoveEntry(game.to_move, legal[digit]))
        except BadRecord:
            raise
        except RulesError as exc:
            raise BadRecord(f"the encoded record does not replay: {exc.message}") from None
        if number:
            raise BadRecord("the encoded record holds more moves than it says")
        if Encoder.crc_of(tuple(game._entries)) != parts.crc:
            raise BadRecord("the encoded record decodes to another game: have the rules changed?")
        return game

    @property
    def record(self) -> Record:
        whole = self._whole()
        return Record(
            self.seed, self.rules, self.stop_mode, self.starter, tuple(whole._entries), self.setup
        )

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry, priority slips included: for the referee (and the full record)."""
        return tuple(self._whole()._entries)

    @property
    def entry_count(self) -> int:
        """The number of record entries."""
        return self._offset + len(self._entries)

    def public_entries(self) -> tuple[Entry, ...]:
        """The entries as the players may see them: priority slips only once it is over."""
        entries = self._whole()._entries
        if self.is_over:
            return tuple(entries)
        return tuple(public(entry) for entry in entries)

    def turn_of(self, index: int) -> int:
        """The turn (0-based, ``Position.turns``) record entry ``index`` belongs to."""
        return self._whole()._turn_of[index]

    def _whole(self) -> Game:
        """This game with its whole record: itself, or for a resumed game its record
        replayed from the encoding (kept until the game changes)."""
        if not self._offset:
            return self
        if self._replayed is None:
            assert self._encoder is not None  # a resumed game always encodes
            self._replayed = Game.from_encoded(self._encoder.encoded())
        return self._replayed

    # ------------------------------------------------------------ storing it

    def encoded(self) -> bytes:
        """The compact encoding of the record so far (``encoding.decode`` reads it)."""
        if self._encoder is None:
            raise ValueError("this game was made without encoding=True")
        return self._encoder.encoded()

    def snapshot(self) -> dict[str, Any]:
        """What ``Game.resume`` needs to go on from here, JSON-ready: the position, the
        turn under way and the last one, the positions they began at (classic games),
        the counts, the pending offer and the encoding so far. Hidden cards included:
        the referee's only."""
        if self._encoder is None:
            raise ValueError("this game was made without encoding=True")

        def turn(t: Turn | None) -> dict[str, Any] | None:
            if t is None:
                return None
            return {
                "seat": t.seat,
                "moves": [str(m) for m in t.moves],
                "indexes": list(t.indexes),
                "start": t.start,
                "stopped": t.stopped,
                "correction": None if t.correction is None else str(t.correction),
                "lost": t.lost,
            }

        def document(position: Position | None) -> dict[str, Any] | None:
            return None if position is None else to_document(position)

        return {
            "position": to_document(self._position),
            "first_seat": self.first_seat,
            "setup": self.setup,
            "entries": self.entry_count,
            "current": [str(m) for m in self._current],
            "current_at": self._current_at,
            "last": turn(self._last),
            "turn_start": document(self._turn_start),
            "last_start": document(self._last_start),
            "wrong": self._wrong,
            "offer": list(self._offer),
            "encoding": self._encoder.state(),
        }

    @classmethod
    def resume(
        cls,
        seed: int | str,
        rules: Rules,
        snapshot: dict[str, Any],
        *,
        stop_mode: str = REFEREE,
        starter: int | None = None,
    ) -> Game:
        """The game ``snapshot()`` described, ready to play on, without a replay."""
        game = cls.__new__(cls)
        if stop_mode not in STOP_MODES:
            raise GameError("BAD_STOP_MODE", mode=stop_mode)
        game.seed, game.rules, game.stop_mode, game.starter = seed, rules, stop_mode, starter
        game.setup = snapshot.get("setup")
        game.classic = stop_mode == CLASSIC
        game._start_seat = snapshot["first_seat"]
        game._start = None
        game._position = from_document(snapshot["position"])
        game._entries, game._turn_of = [], []
        game._offset = snapshot["entries"]
        game._wrong = list(snapshot["wrong"])
        game._offer = tuple(snapshot["offer"])
        mover = game._position.to_move
        layout = (rules.seats, rules.foundations, rules.houses)
        game._current = _moves(layout, mover, snapshot["current"])
        game._current_at = list(snapshot["current_at"])
        last = snapshot["last"]
        game._last = None
        if last is not None:
            correction = last["correction"]
            game._last = Turn(
                last["seat"],
                tuple(_moves(layout, last["seat"], last["moves"])),
                tuple(last["indexes"]),
                last["start"],
                last["stopped"],
                None if correction is None else _moves(layout, last["seat"], [correction])[0],
                last["lost"],
            )
        game._turn_start = _position_or_none(snapshot["turn_start"])
        game._last_start = _position_or_none(snapshot["last_start"])
        game._called = set()
        game._forfeiter = None  # a resumed game is in play
        game._encoder = Encoder.from_state(
            seed, rules, stop_mode, starter, snapshot["encoding"], game.setup
        )
        game._replayed = None
        return game

    def _fresh(self) -> Game:
        """The same game at its deal, with no record."""
        return Game(
            self.seed, self.rules, stop_mode=self.stop_mode, starter=self.starter, setup=self.setup
        )

    def feed(self, entries: Sequence[Entry]) -> Iterator[int]:
        """Replay ``entries`` (a fresh game's whole record, or its beginning), checking
        each: the game must write the same entry. Each is applied when the iterator is
        advanced to it, and its index then yielded, so between two steps the game stands
        before the next entry. An entry the engine writes itself (the lost turn after a
        third wrong call) is checked, not applied. Raises ``BadRecord``."""
        for i, entry in enumerate(entries):
            if i >= len(self._entries):
                try:
                    self.act(entry)
                except RulesError as exc:
                    raise BadRecord(f"entry {i + 1} ({entry}): {exc.message}") from None
            if self._entries[i] != entry:
                raise BadRecord(f"entry {i + 1} ({entry}): the game gives {self._entries[i]}")
            yield i

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
            self._start = (
                deal(self.seed, self.rules, starter=self.starter)
                if self.setup is None
                else from_document(self.setup)
            )
        return self._start.copy()

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

    def position_at(self, n: int) -> Position:
        """The position after the first ``n`` record entries (after a third wrong call,
        the turn it costs is lost already)."""
        if self._offset:
            return self._whole().position_at(n)
        if not 0 <= n <= len(self._entries):
            raise ValueError(f"the record has entries 0 to {len(self._entries)}")
        game = self._fresh()
        for _ in game.feed(self._entries[:n]):
            pass
        return game._position

    def steps(self) -> Iterator[tuple[int, Entry, Position]]:
        """Replay: each record index and entry with the position after it. The position
        is one object, played on: copy it to keep it."""
        if self._offset:
            yield from self._whole().steps()
            return
        game = self._fresh()
        for i in game.feed(self._entries):
            yield i, self._entries[i], game._position

    # ---------------------------------------------------------------- playing

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.rules.seats:
            raise GameError("NOT_A_SEAT", seat=seat)

    def _check_playing(self, seat: int) -> None:
        self._check_seat(seat)
        if self.is_over:
            raise GameError("GAME_OVER")

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

    # ------------------------------------------------------------- after the fact

    def log(self) -> list[dict[str, Any]]:
        """Every entry with its index, turn and seat letter, as the players may see it:
        once the game is over, each move's slip (``violation``) and whether Stop! was
        called on it (``called``)."""
        if self._offset:
            return self._whole().log()
        over = self.is_over
        rows = []
        for i, entry in enumerate(self._entries):
            row: dict[str, Any] = {
                "index": i,
                "turn": self._turn_of[i],
                "seat": self.letter(entry.seat),
                "entry": str(entry if over else public(entry)),
            }
            if isinstance(entry, MoveEntry):
                row["move"] = str(entry.move)
                if over:
                    row["violation"] = entry.violation
                    row["called"] = i in self._called
            rows.append(row)
        return rows

    def full_record(self) -> dict[str, Any]:
        """After the game: the seed, the deal revealed, every entry, every slip (called or
        not), the result and the final position. Refused while it is played."""
        if not self.is_over:
            raise GameError("GAME_NOT_OVER")
        if self._offset:
            return self._whole().full_record()
        position = self._position
        letters = self.rules.seat_names
        log = self.log()
        return {
            "seed": str(self.seed),
            "seed_hash": seed_commitment(self.seed),
            "rules": self.rules.to_document(),
            "stop_mode": self.stop_mode,
            "starter": letters[self.first_seat],
            "start": to_document(self.start()),
            "entries": log,
            "violations": [row for row in log if row.get("violation")],
            "status": position.status,
            "ending": position.ending,
            "winner": None if position.winner is None else letters[position.winner],
            "score": None
            if position.score is None
            else dict(zip(letters, position.score, strict=True)),
            "wrong_calls": dict(zip(letters, self._wrong, strict=True)),
            "final": to_document(position),
        }

    def options(self) -> dict[str, Any]:
        """The rule options that differ from the preset."""
        document = self.rules.to_document()
        if isinstance(document, str):
            return {}
        return {k: v for k, v in document.items() if k != "preset"}

    def export(
        self, header: Sequence[tuple[str, str]] = (), options: dict[str, Any] | None = None
    ) -> str:
        """The game in the notation: tag lines, then one line per turn, then the event
        that ended it (docs/notation.md). ``header``: the first tags (a server's game id,
        rules name, players; by default the preset); ``options``: the options as the
        game was made with them (by default those that differ from the preset). The seed
        appears once the game is over; slips and wrong calls never do."""
        if self._offset:
            return self._whole().export(header, options)
        position = self._position
        letters = self.rules.seat_names
        tags = list(header) or [("Rules", self.rules.preset)]
        tags.append(("SeedHash", seed_commitment(self.seed)))
        options = self.options() if options is None else options
        if options:
            tags.append(("Options", json.dumps(options, sort_keys=True).replace('"', '\\"')))
        if self.classic:
            tags.append(("Stop", self.stop_mode))
        if position.is_over:
            tags.append(("Seed", str(self.seed)))
        tags.append(("Status", position.status))
        if position.score is not None:
            score = " ".join(f"{s}={p}" for s, p in zip(letters, position.score, strict=True))
            tags.append(("Score", score))
        if position.ending:
            tags.append(("Ending", position.ending))
        lines = [f'[{name} "{value}"]' for name, value in tags]
        lines.append("")
        turns: dict[int, tuple[str, list[str]]] = {}
        events = []
        last = len(self._entries) - 1
        for i, entry in enumerate(self._entries):
            if isinstance(entry, MoveEntry):
                word = str(entry.move)
            elif isinstance(entry, StopCall):
                tail = "" if entry.correction is None else f":{entry.correction}"
                word = f"(stop:{entry.move_number}{tail})"
            elif isinstance(entry, LostTurn):
                word = "(loses-turn)"
            elif isinstance(entry, Resign | Timeout) or (
                isinstance(entry, AgreeStalemate) and i == last and position.is_over
            ):
                events.append(str(entry))  # an event that ends the game: it comes last
                continue
            else:
                continue  # offers, answers and wrong calls are not in the notation
            turns.setdefault(self._turn_of[i], (letters[entry.seat], []))[1].append(word)
        for number, (seat, words) in sorted(turns.items()):
            lines.append(f"{number + 1} {seat}: {' '.join(words)}")
        lines.extend(events)
        return "\n".join(lines) + "\n"


def _moves(layout: tuple[int, int, int], seat: int, texts: list[str]) -> list[Move]:
    """Moves a snapshot keeps in the notation, as ``seat`` names them."""
    seats, foundations, houses = layout
    return [
        parse_move(text, seat, seats=seats, foundations=foundations, houses=houses)
        for text in texts
    ]


def _position_or_none(document: dict[str, Any] | None) -> Position | None:
    return None if document is None else from_document(document)
