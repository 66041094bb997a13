"""The channels besides e-mail that a notice may take: a registry, filled when the app
is ready (``games.apps``) by the rooms above that send them (``games.push``), so that
every kind ``notifications.notify`` knows, today's and tomorrow's, may go by push."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from games.models import Challenge, Game


@dataclass(frozen=True)
class Notice:
    """What a notice tells whom: its kind, its player, its game or challenge, and what
    an e-mail's row would keep of it (``Notification.context``)."""

    kind: str
    user: User
    game: Game | None = None
    challenge: Challenge | None = None
    context: dict[str, Any] = field(default_factory=dict)


#: Queues a push of the notice to each of its player's devices, in the caller's
#: transaction; False when the player has none (or push is off).
Pusher = Callable[[Notice], bool]

_pushers: list[Pusher] = []


def push_with(pusher: Pusher) -> None:
    if pusher not in _pushers:
        _pushers.append(pusher)


def send_by_push(notice: Notice) -> bool:
    """Queue the notice by push; whether any device will get it."""
    return any([pusher(notice) for pusher in _pushers])
