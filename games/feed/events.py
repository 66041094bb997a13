"""Events: what happened, told to each player it concerns, for API clients.

A service writes its events in its own transaction (``emit``), so an event exists
exactly when what it tells has committed; once the transaction commits they are
published to every web process (``games.feed.stream.publish``), whose open event streams
pass them on, and ``event_recorded`` lets the webhooks queue their deliveries in the
same transaction. Each event has an id, increasing, which a stream sends as its
``id:`` and takes back as ``Last-Event-ID``.

Events about a game carry the game's id and its version *after* the action: an
action's events are queued on the game (``later``) and written by ``services.save``
once the version is bumped (``flush``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.dispatch import Signal
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from accounts.bots import level_of
from games.feed import stream
from games.models import Challenge, Event, Game

#: Every kind of event, with what it tells (docs/api-events.md lists their fields).
KINDS: dict[str, Promise] = {
    "challenge": pgettext_lazy("event", "a challenge names you"),
    "challenge_answered": pgettext_lazy("event", "a challenge you are in was accepted or declined"),
    "challenge_cancelled": pgettext_lazy("event", "a challenge that named you was withdrawn"),
    "game_started": pgettext_lazy("event", "a game of yours was dealt"),
    "your_turn": pgettext_lazy("event", "it is your turn (with your opponent's last moves)"),
    "move": pgettext_lazy("event", "moves were played in a game of yours"),
    "stop_called": pgettext_lazy("event", "Stop! was called in a game of yours"),
    "stalemate_offered": pgettext_lazy("event", "a stalemate was offered in a game of yours"),
    "game_over": pgettext_lazy("event", "a game of yours ended"),
    "message": pgettext_lazy("event", "a player wrote to you at a game"),
    # Competitions (the competitions app writes them; docs/competitions.md).
    "tournament_started": pgettext_lazy("event", "a competition you entered started"),
    "round_started": pgettext_lazy("event", "a new round of a competition of yours is paired"),
    "tournament_finished": pgettext_lazy("event", "a competition of yours ended (your place)"),
}

#: Sent with ``events`` (the new rows, not yet committed) inside the transaction that
#: wrote them: the webhooks queue their deliveries there.
event_recorded = Signal()


def emit(
    kind: str,
    users: Iterable[User | None],
    *,
    game: Game | None = None,
    challenge: Challenge | None = None,
    **data: Any,
) -> list[Event]:
    """Write ``kind`` for each of ``users`` (the computer players and deleted accounts
    aside: they read no stream); published once the transaction commits."""
    return _write(_rows(kind, users, game, challenge, data))


def later(game: Game, kind: str, users: Iterable[User | None], **data: Any) -> None:
    """Queue an event about ``game`` for ``flush`` (the version is not bumped yet)."""
    game.__dict__.setdefault("_events", []).append((kind, list(users), data))


def flush(game: Game) -> list[Event]:
    """Write the events queued on ``game`` (one INSERT), with its version as the
    action left it."""
    queued = game.__dict__.pop("_events", [])
    return _write(
        [row for kind, users, data in queued for row in _rows(kind, users, game, None, data)]
    )


def _rows(
    kind: str,
    users: Iterable[User | None],
    game: Game | None,
    challenge: Challenge | None,
    data: dict[str, Any],
) -> list[Event]:
    assert kind in KINDS, kind
    about: dict[str, Any] = {}
    if game is not None:
        about = {"game": game.pk, "version": game.version}
    if challenge is not None:
        about["challenge"] = challenge.pk
    told: dict[int, User] = {}
    for user in users:
        if user is not None and not level_of(user):
            told.setdefault(user.pk, user)
    return [
        Event(user=user, kind=kind, game=game, data={**about, **data}) for user in told.values()
    ]


def _write(rows: list[Event]) -> list[Event]:
    if rows:
        Event.objects.bulk_create(rows)
        event_recorded.send(sender=Event, events=rows)
        transaction.on_commit(partial(stream.publish, rows))
    return rows


def expired(now: datetime | None = None) -> QuerySet[Event]:
    """Events older than ``settings.EVENT_RETENTION_DAYS``: no stream goes back that far."""
    before = (now or timezone.now()) - timedelta(days=settings.EVENT_RETENTION_DAYS)
    return Event.objects.filter(created_at__lt=before)
