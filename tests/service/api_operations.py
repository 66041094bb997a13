"""Every operation of the API, read from the URL conf, so a test can walk them all."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver

API_PREFIX = "api/v1/"
WRITE_METHODS = ("post", "put", "patch")


@dataclass(frozen=True)
class Operation:
    method: str  # lower case, as in the OpenAPI schema
    route: str  # "/api/v1/games/{game_id}/moves/", as in the OpenAPI schema

    def url(self, **ids: int | str) -> str:
        """The route with its parameters filled in (a player's page: alice's)."""
        return self.route.format(**{"username": "alice", **ids})

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.route}"


def _routes(
    patterns: list[URLPattern | URLResolver], prefix: str = ""
) -> Iterator[tuple[str, type]]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif hasattr(pattern.callback, "cls"):  # a DRF view
            yield route, pattern.callback.cls


def api_operations(methods: tuple[str, ...] = (*WRITE_METHODS, "get", "delete")) -> set[Operation]:
    """The operations the URL conf serves under /api/v1/ (the schema and docs views aside)."""
    found = set()
    for route, view in _routes(get_resolver().url_patterns):
        if not route.startswith(API_PREFIX) or route.startswith(
            (f"{API_PREFIX}schema/", f"{API_PREFIX}docs/")
        ):
            continue
        path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
        found |= {Operation(method, path) for method in methods if hasattr(view, method)}
    return found


def write_operations() -> list[Operation]:
    """Every POST, PUT and PATCH of the API, in a stable order."""
    return sorted(api_operations(WRITE_METHODS), key=str)
