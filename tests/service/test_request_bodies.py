"""Every write of the API reads its body strictly: a body nested too deeply, over the size
limit or naming a field the operation does not know is refused in the one error shape,
and the refusal changes nothing."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from accounts.conduct import block
from accounts.models import ApiToken, Block, Profile
from accounts.services import create_token
from competitions.models import Competition, Entry
from competitions.services.entering import Terms, create_competition, enter
from games.lobby.challenges import create_challenge
from games.models import Challenge, Game
from webhooks.models import Delivery, Webhook
from webhooks.services import create_webhook, ping

from .api_operations import Operation, schema_write_operations, write_operations
from .conftest import client_for

pytestmark = pytest.mark.django_db

#: Every write the schema lists: POST, PUT, PATCH and DELETE.
WRITES = schema_write_operations()


def test_it_walks_every_write_the_url_conf_serves() -> None:
    assert write_operations() == WRITES


@dataclass
class World:
    """Alice's game with bob, bob's challenge to her, her API token, her webhook and its
    ping, her block of charlie: every id a write operation's URL can name, each a real
    thing the operation could change."""

    alice: User
    game: Game
    challenge: Challenge
    token: ApiToken
    webhook: Webhook
    delivery: Delivery
    blocked: User
    competition: Competition

    def url(self, op: Operation) -> str:
        return op.url(
            game_id=self.game.pk,
            challenge_id=self.challenge.pk,
            token_id=self.token.pk,
            webhook_id=self.webhook.pk,
            delivery_id=self.delivery.pk,
            username=self.blocked.get_username(),
            competition_id=self.competition.pk,
        )

    def snapshot(self) -> tuple[Any, ...]:
        """What any write could change."""
        game = Game.objects.get(pk=self.game.pk)
        profile = Profile.objects.filter(user=self.alice).values().first()
        return (
            game.version,
            game.status,
            game.stalemate_offer,
            list(Challenge.objects.values_list("pk", "status", "game_id").order_by("pk")),
            list(ApiToken.objects.values_list("pk", "name").order_by("pk")),
            profile,
            list(Webhook.objects.values("pk", "url", "kinds", "active", "secret").order_by("pk")),
            list(Delivery.objects.values_list("pk", flat=True).order_by("pk")),
            list(Block.objects.values_list("blocker", "blocked").order_by("pk")),
            list(Entry.objects.values_list("pk", "withdrawn_at", "position").order_by("pk")),
            list(Competition.objects.values_list("pk", "status").order_by("pk")),
        )


@pytest.fixture
def world(alice: User, bob: User, charlie: User, game: Game) -> World:
    challenge = create_challenge(bob, opponent="alice")
    token, _ = create_token(alice, "my bot")
    webhook = create_webhook(alice, "https://hooks.example.com/rbank", ["move"])
    block(alice, "charlie")
    delivery = ping(alice, webhook.pk)
    # A running ladder alice and bob are on: every competition write has its target.
    ladder = create_competition(bob, Terms(name="Ladder", format="ladder", max_players=2))
    enter(ladder.pk, alice)
    enter(ladder.pk, bob)
    return World(alice, game, challenge, token, webhook, delivery, charlie, ladder)


def send(world: World, op: Operation, body: str, content_type: str = "application/json") -> Any:
    client = client_for(world.alice)
    return getattr(client, op.method)(world.url(op), body, content_type=content_type)


def nested(depth: int) -> str:
    return '{"moves": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("op", WRITES, ids=str)
@pytest.mark.parametrize("depth", [5000, 200])
def test_it_refuses_deeply_nested_json_on_every_write(
    world: World, op: Operation, depth: int
) -> None:
    before = world.snapshot()
    response = send(world, op, nested(depth))
    assert response.status_code == 400, response.content[:200]
    assert response.json()["error"] == "MALFORMED_JSON"
    assert "nested" in response.json()["message"]
    assert world.snapshot() == before


def test_it_still_reads_json_nested_as_deep_as_a_real_body(world: World) -> None:
    options = {"lenient_turn": True}
    response = client_for(world.alice).post(
        "/api/v1/challenges/", {"opponent": "bob", "options": options}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["options"] == options


@pytest.mark.parametrize("op", WRITES, ids=str)
def test_it_answers_413_for_a_body_over_the_limit_and_logs_no_error(
    world: World, op: Operation, caplog: pytest.LogCaptureFixture
) -> None:
    before = world.snapshot()
    body = json.dumps({"moves": ["x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE]})
    with caplog.at_level(logging.INFO):
        response = send(world, op, body)
    assert response.status_code == 413
    assert response.json()["error"] == "TOO_LARGE"
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes" in response.json()["message"]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert world.snapshot() == before


def test_it_refuses_a_form_body_with_415_and_logs_no_error(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    fields = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    (op,) = (op for op in WRITES if op.route == "/api/v1/me/tokens/")
    with caplog.at_level(logging.INFO):
        response = send(world, op, fields, "application/x-www-form-urlencoded")
    # The API reads JSON only: a form, however large, is the wrong kind of body.
    assert response.status_code == 415
    assert response.json()["error"] == "UNSUPPORTED_MEDIA_TYPE"
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


@pytest.fixture
def request_examples(alice: User) -> dict[str, dict[str, Any]]:
    """Each write operation's first request example in the OpenAPI schema."""
    schema = client_for(alice).get("/api/v1/schema/?format=json").json()
    examples = {}
    for path, item in schema["paths"].items():
        for method, op in item.items():
            content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            values = [e["value"] for e in content.get("examples", {}).values()]
            examples[f"{method.upper()} {path}"] = values[0] if values else {}
    return examples


@pytest.mark.parametrize("op", WRITES, ids=str)
def test_it_refuses_an_unknown_field_on_every_write(
    world: World, op: Operation, request_examples: dict[str, dict[str, Any]]
) -> None:
    before = world.snapshot()
    body = {**request_examples[str(op)], "expected_verison": 7}
    response = send(world, op, json.dumps(body))
    assert response.status_code == 400, response.content[:300]
    error = response.json()
    assert error["error"] == "BAD_REQUEST"
    assert "expected_verison: unknown field" in error["message"]
    assert world.snapshot() == before


def test_it_refuses_a_read_only_field_rather_than_ignore_it(world: World) -> None:
    before = world.snapshot()
    response = client_for(world.alice).patch(
        "/api/v1/me/", {"username": "mallory", "display_name": "Mallory"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["message"] == "username: read-only, it cannot be set"
    assert world.snapshot() == before
    world.alice.refresh_from_db()
    assert world.alice.username == "alice"


def test_it_takes_an_empty_body_where_no_fields_are_needed(world: World, bob: User) -> None:
    offer = f"/api/v1/games/{world.game.pk}/stalemate/offer/"
    assert client_for(world.alice).post(offer).status_code == 200
    response = client_for(bob).post(
        f"/api/v1/challenges/{world.challenge.pk}/cancel/", {}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
