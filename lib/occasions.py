"""What a game is played for beyond itself (a competition's round), for its page to name
with a link: an app built on top of the games (competitions) registers a finder when it
is ready, so the game page imports none of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Occasion:
    label: str  # in the reader's language: "Autumn Swiss, round 2"
    url: str


Finder = Callable[[Any], Occasion | None]
_finders: list[Finder] = []


def register(finder: Finder) -> None:
    """Add ``finder`` (a game -> what it is played for, or None), once."""
    if finder not in _finders:
        _finders.append(finder)


def occasion_of(game: Any) -> Occasion | None:
    """The first registered finder's answer for ``game``, or None."""
    for finder in _finders:
        if (found := finder(game)) is not None:
            return found
    return None
