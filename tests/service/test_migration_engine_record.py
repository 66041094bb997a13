"""The migrations to the engine's record and to seats as rows: each game's old move
log is replayed (a game in play keeps its position, turns and wrong calls in its
snapshot, a finished one its record), its players, calls and points become seats,
and every game then passes ``verify_games``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import deal, seed_commitment, to_document
from games.models import Game
from games.play.store import engine_game

BEFORE = [("games", "0009_outbox_ply")]


def old_game(apps: Any, users: list[Any], seed: int, turns: int, end: str = "") -> Any:
    """A game as the old schema stored it: the position after ``turns`` random turns, and
    a row of the log per move, then ``end`` (an event of the old log)."""
    game_model = apps.get_model("games", "Game")
    record_model = apps.get_model("games", "MoveRecord")
    position = deal(seed)
    rng = random.Random(seed)
    log: list[tuple[str, str, int]] = []
    while position.turns < turns and not position.is_over:
        move = rng.choice(position.legal_moves())
        log.append(("AB"[position.to_move], str(move), position.turns))
        position.push(move)
    if end == "resigns":
        seat = position.to_move
        position.forfeit(seat)
        log.append(("AB"[seat], end, position.turns))
    elif end == "agrees-stalemate":
        position.finish_stalemate()
        log.append(("AB"[position.to_move], end, position.turns))
    game = game_model.objects.create(
        player_a=users[0],
        player_b=users[1],
        seed=str(seed),
        seed_hash=seed_commitment(seed),  # as the service stored it: verify_games checks it
        position=to_document(position),
        status=position.status,
        to_move="AB"[position.to_move],
        ending=position.ending or "",
        ply=len(log),
        wrong_calls={"B": 1} if not end else {},
    )
    record_model.objects.bulk_create(
        record_model(game=game, index=i, seat=seat, turn=turn, text=text)
        for i, (seat, text, turn) in enumerate(log)
    )
    return game


@pytest.mark.django_db(transaction=True)
def test_it_replays_every_old_log_into_the_engines_record() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    users = [
        old.get_model("auth", "User").objects.create(username=name, email=f"{name}@example.com")
        for name in ("alice", "bob")
    ]
    playing = old_game(old, users, 3, 12)
    resigned = old_game(old, users, 4, 6, "resigns")
    agreed = old_game(old, users, 5, 8, "agrees-stalemate")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # the record, then seats as rows
    call_command("verify_games")
    game = Game.objects.get(pk=playing.pk)
    assert game.state is not None and game.record is None
    assert engine_game(game).position.turns == 12
    assert game.wrong_calls == {"B": 1} and game.ply == playing.ply
    assert game.names() == {"A": "alice", "B": "bob"}
    for row, ending in ((resigned, "resigned"), (agreed, "agreed")):
        game = Game.objects.get(pk=row.pk)
        assert game.state is None and game.record is not None and game.ending == ending
        assert engine_game(game).is_over and game.score is not None
        assert game.score == dict(zip("AB", engine_game(game).score or [], strict=True))
