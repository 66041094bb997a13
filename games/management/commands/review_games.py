"""Review the finished games that have no review yet (those that ended before reviews
existed, or whose task was lost): docs/review.md.

    python manage.py review_games [--limit N] [--here] [--game ID ...]

By default their tasks are queued on the ``review`` queue for the reviewer worker;
``--here`` reviews them in this process instead, one after the other. A game in play
is never reviewed, and a game reviewed already is left as it is.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.review import services


class Command(BaseCommand):
    help = "Review the finished games that have no review yet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=1000, help="at most this many games")
        parser.add_argument("--here", action="store_true", help="review here, not queued")
        parser.add_argument("--game", type=int, action="append", help="only this game (repeat)")

    def handle(self, *args: Any, **options: Any) -> None:
        limit, games = options["limit"], options["game"]
        if not options["here"] and not games:
            queued = services.queue_unreviewed(limit)
            self.stdout.write(f"{queued} reviews queued")
            return
        ids = games or services.unreviewed(limit)
        done = 0
        for game_id in ids:
            said = services.review_game(game_id)
            if said:
                done += 1
                self.stdout.write(f"game {game_id}: {said}")
        self.stdout.write(f"{done} games reviewed")
