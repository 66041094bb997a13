"""What the benches that drive the service share: Django started on the test settings,
a throwaway test database, real long games, and the arithmetic of the figures.

A bench script starts with::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # python bench/x.py
    from bench.harness import start_django

    start_django()  # before any import that touches a model

Everything runs in one process and talks only to 127.0.0.1.
"""

from __future__ import annotations

import logging
import os
import random
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from games.models import Game

ROOT = Path(__file__).resolve().parent.parent


def start_django() -> None:
    """Django on the test settings (the suite's: fast password hashing, e-mails kept in
    memory unless a bench says otherwise), with its files under ``var/bench/``."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    os.environ.setdefault("RBANK_VAR_DIR", str(ROOT / "var" / "bench"))
    import django

    django.setup()
    # A line per task, SMTP command or game event would bury the figures.
    for name in ("celery", "mail.log", "games", "mailplay"):
        logging.getLogger(name).setLevel(logging.WARNING)


@contextmanager
def test_database(template: str = "") -> Iterator[None]:
    """A fresh test database (SQLite, or ``DATABASE_URL``'s server) for the run, dropped
    after it; on PostgreSQL, a copy of the database ``template`` if one is named (a big
    one ``bench/big_database.py`` keeps)."""
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    if template:
        connection.settings_dict.setdefault("TEST", {})["TEMPLATE"] = template
    # A database a bench that was stopped halfway left behind is dropped, never asked
    # about; nothing is serialized (no bench rolls back to it, and a big copy would take long).
    old_name = connection.creation.create_test_db(
        verbosity=0, autoclobber=True, serialize=False, keepdb=False
    )
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def database() -> str:
    from django.conf import settings
    from django.db import connection

    return f"{connection.vendor} ({settings.DATABASES['default']['NAME']})"


def random_game(seed: int) -> list[str]:
    """The moves of the game dealt from ``seed`` and played to its end by uniformly random
    legal moves (the ``selfplay`` policy, as ``bench/engine.py`` plays it): turns,
    discards and ends of turn come as often as they do in a real random game."""
    from games.engine import deal

    position = deal(seed)
    rng = random.Random(seed)
    moves = []
    while not position.is_over:
        move = rng.choice(position.legal_moves())
        position.push(move)
        moves.append(str(move))
    return moves


def long_random_game(at_least: int, first_seed: int = 1) -> tuple[int, list[str]]:
    """The first seed from ``first_seed`` on whose random game has more than
    ``at_least`` moves (a random game averages about 1,770), and its moves."""
    seed = first_seed
    while len(moves := random_game(seed)) <= at_least:
        seed += 1
    return seed, moves


def ends_turn(move: str) -> bool:
    """A discard or an ``E``: the move hands the turn over (and writes the next turn's
    deadline, and the "your turn" e-mail)."""
    return move in ("C-W", "E")


def play_to(game: Game, moves: list[str], ply: int) -> None:
    """Bring ``game`` to ``ply`` moves of ``moves`` through the service, a turn per call
    (untimed set-up)."""
    from games.play.services import play_moves
    from games.play.store import engine_game

    game.refresh_from_db()
    position = engine_game(game).position.copy()
    batch: list[str] = []
    for move in moves[game.ply : ply]:
        batch.append(move)
        mover = position.to_move
        position.play(move)
        if position.to_move != mover or position.is_over or len(batch) == 100:
            play_moves(game_id=game.pk, user=player_to_move(game), moves=batch)
            game.refresh_from_db()
            batch = []
    if batch:
        play_moves(game_id=game.pk, user=player_to_move(game), moves=batch)
    game.refresh_from_db()
    assert game.ply == ply, (game.ply, ply)


def player_to_move(game: Game) -> User:
    user: User = game.user_at(game.letters.index(game.to_move))
    return user


def median_ms(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1e3


def percentile_ms(seconds: list[float], fraction: float) -> float:
    ordered = sorted(seconds)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] * 1e3
