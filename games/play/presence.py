"""Who is looking at a game: a player whose page of it was served or polled, or whose
stream from that page was open, in the last few minutes (docs/notifications.md).

One cache key per player and game, rewritten with the time as they look: the page and
its polls write it (the idle poll too, still without a database query), and so does an
event stream the game page opened (``?game=``), while it stays open. A look counts as
presence for ``PRESENCE_SECONDS``; the key itself is kept a day (``SEEN_SECONDS``), so
that a notice sent later can ask whether the game was opened since (``seen_since``:
the e-mail after a push, docs/notifications.md). The outbox reads it when a notice is
about to go: a player at the game sees it come on the page, and needs no notice.

The cache is an optimisation here too: when it cannot be reached, nobody is present,
and the e-mails go as they always did.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)


#: How long a look is remembered: the longest wait before an e-mail follows a push.
SEEN_SECONDS = 24 * 3600


def _key(user_id: int, game_id: int) -> str:
    return f"presence:{user_id}:{game_id}"


def _kept() -> int:
    return max(seconds(), SEEN_SECONDS)


def seconds() -> int:
    """How long a look counts (``settings.PRESENCE_SECONDS``)."""
    return int(settings.PRESENCE_SECONDS)


def mark(user_id: int, game_id: int) -> None:
    """``user_id`` is looking at ``game_id`` now."""
    try:
        cache.set(_key(user_id, game_id), time.time(), _kept())
    except Exception as exc:  # nobody present: the e-mails go
        logger.warning("could not mark player %s at game %s: %r", user_id, game_id, exc)


async def amark(user_id: int, game_id: int) -> None:
    """``mark``, from the event loop (the stream)."""
    try:
        await cache.aset(_key(user_id, game_id), time.time(), _kept())
    except Exception as exc:
        logger.warning("could not mark player %s at game %s: %r", user_id, game_id, exc)


def last_look(user_id: int, game_id: int) -> float | None:
    """When ``user_id`` last looked at ``game_id`` (a Unix time), if in the last day."""
    try:
        value = cache.get(_key(user_id, game_id))
    except Exception:
        return None
    return float(value) if isinstance(value, int | float) else None


def is_present(user_id: int, game_id: int) -> bool:
    """Whether ``user_id`` looked at ``game_id`` in the last ``PRESENCE_SECONDS``."""
    look = last_look(user_id, game_id)
    return look is not None and time.time() - look <= settings.PRESENCE_SECONDS


def seen_since(user_id: int, game_id: int, since: float) -> bool:
    """Whether ``user_id`` looked at ``game_id`` at ``since`` (a Unix time) or later."""
    look = last_look(user_id, game_id)
    return look is not None and look >= since
