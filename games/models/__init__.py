"""The games' rows, one module per domain; every model is importable from here.

A game row keeps the rules engine's own state (``games.play.store``): its snapshot while
it is played (one row read, whatever the length of the game), its record in the
engine's compact encoding once it is over. Both hold hidden cards: they never leave
the server except through the engine's per-seat views."""

from __future__ import annotations

from games.models.archive import DatabaseMonth
from games.models.feed import Event
from games.models.game import (
    DELETED_PLAYER,
    SEATS,
    Game,
    IdempotentRequest,
    Match,
    MatchSeat,
    RulesFields,
    Seat,
    Seated,
    SeatFields,
    StopMode,
    TimeControlFields,
)
from games.models.leases import Lock, StreamLease
from games.models.lobby import Challenge, ChallengeSeat, Rating
from games.models.notes import Note
from games.models.outbox import OUTBOX_RESEND_AFTER, Notification, outbox_first_sweep
from games.models.push import PushMessage, PushSubscription
from games.models.review import GameReview
from games.models.talk import Message

__all__ = [
    "DELETED_PLAYER",
    "OUTBOX_RESEND_AFTER",
    "SEATS",
    "Challenge",
    "ChallengeSeat",
    "DatabaseMonth",
    "Event",
    "Game",
    "GameReview",
    "IdempotentRequest",
    "Lock",
    "Match",
    "MatchSeat",
    "Message",
    "Note",
    "Notification",
    "PushMessage",
    "PushSubscription",
    "Rating",
    "RulesFields",
    "Seat",
    "SeatFields",
    "Seated",
    "StopMode",
    "StreamLease",
    "TimeControlFields",
    "outbox_first_sweep",
]
