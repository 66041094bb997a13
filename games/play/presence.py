"""Who is looking at a game: a player whose page of it was served or polled, or whose
stream from that page was open, in the last few minutes (docs/notifications.md).

One cache key per player and game, rewritten as they look and gone ``PRESENCE_SECONDS``
after they stop: the page and its polls write it (the idle poll too, still without a
database query), and so does an event stream the game page opened (``?game=``), while
it stays open. The outbox reads it when a "your turn" e-mail is about to go: a player
at the game sees the turn come on the page, and needs no e-mail for it.

The cache is an optimisation here too: when it cannot be reached, nobody is present,
and the e-mails go as they always did.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)


def _key(user_id: int, game_id: int) -> str:
    return f"presence:{user_id}:{game_id}"


def seconds() -> int:
    """How long a look counts (``settings.PRESENCE_SECONDS``)."""
    return int(settings.PRESENCE_SECONDS)


def mark(user_id: int, game_id: int) -> None:
    """``user_id`` is looking at ``game_id`` now."""
    try:
        cache.set(_key(user_id, game_id), 1, seconds())
    except Exception as exc:  # nobody present: the e-mails go
        logger.warning("could not mark player %s at game %s: %r", user_id, game_id, exc)


async def amark(user_id: int, game_id: int) -> None:
    """``mark``, from the event loop (the stream)."""
    try:
        await cache.aset(_key(user_id, game_id), 1, seconds())
    except Exception as exc:
        logger.warning("could not mark player %s at game %s: %r", user_id, game_id, exc)


def is_present(user_id: int, game_id: int) -> bool:
    """Whether ``user_id`` looked at ``game_id`` in the last ``PRESENCE_SECONDS``."""
    try:
        return cache.get(_key(user_id, game_id)) is not None
    except Exception:
        return False
