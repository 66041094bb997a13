"""What a reply asks for, read from the player's own text (docs/play-by-mail.md).

The first line that is not blank holds the command: moves in the notation
(``R-H3 H2-F1 T C-W``; commas are spaces too, case does not matter, and the moves may
go on over the next lines, up to a blank line), or one word: ``resign``,
``stalemate`` (to offer one), ``accept`` or ``decline`` (an offer), ``stop 3`` or
``stop 3 H2-F5`` (Stop! on move 3 of the opponent's last turn, in a classic game,
naming the compulsory move when several fit), ``help``. Whatever follows the moves
(after a blank line, or from the first line that is not moves) is a message to the
other players, sent with them (``games.talk``), less what looks like a signature (kept
apart, for the answer to say it was left out); whatever follows a word is not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext_noop

from games.engine import reads_as_move

from .reading import split_signature

_SEPARATORS = re.compile(r"[\s,;]+")
#: Words that act alone on their line: a word carelessly followed by more words (a
#: "resign? never!") is not an action.
SINGLE_WORDS = frozenset({"resign", "stalemate", "accept", "decline", "help"})
# Translators: %(move)s is what the player wrote, quoted: 'H9-F1'.
NOT_A_MOVE = gettext_noop("%(move)s is not a move in the notation")


@dataclass(frozen=True)
class Moves:
    moves: tuple[str, ...]
    #: The text written under the moves ("" for none): a message sent with them.
    message: str = ""
    #: What was left out of that text as the player's signature ("" for nothing).
    signature: str = ""

    def __str__(self) -> str:
        return " ".join(self.moves)


@dataclass(frozen=True)
class Word:
    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class Stop:
    move_number: int
    choice: str | None = None

    def __str__(self) -> str:
        return f"stop {self.move_number}" + (f" {self.choice}" if self.choice else "")


@dataclass(frozen=True)
class Unreadable:
    """Nothing we could act on; ``why`` says what, in words for the player (in English,
    for the record). The answer e-mail says it in the player's language: it translates
    ``message`` (marked for translation, not translated) and fills in ``params``."""

    why: str
    line: str = ""
    message: str = field(default="", compare=False)
    params: dict[str, str] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return self.line


def _unreadable(message: str, line: str = "", **params: str) -> Unreadable:
    return Unreadable(message % params, line, message, params)


Command = Moves | Word | Stop | Unreadable


def _tokens(line: str) -> list[str]:
    return [token for token in _SEPARATORS.split(line.strip()) if token]


def read_command(text: str) -> Command:
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or not lines[0]:
        return _unreadable(
            gettext_noop("your reply had no text of its own above the quoted e-mail")
        )
    first = lines[0][:200]
    tokens = _tokens(first)
    word = tokens[0].lower().rstrip(".!")
    if word in SINGLE_WORDS:
        if len(tokens) > 1:
            # Translators: %(word)s is the word the player wrote (resign, help...).
            return _unreadable(gettext_noop("write %(word)s alone on its line"), first, word=word)
        return Word(word)
    if word == "stop":
        return _stop(tokens, first)
    moves: list[str] = []
    rest = 0
    for rest, line in enumerate(lines, 1):
        tokens = _tokens(line)
        if not tokens:
            break  # a blank line ends the moves
        if not all(reads_as_move(token) for token in tokens):
            if moves:
                rest -= 1  # the moves are over: this line is the message's first
                break
            wrong = next(token for token in tokens if not reads_as_move(token))
            return _unreadable(NOT_A_MOVE, first, move=repr(wrong[:20]))
        moves.extend(token.upper() for token in tokens)
    message, signature = split_signature("\n".join(lines[rest:]))
    return Moves(tuple(moves), message, signature)


def _stop(tokens: list[str], line: str) -> Command:
    number = tokens[1] if len(tokens) > 1 else ""
    if len(tokens) not in (2, 3) or not (number.isascii() and number.isdigit()) or int(number) < 1:
        return _unreadable(
            # Translators: "stop" is the word a player replies with: it stays in English.
            gettext_noop("write stop, then the number of the move (stop 3, or stop 3 H2-F5)"),
            line,
        )
    if len(tokens) == 3 and not reads_as_move(tokens[2]):
        return _unreadable(NOT_A_MOVE, line, move=repr(tokens[2][:20]))
    return Stop(int(tokens[1]), tokens[2].upper() if len(tokens) == 3 else None)
