"""Messages at a game: what its players write to each other (docs/messages.md).

A message is plain text, part of the game's history: stored with the game at the
record's length when it was written (its ``ply``: where the replay and the export show
it), read by the players while the game is played, and once it is over by whoever may
see the game. A player reads no message from someone they block.

Who is told, and when: a message written by the seat to move goes with its turn, in
the "your turn" the next player gets when the turn ends (and in the "game over" if the
game ends first); any other (written while waiting, or after the game) is told at once,
by e-mail and in the event stream. Every message is also an event at once, so pages and
programs show it as it comes. ``deliver`` marks what has been told.

This module writes inside a service's transaction (``games.play.services`` holds the game's
row lock): it never locks a game itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.conduct import blocked_ids, blockers_of, report
from accounts.models import Report
from games.models import SEATS, Game, Message
from lib.errors import ServiceError

#: The longest message, in characters: a note with a move, not a letter.
MAX_LENGTH = 500
#: Messages a player may write at one game in a minute, and in a day over every game.
PER_MINUTE = 5
PER_DAY = 200

#: Characters that change how the text around them is shown (bidirectional overrides
#: and isolates): a message could reverse what follows it on the page.
_DIRECTION_MARKS = re.compile("[\u202a-\u202e\u2066-\u2069]")
_BLANK_LINES = re.compile(r"\n{3,}")


def clean(text: str) -> str:
    """The text as it is stored: line ends made ``\\n``, control characters (tabs are
    spaces) and direction overrides taken out, each line's trailing spaces and more than
    one blank line in a row dropped. Refused when nothing is left, or too long."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = "".join(
        char for char in text if char == "\n" or unicodedata.category(char) not in ("Cc", "Cs")
    )
    text = _DIRECTION_MARKS.sub("", text)
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    text = _BLANK_LINES.sub("\n\n", text).strip()
    if not text:
        raise ServiceError(400, "EMPTY_MESSAGE", _("the message is empty"))
    if len(text) > MAX_LENGTH:
        raise too_long(len(text))
    return text


def too_long(count: int) -> ServiceError:
    """The refusal of a message of ``count`` characters: nothing is cut, so nothing the
    player wrote is lost without their knowing."""
    return ServiceError(
        400,
        "MESSAGE_TOO_LONG",
        _("a message holds at most %(limit)s characters (this one has %(count)s)")
        % {"limit": MAX_LENGTH, "count": count},
        limit=MAX_LENGTH,
    )


def _check_rate(game: Game, user: User) -> None:
    now = timezone.now()
    mine = Message.objects.filter(author=user)
    if mine.filter(game=game, created_at__gte=now - timedelta(minutes=1)).count() >= PER_MINUTE:
        raise ServiceError(
            429,
            "TOO_MANY_MESSAGES",
            _("at most %(count)s messages a minute at a game: wait a little")
            % {"count": PER_MINUTE},
        )
    if mine.filter(created_at__gte=now - timedelta(days=1)).count() >= PER_DAY:
        raise ServiceError(
            429,
            "TOO_MANY_MESSAGES",
            _("at most %(count)s messages a day") % {"count": PER_DAY},
        )


def store(game: Game, seat: int, user: User, text: str, *, ply: int, told: bool) -> Message:
    """Write ``user``'s message (``text`` already ``clean``) at ``game``, whose row the
    caller has locked, at record length ``ply``. ``told``: the others are told at once,
    else with the turn (``deliver``); the caller publishes ``MessageWritten``
    (``games.play.happenings``), which tells them."""
    _check_rate(game, user)
    message = Message.objects.create(
        game=game, author=user, seat=game.letters[seat], text=text, ply=ply, delivered=told
    )
    # Read under the row lock: the poll's stamp (games.pages.poll) moves on by one.
    game.message_count += 1
    Game.objects.filter(pk=game.pk).update(message_count=F("message_count") + 1)
    return message


def told_at_once(game: Game, seat: int) -> bool:
    """Whether a message ``seat`` writes now is told at once: it is not its turn, or
    the game is over. The seat to move's messages go with its turn."""
    return game.status != Game.Status.PLAYING or game.letters[seat] != game.to_move


def readers(game: Game, message: Message) -> list[User]:
    """The players a message is for: the others at the game, but those who block its
    writer (blocking is silent: the writer is not told)."""
    blockers = blockers_of(message.author) if message.author is not None else set()
    return [
        player
        for player in game.players
        if player is not None and player.pk != message.author_id and player.pk not in blockers
    ]


def deliver(game: Game) -> list[Message]:
    """The messages not told yet (those the seat that just ended its turn, or the
    game, wrote during it), marked told: the caller carries them in its e-mails and
    events. Costs no query at a game without messages."""
    if not game.message_count:
        return []
    waiting = list(Message.objects.filter(game=game, delivered=False).order_by("pk"))
    if waiting:
        Message.objects.filter(pk__in=[m.pk for m in waiting]).update(delivered=True)
    return waiting


def for_reader(messages: Iterable[Message], reader: User | None) -> list[Message]:
    """Of ``messages``, those ``reader`` is told of: not their own, not from someone
    they block."""
    messages = list(messages)
    if reader is None or not messages:
        return []  # no query: most turns carry no message
    kept = blocked_ids(reader)
    return [m for m in messages if m.author_id != reader.pk and m.author_id not in kept]


def as_data(message: Message, game: Game) -> dict[str, Any]:
    """A message as the API, the events and the e-mails give it."""
    return {
        "id": message.pk,
        "seat": message.seat,
        "author": game.names().get(message.seat, ""),
        "text": message.text,
        "ply": message.ply,
        "created_at": message.created_at.isoformat(),
    }


def messages_for(
    game: Game, reader: User | AnonymousUser | None, seat: int | None
) -> QuerySet[Message]:
    """The messages of ``game`` that ``reader`` may read, oldest first: a player's
    (``seat``), but those of writers they block; a spectator's (``seat`` None) once the
    game is over, none while it is played (docs/spectators.md)."""
    messages = Message.objects.filter(game=game).select_related("author").order_by("pk")
    if seat is None and game.status == Game.Status.PLAYING:
        return messages.none()
    if reader is not None and reader.is_authenticated:
        messages = messages.exclude(author__blocks_received__blocker=reader)
    return messages


def report_message(reporter: User, message_id: int, *, reason: str, details: str = "") -> Report:
    """``reporter`` reports a message for support staff (docs/conduct.md): one they may
    read (at a game they play, or watch once it is over), not their own. Its words are
    copied into the report."""
    message = Message.objects.filter(pk=message_id).first()
    if message is not None:
        game = Game.objects.prefetch_related(SEATS).get(pk=message.game_id)
        seat = game.seat_of(reporter.pk)
        readable = (seat is not None or game.public) and messages_for(game, reporter, seat).filter(
            pk=message.pk
        ).exists()
    if message is None or not readable:
        raise ServiceError(404, "NOT_FOUND", _("no such message"))
    if message.author_id == reporter.pk:
        raise ServiceError(400, "SAME_PLAYER", _("you cannot report your own message"))
    return report(
        reporter,
        message.author,
        reason=reason,
        details=details,
        game_id=message.game_id,
        message_id=message.pk,
        message_text=message.text,
    )
