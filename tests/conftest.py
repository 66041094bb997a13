"""What every test shares: a cache that holds nothing from an earlier test, and English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils import translation


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
