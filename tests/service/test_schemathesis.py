"""The whole API against its own OpenAPI schema, with every check schemathesis has
(response conformance and status codes included): no failure and no 5xx.

Examples come from the schema, run in process through Django's WSGI application, as a
player with a game in play, a challenge of each kind and a token; ids in the paths are
those of real objects as often as random ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings

from accounts.services import create_token
from competitions.services.entering import Terms, create_competition, enter
from games.lobby.challenges import create_challenge
from games.play.dealing import start_game

pytestmark = pytest.mark.django_db


def load_schema() -> Any:
    """The schema /api/v1/schema/ serves, made by the same generator, and the site's WSGI
    application to send the examples to."""
    document = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    loaded = schemathesis.openapi.from_dict(json.loads(json.dumps(document, default=str)))
    loaded.app = WSGIHandler()
    return loaded


schema = load_schema()


@pytest.fixture(autouse=True)
def one_connection() -> Iterator[None]:
    # As Django's test client does: the test's connection (and its transaction) stays
    # open across the requests.
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


@pytest.fixture
def key(db: None) -> str:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    start_game(alice, bob, seed=20261122)
    create_challenge(alice, opponent="bob")
    create_challenge(bob, opponent="alice")
    create_challenge(bob, is_open=True)
    # Competitions: one running (a ladder alice is on), one open, one private.
    ladder = create_competition(bob, Terms(name="Ladder", format="ladder", max_players=2))
    enter(ladder.pk, alice)
    enter(ladder.pk, bob)
    create_competition(bob, Terms(name="Swiss", rounds=3))
    create_competition(bob, Terms(name="Friends", format="round_robin", public=False))
    _, secret = create_token(alice, "schemathesis")
    return secret


@schema.parametrize()  # type: ignore[untyped-decorator]
@settings(
    # Every operation: each case of schemathesis's coverage phase (the boundaries and
    # the missing or wrong values the schema names), then ten generated examples.
    max_examples=10,
    derandomize=True,  # the same examples every run, so a failure is never a fluke
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_answers_as_its_schema_says(case: Any, key: str) -> None:
    case.call_and_validate(headers={"Authorization": f"Token {key}"})
