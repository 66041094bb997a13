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

The game is three layers, each a class over the one below: ``game_state.py``
(what it holds and what may be asked of it now), ``game_play.py`` (the actions) and
this module (the record: replaying, storing and resuming, the log and the export).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from .deal import seed_commitment
from .document import from_document, to_document
from .encoder import Encoder, all_moves, exception_entry, move_codes, read
from .errors import (
    GameError,
    RulesError,
)
from .game_play import Playing
from .game_state import Turn
from .moves import Move, parse_move
from .position import Position
from .record import (
    CLASSIC,
    REFEREE,
    STOP_MODES,
    AgreeStalemate,
    BadRecord,
    Entry,
    LostTurn,
    MoveEntry,
    Record,
    Resign,
    StopCall,
    Timeout,
    public,
)
from .rules import Rules


class Game(Playing):
    """One game: ``seed``, ``rules``, ``stop_mode`` (``referee`` or ``classic``),
    ``starter`` (the seat named to start, or None: the deal chooses, R3) and the record.

    The live ``position`` is the game's own: read it, never change it.

    With ``encoding=True`` the game writes its compact encoding as it goes
    (``encoded()``), and ``snapshot()`` gives what a server stores to go on later
    without replaying anything (``Game.resume``). A resumed game holds only the turns
    it needs for play; what reads the whole record (``log``, ``export``...) replays
    it from the encoding, once.
    """

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
        assert isinstance(self._replayed, Game)
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
        self,
        header: Sequence[tuple[str, str]] = (),
        options: dict[str, Any] | None = None,
        comments: Sequence[tuple[int, str, str]] = (),
        deal_tags: Sequence[tuple[str, str]] | None = None,
    ) -> str:
        """The game in the notation: tag lines, then one line per turn, then the event
        that ended it (docs/notation.md). ``header``: the first tags (a server's game id,
        rules name, players; by default the preset); ``options``: the options as the
        game was made with them (by default those that differ from the preset);
        ``comments``: what the players wrote, as (record length when written, seat
        letter, text), each on a line of its own after the turn it followed;
        ``deal_tags``: how the seed was made (``fairdeal``), in place of ``SeedHash``.
        The seed appears once the game is over; slips and wrong calls never do."""
        if self._offset:
            return self._whole().export(header, options, comments, deal_tags)
        position = self._position
        letters = self.rules.seat_names
        tags = list(header) or [("Rules", self.rules.preset)]
        if deal_tags is None:
            tags.append(("SeedHash", seed_commitment(self.seed)))
        else:
            tags.extend(deal_tags)
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
        notes = sorted(comments, key=lambda note: note[0])
        written = 0
        first_entry: dict[int, int] = {}  # each turn's first record index
        for index, turn in enumerate(self._turn_of):
            first_entry.setdefault(turn, index)

        def comment_lines(before: int) -> None:
            """The comments written before record length ``before``, not yet written."""
            nonlocal written
            while written < len(notes) and notes[written][0] < before:
                lines.append(comment(notes[written][1], notes[written][2]))
                written += 1

        for number, (seat, words) in sorted(turns.items()):
            # A comment follows the turn of the entry just before it.
            comment_lines(first_entry[number] + 1)
            lines.append(f"{number + 1} {seat}: {' '.join(words)}")
        comment_lines(len(self._entries))
        lines.extend(events)
        comment_lines(len(self._entries) + 1)
        return "\n".join(lines) + "\n"


def comment(seat: str, text: str) -> str:
    """A player's words in an export: ``{B: good luck}`` on one line, with ``\\`` and
    ``}`` escaped by a backslash."""
    words = " ".join(text.split()).replace("\\", "\\\\").replace("}", "\\}")
    return f"{{{seat}: {words}}}"


def _moves(layout: tuple[int, int, int], seat: int, texts: list[str]) -> list[Move]:
    """Moves a snapshot keeps in the notation, as ``seat`` names them."""
    seats, foundations, houses = layout
    return [
        parse_move(text, seat, seats=seats, foundations=foundations, houses=houses)
        for text in texts
    ]


def _position_or_none(document: dict[str, Any] | None) -> Position | None:
    return None if document is None else from_document(document)
