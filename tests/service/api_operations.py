"""Every operation of the API, read from the URL conf, so a test can walk them all."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator

API_PREFIX = "api/v1/"
WRITE_METHODS = ("post", "put", "patch", "delete")


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
) -> Iterator[tuple[str, Any]]:
    """Every route of the URL conf with its view: a DRF view's class, else the function."""
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        else:
            yield route, getattr(pattern.callback, "cls", pattern.callback)


def _path(route: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def api_paths() -> list[str]:
    """Every path under /api/v1/, whatever serves it (a DRF view or a plain Django one,
    as the event stream is), in the OpenAPI schema's form."""
    return sorted(
        {
            _path(route)
            for route, _view in _routes(get_resolver().url_patterns)
            if route.startswith(API_PREFIX)
        }
    )


def api_operations(methods: tuple[str, ...] = (*WRITE_METHODS, "get")) -> set[Operation]:
    """The operations the URL conf serves under /api/v1/ (the schema and docs views aside)."""
    found = set()
    for route, view in _routes(get_resolver().url_patterns):
        if not isinstance(view, type) or not route.startswith(API_PREFIX):  # DRF's only
            continue
        if route.startswith((f"{API_PREFIX}schema/", f"{API_PREFIX}docs/")):
            continue
        found |= {Operation(method, _path(route)) for method in methods if hasattr(view, method)}
    return found


def write_operations() -> list[Operation]:
    """Every POST, PUT, PATCH and DELETE the URL conf serves, in a stable order."""
    return sorted(api_operations(WRITE_METHODS), key=str)


def schema_write_operations() -> list[Operation]:
    """Every POST, PUT, PATCH and DELETE the OpenAPI schema lists, in a stable order."""
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    return sorted(
        {
            Operation(method, path)
            for path, item in schema["paths"].items()
            for method in item
            if method in WRITE_METHODS
        },
        key=str,
    )
