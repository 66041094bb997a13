"""A finished game as the open database and the players' exports write it: the game's
export in the notation (docs/notation.md) with an ``Ended`` tag, the time it ended
(UTC), and without the players' messages, which are theirs and stay on the game's page.
Games follow one another with a blank line between them; each begins with its
``[Game "…"]`` tag line."""

from __future__ import annotations

from datetime import UTC, datetime

from games.models import Game
from games.play.selectors import fair_deal_tags
from games.play.store import engine_game


def ended(moment: datetime) -> str:
    """``2026-10-03T12:34:56Z``: the end to the second, in UTC."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def game_text(game: Game) -> str:
    """The finished ``game`` in the notation, its seed and result included (the engine
    writes them once a game is over), and a fair deal's commitment, contributions and
    secret (docs/fair-deal.md), so that every game of a month can be verified. Its seats
    must be read or prefetched."""
    assert game.finished_at is not None and game.record is not None, f"game {game.pk} is not over"
    header = [
        ("Game", str(game.pk)),
        ("Rules", game.rules),
        *game.names().items(),
        ("Ended", ended(game.finished_at)),
    ]
    return engine_game(game).export(header, game.rule_options, (), fair_deal_tags(game))
