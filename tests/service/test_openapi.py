"""The OpenAPI description: every operation has its schemas and worked examples."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from accounts.conduct import block
from accounts.services import create_token
from competitions.services.entering import Terms, create_competition, enter
from competitions.services.ladder import challenge as challenge_up
from games.lobby.challenges import create_challenge
from games.models import Game, Rating
from games.play.services import write_message
from webhooks.services import create_webhook, ping

from .api_operations import Operation, api_operations, write_operations
from .conftest import client_for, play_turn

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(alice: User) -> dict[str, Any]:
    response = client_for(alice).get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    result: dict[str, Any] = response.json()
    return result


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in ("get", "post", "patch", "put", "delete")
    ]


def test_it_lists_the_whole_api(schema: dict[str, Any]) -> None:
    paths = set(schema["paths"])
    for path in (
        "/api/v1/me/",
        "/api/v1/me/tokens/",
        "/api/v1/players/",
        "/api/v1/players/{username}/games/export/",
        "/api/v1/challenges/",
        "/api/v1/challenges/{challenge_id}/accept/",
        "/api/v1/games/",
        "/api/v1/games/{game_id}/",
        "/api/v1/games/{game_id}/moves/",
        "/api/v1/games/{game_id}/log/",
        "/api/v1/games/{game_id}/export/",
        "/api/v1/games/{game_id}/resign/",
        "/api/v1/games/{game_id}/stalemate/offer/",
        "/api/v1/games/{game_id}/messages/",
        "/api/v1/games/public/",
        "/api/v1/me/blocks/",
        "/api/v1/me/blocks/{username}/",
        "/api/v1/reports/",
    ):
        assert path in paths


def test_every_operation_has_a_summary_schemas_and_examples(schema: dict[str, Any]) -> None:
    for path, method, op in operations(schema):
        where = f"{method.upper()} {path}"
        ok = op["responses"].get("200") or op["responses"].get("201") or op["responses"]["204"]
        if "204" not in op["responses"]:
            # One media type, or several (a stream in NDJSON or the notation): each has both.
            for content in ok["content"].values():
                assert "schema" in content, where
                assert content.get("examples"), f"{where}: no response example"
        body = op.get("requestBody")
        if body and method != "get":
            for media in body["content"].values():
                assert "schema" in media, where
            assert any(m.get("examples") for m in body["content"].values()), (
                f"{where}: no request example"
            )


def test_errors_have_the_one_shape_with_examples(schema: dict[str, Any]) -> None:
    op = schema["paths"]["/api/v1/games/{game_id}/moves/"]["post"]
    for status in ("400", "404", "409", "412", "413"):
        content = op["responses"][status]["content"]["application/json"]
        assert content["schema"]["$ref"].endswith("/Error")
        assert content["examples"], status
        for example in content["examples"].values():
            assert set(example["value"]) >= {"error", "message"}


def test_it_documents_the_body_errors_of_every_write(schema: dict[str, Any]) -> None:
    documented = {Operation(method, path) for path, method, _ in operations(schema)}
    assert documented == api_operations(), "the schema and the URL conf disagree"
    for op in write_operations():
        responses = schema["paths"][op.route][op.method]["responses"]
        assert {"400", "413"} <= set(responses), f"{op}: 400 and 413 undocumented"
        codes = {
            e["value"]["error"]
            for e in responses["400"]["content"]["application/json"]["examples"].values()
        }
        assert {"BAD_REQUEST", "MALFORMED_JSON"} <= codes, op


PAGE = {"count", "next", "previous", "results"}


def paginated(schema: dict[str, Any], op: Operation) -> bool:
    """Whether the schema says the operation answers a page of a list."""
    ok = schema["paths"][op.route][op.method]["responses"]["200"]["content"]
    ref = ok.get("application/json", {}).get("schema", {}).get("$ref", "")
    component = schema["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
    return set(component.get("properties", {})) == PAGE


def test_every_list_is_paginated_and_the_schema_says_so(
    schema: dict[str, Any], game: Game, alice: User, bob: User
) -> None:
    play_turn(game, alice, bob)
    create_challenge(bob, opponent="alice")
    Rating.objects.create(user=alice, family="standard", games=5)  # on the ladder
    create_token(alice, "my bot")
    create_token(alice, "my other bot")
    hook = create_webhook(alice, "https://hooks.example.com/rbank", ["move"])
    create_webhook(alice, "https://hooks.example.com/other", ["game_over"])
    ping(alice, hook.pk)
    ping(alice, hook.pk)
    write_message(game_id=game.pk, user=bob, text="good luck")
    write_message(game_id=game.pk, user=alice, text="you too")
    for name in ("mallory", "trudy"):
        block(alice, User.objects.create_user(name).get_username())
    ladder = create_competition(bob, Terms(name="Ladder", format="ladder", max_players=2))
    enter(ladder.pk, alice)
    enter(ladder.pk, bob)
    below = ladder.entries.get(position=2)
    assert below.player is not None
    challenge_up(ladder.pk, below.player, ladder.entries.get(position=1).name)
    client = client_for(alice)
    lists = []
    for op in sorted(api_operations(("get",)), key=str):
        url = op.url(game_id=game.pk, webhook_id=hook.pk, competition_id=ladder.pk)
        response = client.get(url)
        if response.status_code != 200 or response["Content-Type"] != "application/json":
            continue
        body = response.json()
        assert not isinstance(body, list), f"{op} answers a bare list"
        if not paginated(schema, op):
            assert set(body) != PAGE, f"{op} is paginated but the schema does not say so"
            continue
        lists.append(op.route)
        assert set(body) == PAGE and body["count"] >= 1, op
        params = {p["name"] for p in schema["paths"][op.route]["get"].get("parameters", [])}
        assert {"limit", "offset"} <= params, op
        first = client.get(url, {"limit": 1}).json()
        assert len(first["results"]) == 1 and first["count"] == body["count"], op
        assert first["results"][0] == body["results"][0], op
        if body["count"] > 1:
            second = client.get(url, {"limit": 1, "offset": 1}).json()
            assert second["results"][0] == body["results"][1], op
    assert sorted(lists) == [
        "/api/v1/challenges/",
        "/api/v1/competitions/",
        "/api/v1/competitions/{competition_id}/pairings/",
        "/api/v1/competitions/{competition_id}/standings/",
        "/api/v1/games/",
        "/api/v1/games/public/",
        "/api/v1/games/{game_id}/log/",
        "/api/v1/games/{game_id}/messages/",
        "/api/v1/leaderboard/",
        "/api/v1/me/blocks/",
        "/api/v1/me/tokens/",
        "/api/v1/me/webhooks/",
        "/api/v1/me/webhooks/{webhook_id}/deliveries/",
        "/api/v1/players/",
    ]


def test_it_serves_the_docs_page_and_all_its_assets_from_the_site(alice: User) -> None:
    client = client_for(alice)
    page = client.get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    # Nothing names another host: no CDN, no public validator.
    assert not re.findall(r"(?:https?:)?//[\w.-]+\.\w+", html), "the page names another host"
    assert '"validatorUrl": null' in html
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert {a.rsplit("/", 1)[-1] for a in assets} >= {
        "swagger-ui.css",
        "swagger-ui-bundle.js",
        "swagger-ui-standalone-preset.js",
        "favicon-32x32.png",
    }
    (schema_url,) = re.findall(r'url: "([^"]+)"', html)
    for url in [*assets, schema_url.encode().decode("unicode_escape")]:
        response = client.get(url)
        assert response.status_code == 200, url
        if url.endswith(".js"):
            assert b"".join(response).strip(), url
