"""What every test shares: a cache that holds nothing from an earlier test, English, and
every event written checked against its kind's schema. Also the ``postgres`` marker,
given at collection to the tests the second pass of .ci/run repeats on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils import translation

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
#: The fixtures that give a test the database (pytest-django's, and live_server's).
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
    }
)


def uses_the_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


@pytest.hookimpl(tryfirst=True)  # before -m selects by it
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``postgres``: what depends on the database (and the cache and broker, which the
    same settings switch to Redis) runs again on PostgreSQL and Redis in .ci/run's second
    pass; the engine, the documents and the checks of files run once. The browser tests
    drive the same pages the service tests call: only those marked by hand run again."""
    for item in items:
        if uses_the_database(item) and not item.path.is_relative_to(BROWSER_TESTS):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    # In one process's memory, a game id that an earlier test's rolled-back game used
    # must find no version or players of that game. A shared Redis is never flushed (the
    # other workers use it): there the settings give each test process its own prefix.
    backend = caches["default"]
    if isinstance(backend, LocMemCache):
        backend.clear()
    yield


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Each test starts in English: a request in another language leaves that language
    active in its thread (Django activates one per request and never goes back)."""
    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def events_match_their_schemas() -> Iterator[None]:
    """Every event a test writes, in this process, is checked against its kind's JSON
    Schema (docs/api-events.md): a test that writes one that departs from it fails."""
    from games.feed.events import event_recorded
    from tests.event_schemas import problems

    found: list[str] = []

    def check(sender: object, events: list[Any], **kwargs: object) -> None:
        for row in events:
            found.extend(problems(row.as_json()))

    event_recorded.connect(check, weak=False, dispatch_uid="tests.events_match_their_schemas")
    try:
        yield
    finally:
        event_recorded.disconnect(dispatch_uid="tests.events_match_their_schemas")
    assert not found, "events that depart from their schema (games/feed/schemas.py):\n" + (
        "\n".join(found)
    )
