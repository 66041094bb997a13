"""One exception family for every refused move, each with a code from RULES.md §7."""

from __future__ import annotations

from typing import Final

from .messages import render

#: Violations, in the order that decides which code a move gets when several apply.
#: S8 (V4, release a buried card), S6 (V5, compulsory loading) and S7 (V12, reserve
#: to a house) exist only under those rule options; like S1 and S2 they name an
#: omitted compulsory move, so they come before S3 (docs/variants.md). S8 continues
#: the foundation priority, so it comes right after S2; S10 (V7, uncover a face-down
#: house card) is the fourth of pagat's strict rules and comes after the others. S9
#: (V6, make spaces before turning) concerns only turning, when no house is empty, so
#: it comes last. S11 (V14, Foster's compulsory play after the runs through the hand)
#: names a card that had to be played rather than a space to fill, so it comes before
#: S3, after the compulsory moves of the other options.
VIOLATIONS: Final = ("S5", "S4", "S1", "S2", "S8", "S6", "S7", "S10", "S11", "S3", "S9")
#: Priority violations: the classic game accepts them and lets the opponent call Stop!.
PRIORITY_VIOLATIONS: Final = frozenset({"S1", "S2", "S3", "S6", "S7", "S8", "S9", "S10", "S11"})
#: Refusals that are not violations (RULES.md §7).
REFUSALS: Final = (
    "NOT_YOUR_TURN",
    "GAME_OVER",
    "BAD_NOTATION",
    "NO_TURNED_CARD",
    "ALREADY_TURNED",
    "NO_CARDS",
    "CANNOT_END",
    "TURN_TOO_LONG",
    # V14: a second card turned (T or TR) before any card has moved in the turn.
    "ONE_CARD_FIRST",
)


class RulesError(ValueError):
    """Base of everything the engine refuses: ``code`` for programs, ``message`` for people."""

    code: str = "BAD_INPUT"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class Refusal(RulesError):
    """A refusal as data: its ``code``, the ``reason`` (a key of the message catalogue,
    ``messages.MESSAGES``) and its ``params`` (cards and piles in the notation). The
    English sentence is made only when somebody reads ``message``."""

    def __init__(self, code: str, reason: str, **params: object) -> None:
        ValueError.__init__(self, code, reason)
        self.code = code
        self.reason = reason
        self.params: dict[str, object] = params

    @property
    def message(self) -> str:
        return render(self.reason, self.params)

    def __str__(self) -> str:
        return self.message


class IllegalMove(Refusal):
    """A move the rules refuse. ``code`` is one of ``VIOLATIONS`` or ``REFUSALS``."""

    @property
    def is_violation(self) -> bool:
        return self.code in VIOLATIONS


class BadNotation(IllegalMove):
    """Text that is not a move in the notation (docs/notation.md)."""

    def __init__(self, reason: str, **params: object) -> None:
        super().__init__("BAD_NOTATION", reason, **params)


class BadPosition(RulesError):
    """A position document that cannot be read."""

    code = "BAD_POSITION"


class RulesClash(BadPosition):
    """Rules asking for options that do not combine with their preset (``rules.CLASHES``):
    the ``preset``, the clashing ``settings`` (option -> value), the clash's ``name``
    (a key for the words of other languages) and ``why``."""

    code = "RULES_CLASH"

    def __init__(
        self, message: str, *, preset: str, settings: dict[str, object], name: str, why: str
    ) -> None:
        super().__init__(message)
        self.preset = preset
        self.settings = settings
        self.name = name
        self.why = why


class WrongStop(Refusal):
    """A Stop! call that names a move holding no violation (R7.5)."""

    def __init__(self, reason: str, **params: object) -> None:
        Refusal.__init__(self, "WRONG_STOP", reason, **params)


class GameError(Refusal):
    """A game action the rules refuse (``game.Game``): not this seat's turn, the game
    over, a Stop! call out of its window... The reason defaults to the code's."""

    def __init__(self, code: str, reason: str | None = None, **params: object) -> None:
        Refusal.__init__(self, code, reason or code.lower(), **params)


class MoveRefused(GameError):
    """Move number ``index`` (0-based) of a list of moves, ``move`` as it was sent, was
    refused: the refusal's code, reason and parameters, with ``move`` and ``index``."""

    def __init__(self, refusal: Refusal, move: str, index: int) -> None:
        Refusal.__init__(
            self, refusal.code, refusal.reason, **refusal.params, move=move, index=index
        )


class WrongCallError(GameError, WrongStop):
    """R7.5: a Stop! call on a clean move. It is recorded and counted before this is
    raised: ``wrong_calls`` (the caller's count) and ``turn_lost`` are in ``params``."""
