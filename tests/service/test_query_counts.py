"""What the busiest requests cost in queries, counted as the database receives them.

The suite runs each test in a transaction, so a request's own transaction shows as
SAVEPOINT and RELEASE SAVEPOINT where production sends BEGIN and COMMIT: both pairs
are counted, as the database counts them.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import profile_of
from games.models import Game
from tests.service.conftest import whole_turn
from webhooks.models import Delivery
from webhooks.services import create_webhook, delete_webhook, update_webhook

pytestmark = pytest.mark.django_db


def token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user, 'q')[1]}")
    return client


def post_move(client: APIClient, game: Game, move: str) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/v1/games/{game.pk}/moves/", {"moves": [move]}, format="json")
    assert response.status_code == 200, response.content
    return response, [query["sql"] for query in queries.captured_queries]


def players(game: Game, alice: User, bob: User) -> dict[str, APIClient]:
    for user in (alice, bob):
        profile_of(user)  # as every player who has signed up has one
    clients = {"A": token_client(alice), "B": token_client(bob)}
    for client in clients.values():  # the token's first use writes its last_used_at
        client.get("/api/v1/me/")
    return clients


def test_it_plays_a_card_move_in_six_queries(game: Game, alice: User, bob: User) -> None:
    """The token (with its user and profile), BEGIN, the game locked with its seats,
    the game saved, the events written, COMMIT. No webhook lookup: nobody has one."""
    clients = players(game, alice, bob)
    game.refresh_from_db()
    _response, queries = post_move(clients[game.to_move], game, whole_turn(game)[0])
    # Who has webhooks is read once, then kept in the cache (webhooks.outbox).
    assert sum("webhooks_webhook" in sql for sql in queries) == 1
    card_moves = 0
    while card_moves < 10:
        game.refresh_from_db()
        mover = game.to_move
        *moves, last = whole_turn(game)
        for move in moves:
            _response, queries = post_move(clients[mover], game, move)
            assert len(queries) <= 6, "\n".join(queries)
            assert not any("webhooks_webhook" in sql for sql in queries)
            card_moves += 1
        post_move(clients[mover], game, last)


def test_it_ends_a_turn_in_seven_queries(game: Game, alice: User, bob: User) -> None:
    """A turn that ends also writes the next player's "your turn" e-mail (the outbox
    row); their profile (time zone, reminders, preferences) came with the seats."""
    clients = players(game, alice, bob)
    for _turn in range(3):
        game.refresh_from_db()
        mover = game.to_move
        moves = whole_turn(game)
        for move in moves[:-1]:
            post_move(clients[mover], game, move)
        _response, queries = post_move(clients[mover], game, moves[-1])
        assert len(queries) <= 7, "\n".join(queries)
        # The seats bring their players' profiles: the token's join is the only read.
        assert sum('FROM "accounts_profile"' in sql for sql in queries) == 0


def test_it_reads_the_profile_once_to_change_it(alice: User) -> None:
    client = token_client(alice)
    client.get("/api/v1/me/")
    with CaptureQueriesContext(connection) as queries:
        response = client.patch("/api/v1/me/", {"display_name": "Alice"}, format="json")
    assert response.status_code == 200 and response.json()["display_name"] == "Alice"
    reads = [q["sql"] for q in queries.captured_queries if 'FROM "accounts_profile"' in q["sql"]]
    assert len(reads) == 1, reads  # the token brings it; the lock reads it once more


def test_it_queues_deliveries_for_a_webhook_made_after_the_cache_learnt_of_none(
    game: Game, alice: User, bob: User
) -> None:
    """Who has webhooks is cached: making, turning off, turning on and deleting a
    webhook are each seen by the very next move."""
    clients = players(game, alice, bob)

    def next_move() -> None:
        game.refresh_from_db()
        post_move(clients[game.to_move], game, whole_turn(game)[0])

    next_move()  # the cache now says: nobody has a webhook
    a = create_webhook(alice, "https://example.com/a", ["move"])
    b = create_webhook(bob, "https://example.com/b", ["move"])
    next_move()
    assert Delivery.objects.filter(webhook=a).count() == 1
    assert Delivery.objects.filter(webhook=b).count() == 1
    update_webhook(alice, a.pk, {"active": False})
    next_move()
    assert Delivery.objects.filter(webhook=a).count() == 1
    assert Delivery.objects.filter(webhook=b).count() == 2
    update_webhook(alice, a.pk, {"active": True})
    delete_webhook(bob, b.pk)
    next_move()
    assert Delivery.objects.filter(webhook=a).count() == 2
    assert not Delivery.objects.filter(webhook_id=b.pk).exists()
