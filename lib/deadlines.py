"""Deadlines other apps add to a player's calendar feed (``games.pages.calendar``):
the games' own are the games' turns; an app built on top (competitions: its rounds)
registers a finder here when it is ready, so the calendar imports none of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Deadline:
    """One calendar event: ``uid`` names it for good (a changed date is a new uid)."""

    uid: str
    at: datetime
    summary: str
    description: str
    url: str


Finder = Callable[[Any], list[Deadline]]
_finders: list[Finder] = []


def register(finder: Finder) -> None:
    """Add ``finder`` (a user -> their deadlines), once however often asked."""
    if finder not in _finders:
        _finders.append(finder)


def deadlines_for(user: Any) -> list[Deadline]:
    """Every registered finder's deadlines for ``user``, in registration order."""
    return [deadline for finder in _finders for deadline in finder(user)]
