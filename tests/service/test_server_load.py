"""The image's web server under 50 clients at once: no 5xx, and on PostgreSQL a
bounded number of connections (docs/operating.md, "Database connections").

The server is the image's own command (``bench/load.py``), on this test's database;
each client plays a game of its own for a few seconds over a keep-alive connection.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction

from bench.load import connections_to, drive, image_server, make_players
from games.models import Game
from tests.service.conftest import whole_turn

pytestmark = [pytest.mark.process, pytest.mark.django_db(transaction=True)]

CLIENTS = 50
WORKERS = 2
POOL = 4


def test_it_serves_fifty_clients_with_no_5xx_and_bounded_connections(tmp_path: Path) -> None:
    players = make_players(CLIENTS)
    name = str(connection.settings_dict["NAME"])
    env = {
        "WEB_CONCURRENCY": str(WORKERS),
        "DB_POOL_MAX_SIZE": str(POOL),
        "RBANK_VAR_DIR": str(tmp_path),
        # The suite's Redis is shared: this server's cache keys are its own.
        "STREAM_CHANNEL": settings.STREAM_CHANNEL,
    }
    ours = connections_to(name) if connection.vendor == "postgresql" else 0  # this test's
    with image_server(name, **env) as server:
        figures = drive(server, players, seconds=6, database=name, warm_up=1)
    assert figures.failures == []
    assert figures.server_errors == 0
    assert figures.times["move"] and figures.times["floor"] and figures.times["game"]
    # Every client made rounds: nobody waited out the load for a connection.
    assert len(figures.times["move"]) >= CLIENTS
    if connection.vendor == "postgresql":
        # Each worker's pool at most, beside this test's own.
        assert figures.connections, "pg_stat_activity was read"
        assert max(figures.connections) - ours <= WORKERS * POOL, (ours, figures.connections)


@pytest.mark.parametrize("debug", ["0", "1"], ids=["production", "debug"])
def test_it_answers_503_with_retry_after_when_no_connection_is_free(
    tmp_path: Path, debug: str
) -> None:
    """The pool's only connection is held by a move waiting for the game's row lock
    (this test holds it): a request that finds no free connection within
    DB_POOL_TIMEOUT is told to come back (503, Retry-After), not 500; the move is
    played once the lock is let go. With DEBUG on too (make run, make cluster): Django
    then answers an uncaught error with its debug page, a 500, not the 500 handler."""
    if connection.vendor != "postgresql":
        pytest.skip("the connection pool is PostgreSQL's (SQLite has none)")
    (player,) = make_players(1)
    name = str(connection.settings_dict["NAME"])
    env = {
        "WEB_CONCURRENCY": "1",
        "DB_POOL_MAX_SIZE": "1",
        "DB_POOL_TIMEOUT": "0.5",
        "RBANK_VAR_DIR": str(tmp_path),
        "STREAM_CHANNEL": settings.STREAM_CHANNEL,
        "DEBUG": debug,
    }
    game = Game.objects.get(pk=player.game_id)
    seat = game.to_move
    move = whole_turn(game)[0]
    with image_server(name, **env) as server, ThreadPoolExecutor(1) as pool:
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=game.pk)
            path = f"/api/v1/games/{game.pk}/moves/"
            played = pool.submit(call, server.url, path, player.tokens[seat], {"moves": [move]})
            time.sleep(1)  # the move holds the connection, waiting for the lock
            busy = call(server.url, "/api/v1/me/", player.tokens[seat])
            assert busy.status == 503, busy.body
            assert busy.headers["retry-after"] == "5"
            assert busy.json()["error"] == "SERVICE_UNAVAILABLE"
        assert played.result(30).status == 200  # the lock let go, the move went through
        assert call(server.url, "/api/v1/me/", player.tokens[seat]).status == 200
    game.refresh_from_db()
    assert game.ply == 1


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def call(url: str, path: str, token: str, body: Any = None) -> Answer:
    request = urllib.request.Request(
        url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return Answer(response.status, _lower(response.headers), response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, _lower(error.headers), error.read())


def _lower(headers: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}
