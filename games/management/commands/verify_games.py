"""Replay every stored game from its record and compare it with what the row says.

    python manage.py verify_games [--game ID ...]

A game in play is replayed from the encoding its snapshot holds and must reach the
snapshot's position; a finished game's record must decode (its checks pass) to the
status, score and winner the row lists; and every game's seed must be the record's and
match its commitment (docs/fair-deal.md: scheme 1's hash of the seed, scheme 2's of the
server's secret with the seed derived from it and the contributions). Exits non-zero
when a game differs: the record is the truth, everything else a copy of it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import Game as EngineGame
from games.engine import RulesError, fairdeal
from games.models import Game
from games.play.store import engine_game


def differs(game: Game) -> str | None:
    """What is wrong with the stored game, or None."""
    try:
        stored = engine_game(game)
        replayed = EngineGame.from_encoded(stored.encoded()) if game.state is not None else stored
    except RulesError as exc:
        return f"the record does not replay: {exc.message}"
    if replayed.position != stored.position:
        return "the snapshot differs from the replayed record"
    values = [c["value"] for c in game.contributions]
    made = fairdeal.verify(game.deal_scheme, game.seed_hash, game.seed, game.server_secret, values)
    if not made.ok or str(stored.seed) != game.seed:
        return "the seed does not match its commitment or the record"
    letters = replayed.rules.seat_names
    score = None if replayed.score is None else dict(zip(letters, replayed.score, strict=True))
    winner = "" if replayed.winner is None else letters[replayed.winner]
    if (game.status, game.score, game.winner) != (replayed.status, score, winner):
        return "the row's result differs from the replayed record"
    return None


class Command(BaseCommand):
    help = "Replay every game from its record and compare it with the stored game."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, action="append", help="only these game ids")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("pk")
        if options["game"]:
            games = games.filter(pk__in=options["game"])
        bad = []
        checked = 0
        for game in games.iterator(chunk_size=200):
            checked += 1
            problem = differs(game)
            if problem is not None:
                bad.append(game.pk)
                self.stderr.write(f"game {game.pk}: {problem}")
        self.stdout.write(f"{checked} games checked, {len(bad)} differ")
        if bad:
            raise CommandError(f"games that differ: {', '.join(map(str, bad))}")
