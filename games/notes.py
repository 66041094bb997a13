"""Private notes: what a player keeps for themselves at a game (docs/notes.md).

One note per player per game, written and read by its writer alone: on the game page,
over the API and in their own export. Nothing else reads this module's rows: no page
or serializer of another player, of a spectator, of an event, a webhook or an e-mail.
Writing an empty note deletes it.
"""

from __future__ import annotations

import re
import unicodedata

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from games.models import Game, Note
from lib.errors import ServiceError

#: The longest note, in characters: plans and reminders, not a diary.
MAX_LENGTH = 2000
_DIRECTION_MARKS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """The note as it is kept: line ends made ``\\n``, control characters and direction
    overrides taken out, trailing spaces dropped. Refused when too long (nothing is
    cut without the writer knowing)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = "".join(
        char for char in text if char == "\n" or unicodedata.category(char) not in ("Cc", "Cs")
    )
    text = "\n".join(line.rstrip() for line in _DIRECTION_MARKS.sub("", text).split("\n"))
    text = text.strip("\n")
    if len(text) > MAX_LENGTH:
        raise ServiceError(
            400,
            "NOTE_TOO_LONG",
            _("a note holds at most %(limit)s characters (this one has %(count)s)")
            % {"limit": MAX_LENGTH, "count": len(text)},
            limit=MAX_LENGTH,
        )
    return text


def note_text(game: Game, reader: User | AnonymousUser | None) -> str:
    """The reader's own note at the game ("" when they have none, or are no player)."""
    if reader is None or not reader.is_authenticated or game.seat_of(reader.pk) is None:
        return ""
    note = Note.objects.filter(game=game, author_id=reader.pk).only("text").first()
    return note.text if note is not None else ""


def write_note(*, game_id: int, user: User, text: str) -> str:
    """Keep ``user``'s note at a game they play (finished or not); an empty text
    deletes it. A stranger's game is 404, as for one that does not exist."""
    game = Game.objects.filter(pk=game_id, seats__user=user).first()
    if game is None:
        raise ServiceError(404, "NOT_FOUND", _("no such game"))
    text = clean(text)
    if not text:
        Note.objects.filter(game=game, author=user).delete()
    else:
        Note.objects.update_or_create(game=game, author=user, defaults={"text": text})
    return text
