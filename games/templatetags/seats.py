"""Template filters for games with two or three seats."""

from __future__ import annotations

from django import template

from games.models import Game

register = template.Library()


@register.filter
def opponents(game: Game, seat: int | None) -> str:
    """The usernames of everyone in ``game`` but ``seat``: ``bob`` or ``bob and carol``,
    each with their rating (``bob (1523)``) when the view read them (``game.standings``:
    seat letter -> standing)."""
    standings = getattr(game, "standings", {})
    return " and ".join(
        name + (f" ({standings[letter]})" if letter in standings else "")
        for other, (letter, name) in enumerate(game.names().items())
        if other != seat
    )


@register.filter
def at(mapping: object, key: str) -> object:
    """``mapping[key]``, or "" when it has no such key (or the page has no mapping)."""
    return mapping.get(key, "") if isinstance(mapping, dict) else ""
