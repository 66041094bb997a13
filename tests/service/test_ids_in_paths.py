"""An id too long for any row is an unknown id (404), never a database overflow (500),
on every URL that names one, API and pages alike."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import URLPattern, URLResolver, get_resolver

from .conftest import browser, client_for

pytestmark = pytest.mark.django_db

HUGE = "9" * 25


def routes(patterns: list[URLPattern | URLResolver] | None = None, prefix: str = "") -> list[str]:
    """Every route of the URL conf, as its pattern's text."""
    found = []
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        text = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found += routes(entry.url_patterns, text)
        else:
            found.append(text)
    return found


def with_ids() -> list[str]:
    return [route for route in routes() if "<id:" in route or "<int:" in route]


def test_every_id_in_a_path_is_bounded() -> None:
    assert with_ids(), "the URL conf names ids"
    assert not [route for route in routes() if "<int:" in route]


@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_it_answers_404_for_an_id_no_row_can_have(alice: User, method: str) -> None:
    for route in with_ids():
        path = "/" + re.sub(r"<(id|int):\w+>", HUGE, route).replace("\\Z", "").lstrip("^")
        path = re.sub(r"<(str|slug):\w+>", "x", path)
        client = client_for(alice) if path.startswith("/api/") else browser(alice)
        response = getattr(client, method)(path)
        assert response.status_code in (404, 405), (path, response.status_code)
