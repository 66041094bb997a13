"""What happens in a game, told once by the play services to the features that follow.

The play services decide (through the engine) and store; what follows from an action
belongs to the features that subscribe here: the e-mails (``games.notify.tell``), the
API's events (``games.feed.subscribers``), ratings and matches (``games.lobby``), the
computer players (``games.computer.bot_wake``). ``games.apps`` subscribes them; a new
feature (a tournament learning a result, a push notice) subscribes too, and the play
services do not change.

Every happening is published inside the action's transaction, so what a subscriber
writes commits with the action or not at all; a subscriber that acts outside the
database (a task, a message to another process) waits for the commit itself
(``transaction.on_commit``). Subscribers are called in the order they subscribed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from games.engine import Game as EngineGame
    from games.models import Game, Message


@dataclass(frozen=True)
class Happening:
    game: Game


@dataclass(frozen=True)
class GameDealt(Happening):
    """A game was dealt and stored (version 1): its first turn begins."""

    engine: EngineGame


@dataclass(frozen=True)
class MovesPlayed(Happening):
    """``seat`` played ``moves`` (as the notation writes them)."""

    seat: int
    moves: list[str]


@dataclass(frozen=True)
class TurnPassed(Happening):
    """The turn passed from ``seat`` to ``to``: the clocks are set, ``game.ply`` is the
    record's length. ``last_turn``: the moves of the turn that ended (none when it was
    lost, R7.5); ``messages``: what the players wrote during it, told with it."""

    seat: int
    to: int
    last_turn: list[str]
    lost: bool
    messages: Sequence[Message] = ()


@dataclass(frozen=True)
class GameEnded(Happening):
    """The game is over and stored (its ending, winner and score are on the row);
    ``messages``: the last turn's, told with the end."""

    engine: EngineGame
    messages: Sequence[Message] = ()


@dataclass(frozen=True)
class StalemateOffered(Happening):
    """``seat`` offered to end the game as a stalemate (R8.5)."""

    seat: int


@dataclass(frozen=True)
class StalemateDeclined(Happening):
    """``seat`` declined the stalemate offer that ``agreed`` had made or accepted."""

    seat: int
    agreed: Sequence[int]


@dataclass(frozen=True)
class StopCalled(Happening):
    """``seat`` called Stop! on move ``move_number`` (``move``) of ``stopped``'s last
    turn, rightly: that move broke ``code``; ``correction`` was carried out instead
    ("" for none). ``refusal``: the engine's words for the violation, as data
    (``{"reason": key, "params": {...}}``) and in English (``reason``)."""

    seat: int
    stopped: int
    move_number: int
    move: str
    code: str
    correction: str
    reason: str = ""
    refusal: dict[str, Any] | None = None


@dataclass(frozen=True)
class MessageWritten(Happening):
    """A player wrote ``message`` for ``readers``; ``at_once``: they are told now
    (otherwise it goes with the writer's turn, ``TurnPassed.messages``);
    ``with_moves``: it came with moves, whose ``Saved`` follows."""

    message: Message
    readers: Sequence[User] = field(default_factory=list)
    at_once: bool = False
    with_moves: bool = False


@dataclass(frozen=True)
class ReminderDue(Happening):
    """The seat to move has ``hours_left`` hours before its deadline."""

    seat: int
    hours_left: int


@dataclass(frozen=True)
class PlayerAway(Happening):
    """``seat``'s player took ``days`` of vacation, until ``until``: their clocks stop."""

    seat: int
    until: datetime
    days: int


@dataclass(frozen=True)
class Saved(Happening):
    """An action on the game was stored: its new version stands (every action ends so)."""

    engine: EngineGame


H = TypeVar("H", bound=Happening)

_subscribers: dict[type[Happening], list[Callable[[Any], None]]] = defaultdict(list)


def subscribe(kind: type[H], handler: Callable[[H], None]) -> None:
    """Call ``handler`` with every happening of ``kind`` (once, however often asked)."""
    if handler not in _subscribers[kind]:
        _subscribers[kind].append(handler)


def publish(happening: Happening) -> None:
    """Tell every subscriber of ``happening``'s kind, in the order they subscribed."""
    for handler in _subscribers[type(happening)]:
        handler(happening)


def subscribers(kind: type[Happening]) -> list[Callable[[Any], None]]:
    """Who follows ``kind`` (for the tests and the architecture's docs)."""
    return list(_subscribers[kind])
