"""What a finished game costs in the database, on PostgreSQL.

    python bench/storage.py [--games 100] [--players 20] [--seed 1]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rbank python bench/storage.py

Plays ``--games`` complete games through the services, as players would: each is a
challenge accepted (``games.lobby.challenges``), then played to its end a turn per request
(``services.play_moves``), the
moves of a turn chosen uniformly among the legal ones, as bench/engine.py's random
games are. Every e-mail the games write goes through the outbox and is sent (to
memory). Then the retention runs as it will once its period has passed
(``retention.prune``), ``VACUUM FULL`` compacts every table, and the sizes are read
with ``pg_total_relation_size`` (each table with its indexes and TOAST).

The app's tables are those of ``games`` and ``accounts``; Django's own (users,
sessions, allauth's addresses...) are shown apart. The players are made, and the
sizes of the empty schema read, before the first game: the figure per game is what
the games added to the app's tables, divided by their number (an empty table's pages
are a fixed cost, not a game's).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/storage.py
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/rbank_bench")
from bench.harness import player_to_move, start_django, test_database

start_django()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.services import profile_of  # noqa: E402
from games import retention  # noqa: E402
from games.lobby.challenges import accept_challenge, create_challenge  # noqa: E402
from games.models import Game  # noqa: E402
from games.play.services import play_moves  # noqa: E402
from games.play.store import engine_game  # noqa: E402

APPS = ("games_", "accounts_")


def table_sizes() -> dict[str, int]:
    """Every table of the schema, compacted, with its indexes and TOAST, in bytes."""
    with connection.cursor() as cursor:
        cursor.execute("VACUUM FULL ANALYZE")
        cursor.execute(
            "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind = 'r' AND n.nspname = current_schema()"
        )
        return {name: size for name, size in cursor.fetchall()}


def play_to_the_end(game: Game, rng: random.Random) -> int:
    """Random legal moves, a turn per request; returns the requests made."""
    requests = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return requests
        position = engine_game(game).position.copy()
        mover, turn = position.to_move, list[str]()
        while not position.is_over and position.to_move == mover and len(turn) < 500:
            move = rng.choice(position.legal_moves())
            position.push(move)
            turn.append(str(move))
        play_moves(
            game_id=game.pk,
            user=player_to_move(game),
            moves=turn,
            expected_version=game.version,
        )
        requests += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/storage.py measures PostgreSQL: set DATABASE_URL to a server")
    rng = random.Random(args.seed)
    with test_database():
        players = [
            User.objects.create_user(f"p{i}", f"p{i}@example.com", "pw")
            for i in range(args.players)
        ]
        for player in players:
            profile_of(player)  # a player's, not a game's: made before the baseline
        empty = table_sizes()
        requests = 0
        for n in range(args.games):
            challenger, opponent = rng.sample(players, 2)
            challenge = create_challenge(challenger, opponent=opponent.get_username())
            challenge = accept_challenge(challenge.pk, opponent)
            assert challenge.game is not None
            requests += play_to_the_end(challenge.game, rng)
            print(f"\r{n + 1} games, {requests} requests", end="", file=sys.stderr)
        print(file=sys.stderr)
        assert Game.objects.filter(status=Game.Status.PLAYING).count() == 0
        before = table_sizes()
        later = timezone.now() + timedelta(days=settings.RETENTION_DAYS + 1)
        pruned = retention.prune(now=later)
        after = table_sizes()

    def app(sizes: dict[str, int]) -> int:
        return sum(size for name, size in sizes.items() if name.startswith(APPS))

    print(f"{args.games} finished games, {requests} turns played through the services")
    print(f"retention after {settings.RETENTION_DAYS} days deleted {pruned}")
    print(f"{'table':<32} {'empty':>10} {'played':>10} {'retained':>10}  bytes/game")
    for name in sorted(after, key=lambda n: (not n.startswith(APPS), -after[n])):
        added = after[name] - empty.get(name, 0)
        print(
            f"{name:<32} {empty.get(name, 0):>10} {before.get(name, 0):>10} {after[name]:>10}"
            f"  {added / args.games:>10.0f}"
        )
    total_before = (app(before) - app(empty)) / args.games
    print(f"the app's tables before the retention: {total_before:.0f} bytes per game")
    print(f"the app's tables, empty: {app(empty)} bytes; after: {app(after)} bytes")
    print(f"bytes per finished game: {(app(after) - app(empty)) / args.games:.0f}")


if __name__ == "__main__":
    main()
