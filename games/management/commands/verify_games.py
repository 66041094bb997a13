"""Rebuild every stored game from its deal seed and move log and compare with its snapshot.

    python manage.py verify_games [--game ID ...]

Exits non-zero when a game's snapshot differs from its replay: the log is the
record of truth, the snapshot a cache of it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import RulesError, from_document
from games.models import Game
from games.services import rebuild_position


class Command(BaseCommand):
    help = "Replay every game from its seed and log and compare it with the stored position."

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
            try:
                same = rebuild_position(game) == from_document(game.position)
            except RulesError as exc:
                self.stderr.write(f"game {game.pk}: the log does not replay: {exc}")
                same = False
            if not same:
                bad.append(game.pk)
                self.stderr.write(f"game {game.pk}: the snapshot differs from the replayed log")
        self.stdout.write(f"{checked} games checked, {len(bad)} differ")
        if bad:
            raise CommandError(f"games that differ: {', '.join(map(str, bad))}")
