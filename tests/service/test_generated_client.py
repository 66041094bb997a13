"""A Python client generated, in the test, from the schema /api/v1/schema/ serves,
plays a whole game: nothing but the schema tells it the operations, their paths and
methods, and it checks every answer against the schema's response for its status.

The client is one method per ``operationId`` (``challenges_create``,
``games_moves_create``...), each taking the path's parameters by name and a JSON body.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from accounts.services import create_token

pytestmark = pytest.mark.django_db


class ApiError(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"{status}: {body}")
        self.status, self.body = status, body


def generate(schema: dict[str, Any], transport: APIClient) -> Any:
    """A client class with one method per operation of ``schema``."""
    methods: dict[str, Callable[..., Any]] = {}
    for path, operations in schema["paths"].items():
        for verb, operation in operations.items():
            methods[operation["operationId"]] = _method(verb, path, operation, transport)
    return type("GeneratedClient", (), {n: staticmethod(f) for n, f in methods.items()})()


def _method(verb: str, path: str, operation: dict[str, Any], transport: APIClient) -> Any:
    names = re.findall(r"{(\w+)}", path)
    documented = {int(s) for s in operation["responses"] if s.isdigit()}

    def call(body: dict[str, Any] | None = None, **params: Any) -> Any:
        assert set(params) == set(names), f"{operation['operationId']} takes {names}"
        url = path.format(**params)
        send = getattr(transport, verb)
        response = send(url, body, format="json") if verb != "get" else send(url)
        assert response.status_code in documented, (operation["operationId"], response.status_code)
        data = response.json() if response.content else None
        if response.status_code >= 400:
            raise ApiError(response.status_code, data)
        return data

    call.__name__ = operation["operationId"]
    return call


def client_of(user: User, schema: dict[str, Any]) -> Any:
    _, key = create_token(user, "generated client")
    transport = APIClient()
    transport.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return generate(schema, transport)


def test_a_client_generated_from_the_schema_plays_a_whole_game(alice: User, bob: User) -> None:
    served = APIClient().get("/api/v1/schema/")
    assert served.status_code == 200
    schema = yaml.safe_load(served.content)
    players = {"alice": client_of(alice, schema), "bob": client_of(bob, schema)}
    challenge = players["alice"].challenges_create({"opponent": "bob"})
    game_id = players["bob"].challenges_accept_create(challenge_id=challenge["id"])["game"]
    assert game_id is not None
    rng = random.Random(7)
    moves = 0
    first = players["alice"].games_retrieve(game_id=game_id)
    name = "alice" if first["your_turn"] else "bob"
    state = first if name == "alice" else players["bob"].games_retrieve(game_id=game_id)
    while state["status"] == "playing":
        other = "bob" if name == "alice" else "alice"
        if not state["your_turn"]:  # the turn passed: the other player reads the game
            name, state = other, players[other].games_retrieve(game_id=game_id)
            continue
        legal = state["legal_moves"]
        # Foundations first, then any: a game that ends in a few hundred requests.
        home = [m for m in legal if "-F" in m]
        played = players[name].games_moves_create(
            {"moves": [rng.choice(home or legal)], "expected_version": state["version"]},
            game_id=game_id,
        )
        assert played["version"] > state["version"]
        state, moves = played, moves + 1
        if moves == 40:  # offers and answers are part of a game's life too
            players[name].games_stalemate_offer_create(game_id=game_id)
            state = players[other].games_stalemate_answer_create({"accept": False}, game_id=game_id)
            name = other
        assert moves < 5000, "the game never ended"
    assert moves >= 40
    finished = players["bob"].games_retrieve(game_id=game_id)
    assert finished["status"] != "playing" and finished["seed"]
    log = players["alice"].games_log_list(game_id=game_id)
    assert log["count"] >= moves
    record = players["alice"].games_record_retrieve(game_id=game_id)
    assert record["seed"] == finished["seed"]
    with pytest.raises(ApiError) as over:
        players["alice"].games_resign_create(game_id=game_id)
    assert over.value.status == 409 and over.value.body["error"] == "GAME_OVER"


def test_a_client_generated_from_the_schema_runs_a_round_robin(alice: User, bob: User) -> None:
    """Made, entered, played (each game resigned through the client) and read back:
    the competitions' operations as the schema names them."""
    schema = yaml.safe_load(APIClient().get("/api/v1/schema/").content)
    players = {"alice": client_of(alice, schema), "bob": client_of(bob, schema)}
    made = players["alice"].competitions_create(
        {"name": "Two of us", "format": "round_robin", "double": True, "max_players": 2}
    )
    assert made["status"] == "open"
    for name in ("alice", "bob"):
        players[name].competitions_enter_create(competition_id=made["id"])
    assert players["bob"].competitions_retrieve(competition_id=made["id"])["status"] == "running"
    pairings = players["bob"].competitions_pairings_list(competition_id=made["id"])
    assert pairings["count"] == 2
    for pairing in pairings["results"]:
        loser = "bob" if pairing["seat_b"] == "bob" else "alice"
        players[loser].games_resign_create(game_id=pairing["game"])
    table = players["alice"].competitions_standings_list(competition_id=made["id"])
    assert [row["points"] for row in table["results"]] == [1.0, 1.0]
    finished = players["alice"].competitions_retrieve(competition_id=made["id"])
    assert finished["status"] == "finished"
    with pytest.raises(ApiError) as over:
        players["alice"].competitions_withdraw_create(competition_id=made["id"])
    assert over.value.status == 409
