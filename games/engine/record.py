"""The game record: every entry of a game's history as a typed, frozen value.

A game is its seed, its rules, its Stop! mode, its starter and this list of entries;
``game.Game`` replays them. Each entry has a text form, one line, that round-trips:
``parse_entry(str(entry)) == entry`` (docs/notation.md, "The game record"):

=========================  ===================================================
``A H3-F1``                a move by seat A, its piles named as A names them
``A C-W S2``               a move that committed a priority slip (classic game)
``A resigns``              R8.6, resignation
``A times-out``            R8.6, the seat to move ran out of time
``A offers-stalemate``     R8.5, an offer (the offering seat agrees)
``B agrees-stalemate``     R8.5, an agreement; the last one ends the game
``B declines-stalemate``   R8.5, the offer is withdrawn
``B stop 2 S2 C-F3``       Stop! on move 2 of the last turn: its violation and
                           the compulsory move carried out, named as the offender
                           names it (none under V14 when the stock is face down)
``B wrong-stop 1``         a Stop! on a clean move, refused and counted (R7.5)
``B loses-turn``           R7.5, the turn a third wrong call costs
=========================  ===================================================

A priority slip is a secret while the game is played: ``public`` strips it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from .errors import PRIORITY_VIOLATIONS, VIOLATIONS, BadNotation, RulesError
from .moves import Move, parse_move
from .rules import PRESETS, SEAT_NAMES, Rules

#: A game's Stop! mode: every violation refused, or priority slips accepted (R7).
REFEREE: Final = "referee"
CLASSIC: Final = "classic"
STOP_MODES: Final = (REFEREE, CLASSIC)


class BadRecord(RulesError):
    """A record entry that cannot be read, or a record the rules do not allow."""

    code = "BAD_RECORD"


def _letter(seat: int) -> str:
    return SEAT_NAMES[seat]


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """A move by ``seat``, relative to it; ``violation``: the priority slip it committed
    (classic games only; secret until the game is over)."""

    seat: int
    move: Move
    violation: str | None = None

    def __str__(self) -> str:
        tail = f" {self.violation}" if self.violation else ""
        return f"{_letter(self.seat)} {self.move}{tail}"


@dataclass(frozen=True, slots=True)
class Resign:
    """R8.6: ``seat`` resigns."""

    seat: int

    def __str__(self) -> str:
        return f"{_letter(self.seat)} resigns"


@dataclass(frozen=True, slots=True)
class Timeout:
    """R8.6: ``seat``, the seat to move, ran out of time and forfeits."""

    seat: int

    def __str__(self) -> str:
        return f"{_letter(self.seat)} times-out"


@dataclass(frozen=True, slots=True)
class OfferStalemate:
    """R8.5: ``seat`` offers to end the game as a stalemate (and so agrees to it)."""

    seat: int

    def __str__(self) -> str:
        return f"{_letter(self.seat)} offers-stalemate"


@dataclass(frozen=True, slots=True)
class AgreeStalemate:
    """R8.5: ``seat`` agrees to the offer; once every seat has agreed, the game ends."""

    seat: int

    def __str__(self) -> str:
        return f"{_letter(self.seat)} agrees-stalemate"


@dataclass(frozen=True, slots=True)
class DeclineStalemate:
    """R8.5: ``seat`` declines the offer, which is withdrawn."""

    seat: int

    def __str__(self) -> str:
        return f"{_letter(self.seat)} declines-stalemate"


@dataclass(frozen=True, slots=True)
class StopCall:
    """R7.2: ``seat`` called Stop! on move ``move_number`` (1-based) of the last turn and
    was right: the move committed ``violation``; ``correction`` is the compulsory move
    carried out in the offender's place (None when there was none)."""

    seat: int
    move_number: int
    violation: str
    correction: Move | None = None

    def __str__(self) -> str:
        tail = "" if self.correction is None else f" {self.correction}"
        return f"{_letter(self.seat)} stop {self.move_number} {self.violation}{tail}"


@dataclass(frozen=True, slots=True)
class WrongCall:
    """R7.5: ``seat`` called Stop! on move ``move_number`` of the last turn, a clean move.
    The call is refused and counted."""

    seat: int
    move_number: int

    def __str__(self) -> str:
        return f"{_letter(self.seat)} wrong-stop {self.move_number}"


@dataclass(frozen=True, slots=True)
class LostTurn:
    """R7.5: ``seat`` loses the turn it was about to play (its third, sixth... wrong call).
    It always follows that wrong call: the engine writes it, nobody asks for it."""

    seat: int

    def __str__(self) -> str:
        return f"{_letter(self.seat)} loses-turn"


Entry = (
    MoveEntry
    | Resign
    | Timeout
    | OfferStalemate
    | AgreeStalemate
    | DeclineStalemate
    | StopCall
    | WrongCall
    | LostTurn
)

#: The one-word entries, by their word.
_WORDS: Final[dict[str, type[Resign | Timeout | OfferStalemate | AgreeStalemate]]] = {
    "resigns": Resign,
    "times-out": Timeout,
    "offers-stalemate": OfferStalemate,
    "agrees-stalemate": AgreeStalemate,
}
_OTHER_WORDS: Final[dict[str, type[DeclineStalemate | LostTurn]]] = {
    "declines-stalemate": DeclineStalemate,
    "loses-turn": LostTurn,
}
#: The widest layout a record may name (rules.py's limits), for entries read without rules.
_WIDEST: Final = Rules(seats=3, houses_per_seat=6, foundations=12)


def public(entry: Entry) -> Entry:
    """The entry as the players may see it while the game is played: no slip (R7.4)."""
    if isinstance(entry, MoveEntry) and entry.violation is not None:
        return replace(entry, violation=None)
    return entry


def parse_entry(text: str, rules: Rules | None = None) -> Entry:
    """Read one entry in its text form. With ``rules``, its seat and piles must exist in
    that layout; without, in any layout the rules allow. Raises ``BadRecord``."""
    layout = rules if rules is not None else _WIDEST
    words = text.split()
    if len(words) < 2 or len(words[0]) != 1 or words[0] not in layout.seat_names:
        raise BadRecord(f"{text!r} is not a record entry: it starts with a seat letter")
    seat = layout.seat_names.index(words[0])
    word, rest = words[1], words[2:]
    if word in _WORDS or word in _OTHER_WORDS:
        if rest:
            raise BadRecord(f"{text!r}: nothing follows {word!r}")
        return _WORDS[word](seat) if word in _WORDS else _OTHER_WORDS[word](seat)
    if word == "wrong-stop" and len(rest) == 1:
        return WrongCall(seat, _number(text, rest[0]))
    if word == "stop" and len(rest) in (2, 3):
        if rest[1] not in VIOLATIONS:
            raise BadRecord(f"{text!r}: {rest[1]!r} is not a violation code")
        offender = (seat - 1) % (rules.seats if rules is not None else max(2, seat + 1))
        correction = _move(text, rest[2], offender, layout) if len(rest) == 3 else None
        return StopCall(seat, _number(text, rest[0]), rest[1], correction)
    if word in ("stop", "wrong-stop"):
        raise BadRecord(f"{text!r}: write {word} and the move number (docs/notation.md)")
    move = _move(text, word, seat, layout)
    if not rest:
        return MoveEntry(seat, move)
    if len(rest) == 1 and rest[0] in PRIORITY_VIOLATIONS:
        return MoveEntry(seat, move, rest[0])
    raise BadRecord(f"{text!r}: a move is followed by a priority violation code or nothing")


def _number(text: str, word: str) -> int:
    if not (word.isascii() and word.isdigit()) or int(word) < 1 or len(word) > 6:
        raise BadRecord(f"{text!r}: {word!r} is not a move number")
    return int(word)


def _move(text: str, word: str, mover: int, layout: Rules) -> Move:
    try:
        return parse_move(
            word,
            mover,
            seats=layout.seats,
            foundations=layout.foundations,
            houses=layout.houses,
        )
    except BadNotation as exc:
        raise BadRecord(f"{text!r}: {exc.message}") from None


@dataclass(frozen=True)
class Record:
    """Everything that makes a game: the deal (seed, rules), the Stop! mode, the seat
    named to start (None: the deal chooses, R3) and the entries, in order."""

    seed: int | str
    rules: Rules = PRESETS["pagat"]
    stop_mode: str = REFEREE
    starter: int | None = None
    entries: tuple[Entry, ...] = field(default=())
    #: A game set up on a table of its own instead of the deal (a position document).
    setup: dict[str, Any] | None = field(default=None, compare=False, hash=False)

    def lines(self) -> list[str]:
        """The entries' text forms, one per line."""
        return [str(entry) for entry in self.entries]
