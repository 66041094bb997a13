"""Template filters for games with two or three seats."""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.utils.translation import gettext as _

from games.models import Game

register = template.Library()


def and_list(names: Sequence[str]) -> str:
    """Names as a sentence says them: ``bob``, ``bob and carol``, ``alice, bob and carol``."""
    if len(names) < 2:
        return "".join(names)
    # Translators: the last of several names, e.g. "bob and carol" ("alice, bob and carol").
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


@register.filter
def opponents(game: Game, seat: int | None) -> str:
    """The usernames of everyone in ``game`` but ``seat``: ``bob`` or ``bob and carol``,
    each with their rating (``bob (1523)``) when the view read them (``game.standings``:
    seat letter -> standing)."""
    standings = getattr(game, "standings", {})
    return and_list(
        [
            name + (f" ({standings[letter]})" if letter in standings else "")
            for other, (letter, name) in enumerate(game.names().items())
            if other != seat
        ]
    )


@register.filter
def at(mapping: object, key: str) -> object:
    """``mapping[key]``, or "" when it has no such key (or the page has no mapping)."""
    return mapping.get(key, "") if isinstance(mapping, dict) else ""
