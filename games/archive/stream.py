"""A player's finished games as a stream (``GET /api/v1/players/{name}/games/export/``,
docs/open-database.md): NDJSON, a line per game, or the notation, page by page.

Pages follow a keyset, never an offset: each seat keeps its game's end
(``Seat.finished_at``) and the index (user, finished_at, game) gives a player's
finished games in the order they ended, so a page costs the same two queries (the
seats with their games, then the games' seats and players) whether it is the first
page or the thousandth, of ten games or of 100,000.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, Prefetch, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.archive.notation import ended, game_text
from games.models import Seat
from lib.errors import ServiceError

FORMATS = ("ndjson", "notation")
#: A game's result from the player's side: their seat won, another did, nobody did
#: (a stalemate, or a three-player forfeit with no winner).
RESULTS = ("won", "lost", "drawn")
DEFAULT_LIMIT = 100
MAX_LIMIT = 1000

#: ``<microseconds since 1970 (UTC)>-<game id>``: the end and id of the last game sent.
#: Every string of this shape is a cursor (a bound, not a pointer to a row).
CURSOR_PATTERN = r"^[0-9]{1,17}-[0-9]{1,18}$"
BAD_CURSOR = gettext_lazy("not a cursor: pass back the one the next page's link names")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: A larger id than any game's, that the databases' 64-bit integers still hold.
_LARGEST_ID = 2**62


@dataclass(frozen=True)
class Cursor:
    finished_at: datetime
    game_id: int

    def __str__(self) -> str:
        micros = (self.finished_at - _EPOCH) // timedelta(microseconds=1)
        return f"{micros}-{self.game_id}"

    @classmethod
    def parse(cls, text: str) -> Cursor:
        if not re.fullmatch(CURSOR_PATTERN, text):
            raise ServiceError(400, "BAD_REQUEST", _("cursor: %(why)s") % {"why": BAD_CURSOR})
        micros, game_id = text.split("-")
        return cls(_EPOCH + timedelta(microseconds=int(micros)), min(int(game_id), _LARGEST_ID))


@dataclass(frozen=True)
class Query:
    """Which of ``player``'s finished games, and where the page starts."""

    player: User
    since: datetime | None = None
    until: datetime | None = None
    rules: str | None = None
    result: str | None = None
    after: Cursor | None = None
    limit: int = DEFAULT_LIMIT


@dataclass(frozen=True)
class Page:
    seats: list[Seat]  # the player's seats, each with its game and the game's seats
    next: Cursor | None  # where the next page starts, or None on the last


def page(query: Query, reader: User | AnonymousUser) -> Page:
    """One page of ``query``: the player gets all of their finished games, anyone else
    the public ones (docs/spectators.md) and the private ones they played in too."""
    seats = Seat.objects.filter(user=query.player, finished_at__isnull=False)
    if reader.pk is None:
        seats = seats.filter(game__public=True)
    elif reader.pk != query.player.pk:  # the public games, and the private ones they share
        shared = Seat.objects.filter(user_id=reader.pk).values("game_id")
        seats = seats.filter(Q(game__public=True) | Q(game_id__in=shared))
    if query.since is not None:
        seats = seats.filter(finished_at__gte=query.since)
    if query.until is not None:
        seats = seats.filter(finished_at__lt=query.until)
    if query.rules:
        seats = seats.filter(game__rules=query.rules)
    if query.result == "won":
        seats = seats.filter(game__winner=F("letter"))
    elif query.result == "lost":
        seats = seats.exclude(game__winner=F("letter")).exclude(game__winner="")
    elif query.result == "drawn":
        seats = seats.filter(game__winner="")
    if query.after is not None:
        at, game_id = query.after.finished_at, query.after.game_id
        # (finished_at, game) > the cursor, said so that the index's range starts at it.
        seats = seats.filter(finished_at__gte=at).filter(
            Q(finished_at__gt=at) | Q(game_id__gt=game_id)
        )
    rows = list(
        seats.select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
        .order_by("finished_at", "game_id")[: query.limit + 1]
    )
    more = len(rows) > query.limit
    rows = rows[: query.limit]
    last = rows[-1] if more else None
    after = (
        None if last is None or last.finished_at is None else Cursor(last.finished_at, last.game_id)
    )
    return Page(rows, after)


def result_of(seat: Seat) -> str:
    winner = seat.game.winner
    return "drawn" if not winner else "won" if winner == seat.letter else "lost"


def as_json(seat: Seat) -> dict[str, object]:
    """A game of the stream as an NDJSON line says it, from the player's seat."""
    game = seat.game
    assert game.finished_at is not None
    return {
        "id": game.pk,
        "ended_at": ended(game.finished_at),
        "rules": game.rules,
        "rule_options": game.rule_options,
        "stop_mode": game.stop_mode,
        "players": game.names(),
        "public": game.public,
        "rated": game.rated,
        "seat": seat.letter,
        "result": result_of(seat),
        "status": game.status,
        "ending": game.ending,
        "winner": game.winner or None,
        "score": game.score,
        "seed": game.seed,
        "seed_hash": game.seed_hash,
        "notation": game_text(game),
    }


def lines(found: Page, form: str) -> Iterator[bytes]:
    """The page's games, one at a time: an NDJSON line each, or each game in the
    notation with a blank line between two, as the open database's files have them."""
    for index, seat in enumerate(found.seats):
        if form == "ndjson":
            yield json.dumps(as_json(seat), ensure_ascii=False).encode() + b"\n"
        else:
            yield (b"\n" if index else b"") + game_text(seat.game).encode()
