"""Template filters for games with two or three seats."""

from __future__ import annotations

from django import template

from games.models import Game

register = template.Library()


@register.filter
def opponents(game: Game, seat: int | None) -> str:
    """The usernames of everyone in ``game`` but ``seat``: ``bob`` or ``bob and carol``."""
    return " and ".join(name for other, name in enumerate(game.names().values()) if other != seat)
