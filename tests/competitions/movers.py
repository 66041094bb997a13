"""The players of the end-to-end competitions: a real Celery worker (a thread of the
test process, on a queue of its own) that plays the computer players' turns and sends
the e-mails, and random movers, people who play random legal moves through the play
service (foundation moves first, so that a game ends in a few hundred moves)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker

from accounts.bots import level_of
from competitions.models import Competition
from config.celery import app
from games.models import Game
from games.play.services import play_moves
from lib.errors import ServiceError
from tests.service.conftest import make_broker_folders
from tests.stored import position_of


@pytest.fixture
def worker(settings: Any) -> Iterator[None]:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    make_broker_folders()
    default_queue = app.conf.task_default_queue
    app.conf.task_default_queue = f"tests-competitions-{os.getpid()}"
    try:
        with start_worker(
            app,
            pool="solo",
            perform_ping_check=False,
            shutdown_timeout=30,
            queues=[app.conf.task_default_queue],
        ):
            yield
    finally:
        app.conf.task_default_queue = default_queue
        app.conf.task_always_eager = True


def random_turn(game: Game, rng: random.Random) -> bool:
    """The person to move in ``game`` plays a whole turn of random legal moves (one
    request). False when it is no person's turn, or the game moved on meanwhile."""
    game.refresh_from_db()
    if game.status != Game.Status.PLAYING:
        return False
    mover = game.user_at("AB".index(game.to_move))
    if mover is None or level_of(mover):
        return False
    position = position_of(game)
    start, moves = position.turns, list[str]()
    while position.turns == start and not position.is_over and len(moves) < 400:
        legal = [str(move) for move in position.legal_moves()]
        home = [move for move in legal if "-F" in move]
        move = rng.choice(home or legal)
        position.play(move)
        moves.append(move)
    try:
        play_moves(game_id=game.pk, user=mover, moves=moves, expected_version=game.version)
    except ServiceError:
        return False  # a computer's task or the sweep got there first: read it again
    return True


def play_until(
    competition: Competition,
    done: Callable[[Competition], bool],
    rng: random.Random,
    seconds: float = 600,
) -> None:
    """Random movers play every person's turn (the worker plays the computers') until
    ``done`` holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        competition.refresh_from_db()
        if done(competition):
            return
        games = Game.objects.filter(
            status=Game.Status.PLAYING, pairing__round__competition=competition
        ).order_by("pk")
        moved = [random_turn(game, rng) for game in games]
        if not any(moved):
            time.sleep(0.05)
    raise AssertionError(f"{competition} did not get there in {seconds} s")
