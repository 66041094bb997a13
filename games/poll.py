"""An open game page asks every 20 s whether its game has moved on; most of the time it
has not, and that answer costs no database query.

The cache holds, for each game, its version and its players' ids, and for each browser
session that has opened a game page, its player's id (keyed by a hash of the session
key, never the key itself). ``IdlePollMiddleware`` answers 204 from those alone, before
the session, the user or the game is loaded, when the page's version is the game's and
the session's player is one of its players; anything else (a miss, another version, a
cache that is down) goes the normal way, where the page is built with full
authentication and the cache filled again.

The version is written to the cache when a change to the game commits (``post_save``
on ``Game``, then ``on_commit``), so a move made by another process, the worker's
sweep included, is seen at the next poll; a fill after a miss only adds what is
absent, so it never puts back an older version over a newer one. A 204 tells nothing
but "no change", so the session's password hash is not checked on that path.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse

from .models import Game

logger = logging.getLogger(__name__)

#: How long an entry lives without being written again: a bound on any staleness.
TTL = 3600
POLL = re.compile(r"^/games/(\d+)/table/$")


def _version_key(game_id: int) -> str:
    return f"poll:game:{game_id}:version"


def _players_key(game_id: int) -> str:
    return f"poll:game:{game_id}:players"


def _session_key(session_key: str) -> str:
    return "poll:session:" + hashlib.sha256(session_key.encode()).hexdigest()


def remember(request: HttpRequest, game: Game) -> None:
    """After a page of ``game`` was served to its signed-in player: what a later idle
    poll needs, added where absent."""
    session_key = request.session.session_key
    if session_key is None:
        return
    try:
        cache.add(_version_key(game.pk), game.version, TTL)
        cache.add(_players_key(game.pk), [seat.user_id for seat in game.seat_rows], TTL)
        cache.set(_session_key(session_key), request.user.pk, TTL)
    except Exception as exc:  # the cache is an optimisation: the page was served
        logger.warning("could not remember game %s for its poll: %r", game.pk, exc)


def unchanged(game_id: int, version: str, session_key: str) -> bool:
    """Whether the cache alone says this session's player may be told "no change"."""
    keys = [_version_key(game_id), _players_key(game_id), _session_key(session_key)]
    try:
        found = cache.get_many(keys)
    except Exception:
        return False  # the normal way answers
    if len(found) != len(keys):
        return False
    current, players, user_id = (found[key] for key in keys)
    return str(current) == version and user_id in players


def game_changed(sender: type[Game], instance: Game, **kwargs: Any) -> None:
    """``post_save``: once the change commits, the cache holds the new version."""
    transaction.on_commit(partial(_write_version, instance.pk, instance.version))


def _write_version(game_id: int, version: int) -> None:
    try:
        cache.set(_version_key(game_id), version, TTL)
    except Exception:
        # Unreachable: delete can't succeed either; the entry ages out (TTL). Polls
        # meanwhile compare against the older version, which the page no longer has.
        logger.warning("could not write game %s's version %s to the cache", game_id, version)


class IdlePollMiddleware:
    """Answers the game page's idle poll (``GET /games/N/table/?version=V``) with 204
    from the cache, ahead of the session, user and time-zone lookups."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # A page that an event told of a newer version asks with ``fresh``: the event
        # can come before the commit's callback has written the cache.
        if (
            request.method == "GET"
            and "fresh" not in request.GET
            and (match := POLL.match(request.path_info))
        ):
            version = request.GET.get("version", "")
            session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
            if version and session_key and unchanged(int(match[1]), version, session_key):
                return HttpResponse(status=204)
        return self.get_response(request)
