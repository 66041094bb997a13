"""Odd input anywhere in the API is a clear 4xx in the one error shape, never a 500."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from config.settings import _next_redis_db
from games.engine import BadNotation, parse_move
from games.models import Game
from lib.api_errors import csrf_failure

from .api_operations import api_paths
from .conftest import browser, client_for, mover_and_other

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["H²-F1", "R-F³", "H1-OR²", "F١-H1"])
def test_non_ascii_digits_are_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation):
        parse_move(text)


def test_a_move_with_odd_digits_is_a_400(game: Game, alice: User, bob: User) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    response = client_for(mover).post(
        f"/api/v1/games/{game.pk}/moves/", {"moves": ["H²-F1"]}, format="json"
    )
    # Outside the notation's letters, digits and dash: the body itself is wrong.
    assert response.status_code == 400 and response.json()["error"] == "BAD_REQUEST"
    assert "moves" in response.json()["message"]


@pytest.mark.parametrize(
    ("header", "status"), [("²", 400), ("abc", 400), ("*", 200), ('W/"1"', 200)]
)
def test_if_match_is_read_strictly(
    game: Game, alice: User, bob: User, header: str, status: int
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    move = client_for(mover).get(f"/api/v1/games/{game.pk}/").json()["legal_moves"][0]
    response = client_for(mover).post(
        f"/api/v1/games/{game.pk}/moves/", {"moves": [move]}, format="json", HTTP_IF_MATCH=header
    )
    assert response.status_code == status, response.json()


def test_a_malformed_if_match_is_refused_even_beside_a_body_version(
    game: Game, alice: User, bob: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    move = client_for(mover).get(f"/api/v1/games/{game.pk}/").json()["legal_moves"][0]
    response = client_for(mover).post(
        f"/api/v1/games/{game.pk}/moves/",
        {"moves": [move], "expected_version": 1},
        format="json",
        HTTP_IF_MATCH="junk",
    )
    assert response.status_code == 400 and "If-Match" in response.json()["message"]


@pytest.mark.parametrize("query", ["limit=99999999999999999999", "offset=99999999999999999999"])
def test_huge_pagination_is_clamped(game: Game, alice: User, query: str) -> None:
    response = client_for(alice).get(f"/api/v1/games/?{query}")
    assert response.status_code == 200


def test_pages_hold_at_most_100(alice: User, bob: User) -> None:
    response = client_for(alice).get("/api/v1/players/?limit=1000000")
    assert response.status_code == 200 and "limit=100" in (response.json()["next"] or "limit=100")


def test_an_unknown_api_url_answers_in_the_error_shape(alice: User) -> None:
    response = client_for(alice).get("/api/v1/games/abc/")
    assert response.status_code == 404
    assert response.json()["error"] == "NOT_FOUND"


def test_a_request_refused_before_any_api_view_answers_in_the_error_shape() -> None:
    response = Client().get("/api/v1/rules/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response.json()["error"] == "BAD_REQUEST" and "Host" in response.json()["message"]
    assert Client().get("/rules/", HTTP_HOST="evil.example")["Content-Type"].startswith("text/html")


def test_nul_bytes_in_urls_and_queries_are_harmless(alice: User) -> None:
    assert Client().get("/invitations/%00/").status_code == 404
    assert client_for(alice).get("/api/v1/players/?search=%00").status_code == 200


def test_the_cache_never_shares_the_brokers_redis_database() -> None:
    assert _next_redis_db("redis://h:6379/0") == "redis://h:6379/1"
    assert _next_redis_db("redis://h:6379") == "redis://h:6379/1"
    assert _next_redis_db("redis://:pw@h:6379/15") == "redis://:pw@h:6379/0"


def test_it_answers_every_api_path_in_the_error_shape_even_without_the_csrf_token(
    alice: User,
) -> None:
    # A signed-in browser's write without the CSRF token: DRF's views refuse it in the
    # error shape, and so must a plain Django view under /api/ (the event stream).
    client = browser(alice)
    client.handler.enforce_csrf_checks = True
    answers = {}
    with ThreadPoolExecutor(1) as thread:  # the stream's async view needs a loop of its own
        # The schema and its Swagger page aside: they answer in their own formats.
        for path in set(api_paths()) - {"/api/v1/schema/", "/api/v1/docs/"}:
            url = path.format_map(
                {**dict.fromkeys(re.findall(r"{(\w+)}", path), 1), "username": "bob"}
            )
            for method in ("post", "put", "patch", "delete"):
                response = thread.submit(getattr(client, method), url).result()
                answers[f"{method.upper()} {path}"] = response["Content-Type"]
    html = {operation: kind for operation, kind in answers.items() if "json" not in kind}
    assert html == {}
    assert len(answers) > 80


def test_a_csrf_refusal_under_the_api_is_in_the_error_shape(rf: RequestFactory) -> None:
    response = csrf_failure(rf.post("/api/v1/anything/"), reason="CSRF cookie not set.")
    assert response.status_code == 403
    assert json.loads(response.content)["error"] == "FORBIDDEN"
    page = csrf_failure(rf.post("/account/"), reason="CSRF cookie not set.")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")
