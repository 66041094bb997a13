"""An open game page asks every 20 s whether its game has moved on; most of the time it
has not, and that answer costs no database query.

What a page has seen is its game's *stamp*: the version, and (a player's page) how many
messages the game holds, which a message bumps without touching the version
(docs/messages.md). The poll sends both, ``?version=V&messages=M``; a poll without
``messages`` asks about the version alone.

The cache holds, for each game, its version, its message count and its players' ids,
and for each browser session that has opened a game page, its player's id (keyed by a
hash of the session key, never the key itself). ``IdlePollMiddleware`` answers 204 from
those alone, before the session, the user or the game is loaded, when the page's stamp
is the game's and the session's player is one of its players; anything else (a miss,
another stamp, a cache that is down) goes the normal way, where the page is built with
full authentication and the cache filled again. A public game's spectators poll too
(docs/spectators.md): a public game is marked so in the cache, and any poll of it that
asks about the version alone, session or none, is 204 from the cache at its current
version (being public never changes, and the version is on every spectator's page).
A spectator reads no message while the game is played, so a spectator's page asks
about the version only, and a poll that names a message count is answered from the
cache for the game's players alone: nobody else learns from a 204 how many messages
there are.

The version is written to the cache when a change to the game commits (``post_save``
on ``Game``, then ``on_commit``), so a move made by another process, the worker's
sweep included, is seen at the next poll; the message count likewise, when a message
commits (``messages_changed``, called where the message is written). A fill after a
miss only adds what is absent, so it never puts back an older value over a newer one.
A 204 tells nothing but "no change", so the session's password hash is not checked on
that path.

Every poll of a player's page, and the page itself, also says the player is looking at
the game (``games.play.presence``, one more cache write): no "your turn" e-mail for it then.
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

from games.models import Game
from games.play import presence
from games.play.happenings import MessageWritten

logger = logging.getLogger(__name__)

#: How long an entry lives without being written again: a bound on any staleness.
TTL = 3600
POLL = re.compile(r"^/games/(\d+)/table/$")


def _version_key(game_id: int) -> str:
    return f"poll:game:{game_id}:version"


def _players_key(game_id: int) -> str:
    return f"poll:game:{game_id}:players"


def _messages_key(game_id: int) -> str:
    return f"poll:game:{game_id}:messages"


def _public_key(game_id: int) -> str:
    return f"poll:game:{game_id}:public"


def _session_key(session_key: str) -> str:
    return "poll:session:" + hashlib.sha256(session_key.encode()).hexdigest()


def remember(request: HttpRequest, game: Game) -> None:
    """After a page of ``game`` was served to its signed-in player: they are looking at
    it (``presence``), and what a later idle poll needs, added where absent."""
    if request.user.pk is not None:
        presence.mark(request.user.pk, game.pk)
    session_key = request.session.session_key
    if session_key is None:
        return
    try:
        _remember_game(game)
        cache.add(_players_key(game.pk), [seat.user_id for seat in game.seat_rows], TTL)
        cache.set(_session_key(session_key), request.user.pk, TTL)
    except Exception as exc:  # the cache is an optimisation: the page was served
        logger.warning("could not remember game %s for its poll: %r", game.pk, exc)


def _remember_game(game: Game) -> None:
    """The game's stamp, and whether it is public, added where absent."""
    cache.add(_version_key(game.pk), game.version, TTL)
    cache.add(_messages_key(game.pk), game.message_count, TTL)
    if game.public:
        cache.add(_public_key(game.pk), True, TTL)


def remember_watched(game: Game) -> None:
    """After a public game's page was served to a spectator: its stamp, and that it is
    public, added where absent. Whether a game is public never changes, and its version
    is on its spectators' pages: any poll of it about the version alone may be told "no
    change" from these."""
    if not game.public:
        return
    try:
        _remember_game(game)
    except Exception as exc:  # the cache is an optimisation: the page was served
        logger.warning("could not remember game %s for its spectators: %r", game.pk, exc)


def unchanged(game_id: int, version: str, session_key: str, messages: str | None = None) -> bool:
    """Whether the cache alone says this poll may be told "no change": the version is
    the game's (and ``messages``, when the poll names a message count, its count), and
    the session's player is one of its players, or the game is public and the poll asks
    about the version alone (a spectator's, with or without a session)."""
    version_key, messages_key = _version_key(game_id), _messages_key(game_id)
    public_key, players_key = _public_key(game_id), _players_key(game_id)
    keys = [version_key, messages_key, public_key, players_key]
    if session_key:
        keys.append(_session_key(session_key))
    try:
        found = cache.get_many(keys)
    except Exception:
        return False  # the normal way answers
    if str(found.get(version_key, "")) != version:
        return False
    if messages is not None and str(found.get(messages_key, "")) != messages:
        return False
    if messages is None and found.get(public_key):
        return True
    if not session_key or players_key not in found or keys[-1] not in found:
        return False
    player = found[keys[-1]]
    if player not in found[players_key]:
        return False
    presence.mark(player, game_id)  # the player is looking at the game
    return True


def game_changed(sender: type[Game], instance: Game, **kwargs: Any) -> None:
    """``post_save``: once the change commits, the cache holds the new version."""
    transaction.on_commit(partial(_write_version, instance.pk, instance.version))


def message_written(happening: MessageWritten) -> None:
    """Subscriber of ``MessageWritten`` (``games.apps``)."""
    messages_changed(happening.game.pk, happening.game.message_count)


def messages_changed(game_id: int, count: int) -> None:
    """A message was written at the game, which now holds ``count`` (read under its row
    lock): once it commits, the cache holds the new count, and the pages' next polls
    see it though the version did not move. Called where the message is written (in its
    transaction, or after it: then at once)."""
    transaction.on_commit(partial(_write_messages, game_id, count))


def _write_messages(game_id: int, count: int) -> None:
    try:
        cache.set(_messages_key(game_id), count, TTL)
    except Exception:
        logger.warning("could not write game %s's message count to the cache", game_id)


def _write_version(game_id: int, version: int) -> None:
    try:
        cache.set(_version_key(game_id), version, TTL)
    except Exception:
        # Unreachable: delete can't succeed either; the entry ages out (TTL). Polls
        # meanwhile compare against the older version, which the page no longer has.
        logger.warning("could not write game %s's version %s to the cache", game_id, version)


class IdlePollMiddleware:
    """Answers the game page's idle poll (``GET /games/N/table/?version=V&messages=M``)
    with 204 from the cache, ahead of the session, user and time-zone lookups."""

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
            messages = request.GET.get("messages")
            session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
            if version and unchanged(int(match[1]), version, session_key, messages):
                return HttpResponse(status=204)
        return self.get_response(request)
