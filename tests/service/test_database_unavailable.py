"""A request that finds the database out of reach is answered 503 with Retry-After,
not 500, wherever the ``OperationalError`` is raised (a middleware before the view, or
the view), with DEBUG on or off (lib.api_errors.DatabaseUnavailableMiddleware).

The pool that runs dry under a real server is tests/service/test_server_load.py's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import AsyncClient, Client

from accounts.models import ApiToken
from tests.service.conftest import browser

#: What psycopg_pool's PoolTimeout (an OperationalError) says.
POOL_TIMEOUT = "couldn't get a connection after 10.00 sec"

BUSY = {
    "error": "SERVICE_UNAVAILABLE",
    "message": "the service is busy: try again in a few seconds",
}


@pytest.fixture(params=[False, True], ids=["production", "debug"])
def debug(request: pytest.FixtureRequest, settings: Any) -> bool:
    settings.DEBUG = request.param
    return bool(request.param)


def out_of_reach(*args: Any, **kwargs: Any) -> None:
    raise OperationalError(POOL_TIMEOUT)


class RaisingMiddleware:
    """A middleware that meets the database out of reach before the view runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        raise OperationalError(POOL_TIMEOUT)


class BrokenMiddleware(RaisingMiddleware):
    def __call__(self, request: HttpRequest) -> HttpResponse:
        raise ZeroDivisionError


def signed_in(user: User) -> Client:
    client = browser(user)
    client.raise_request_exception = False  # the answer, not the exception
    return client


def assert_busy_page(answer: Any) -> None:
    assert answer.status_code == 503, answer.content[:300]
    assert answer["Retry-After"] == "5"
    assert answer["Content-Type"].startswith("text/html")
    assert b"Too busy to answer just now" in answer.content


def assert_busy_api(answer: Any) -> None:
    assert answer.status_code == 503, answer.content[:300]
    assert answer["Retry-After"] == "5"
    assert answer.json() == BUSY


def test_a_page_whose_time_zone_middleware_finds_no_connection_is_503(
    alice: User, debug: bool, caplog: pytest.LogCaptureFixture
) -> None:
    client = signed_in(alice)
    with (
        caplog.at_level(logging.WARNING),
        mock.patch("accounts.middleware.profile_of", out_of_reach),
    ):
        answer = client.get("/")
    assert_busy_page(answer)
    # The headers of the middlewares below are kept (the security middleware's).
    assert answer["X-Content-Type-Options"] == "nosniff"
    warning = [r for r in caplog.records if r.name == "lib.api_errors"]
    assert [r.getMessage() for r in warning] == [f"database out of reach: GET /: {POOL_TIMEOUT}"]
    assert warning[0].levelno == logging.WARNING
    # Logged once: the 503 is not logged again as an error.
    assert not [r for r in caplog.records if "Service Unavailable" in r.getMessage()]


def test_a_page_whose_session_cannot_be_read_is_503(alice: User, debug: bool) -> None:
    client = signed_in(alice)
    # The session is first read by a middleware (the player's time zone asks who it is).
    with mock.patch.object(SessionStore, "load", out_of_reach):
        assert_busy_page(client.get("/"))


def test_an_api_request_whose_session_cannot_be_read_is_503(alice: User, debug: bool) -> None:
    client = signed_in(alice)
    with mock.patch.object(SessionStore, "load", out_of_reach):
        assert_busy_api(client.get("/api/v1/me/"))


def test_an_api_request_whose_token_cannot_be_read_is_503(alice: User, debug: bool) -> None:
    _, key = ApiToken.issue(alice, "test")
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/v1/me/").status_code == 200
    with mock.patch.object(ApiToken.objects, "select_related", out_of_reach):
        assert_busy_api(client.get("/api/v1/me/"))


@pytest.mark.parametrize("place", [1, 5, -1], ids=["outer", "middle", "inner"])
@pytest.mark.parametrize("path", ["/", "/api/v1/me/"], ids=["page", "api"])
def test_a_middleware_anywhere_that_finds_no_connection_is_503(
    alice: User, debug: bool, settings: Any, place: int, path: str
) -> None:
    middleware = list(settings.MIDDLEWARE)
    middleware.insert(len(middleware) if place == -1 else place, f"{__name__}.RaisingMiddleware")
    settings.MIDDLEWARE = middleware
    answer = signed_in(alice).get(path)
    (assert_busy_api if path.startswith("/api/") else assert_busy_page)(answer)


@pytest.mark.parametrize("path", ["/", "/api/v1/me/"], ids=["page", "api"])
def test_the_asgi_handler_answers_503_too(
    alice: User, debug: bool, settings: Any, path: str
) -> None:
    """The service serves ASGI: there Django turns the exception into a 500 in a thread
    of its own, where the request is marked all the same."""
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.RaisingMiddleware"]
    client = AsyncClient(raise_request_exception=False)
    client.cookies = browser(alice).cookies
    answer = async_to_sync(client.get)(path)
    (assert_busy_api if path.startswith("/api/") else assert_busy_page)(answer)


def test_the_outage_middleware_comes_first() -> None:
    from django.conf import settings

    assert settings.MIDDLEWARE[0] == "lib.api_errors.DatabaseUnavailableMiddleware"


@pytest.mark.parametrize("path", ["/", "/api/v1/me/"], ids=["page", "api"])
def test_any_other_error_in_a_middleware_is_still_500(
    alice: User, debug: bool, settings: Any, path: str
) -> None:
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.BrokenMiddleware"]
    answer = signed_in(alice).get(path)
    assert answer.status_code == 500
    assert not answer.has_header("Retry-After")
