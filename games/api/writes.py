"""One mechanism for every write of the API: ``If-Match`` and ``Idempotency-Key``.

``@write`` wraps a view's POST, PATCH or DELETE:

- ``If-Match: "7"`` (as the game's ``ETag``; ``W/"7"`` and ``7`` too; ``*`` or none:
  no check) is read once, into ``expected_version(request)``; a game write passes it
  to its service, which refuses a stale version (412 ``STALE_VERSION``). Writes that
  are not about a game take no version: for them ``If-Match`` is ignored.
- ``Idempotency-Key`` (at most 128 characters, per user): the first request with a key
  runs, and its answer is stored with the write, in the same transaction; a retry with
  the same key and the same request gets the stored answer again (header
  ``Idempotent-Replayed: true``) and changes nothing; the same key for another request
  is refused (409 ``IDEMPOTENCY_KEY_REUSED``). Two copies that race: the second waits
  for the first's row locks, and when its key is found taken, everything it did is
  rolled back and it answers the first's answer. A refused request stores nothing: a
  retry is tried again.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from games.models import IdempotentRequest
from lib.api import player_of
from lib.errors import ServiceError

View = TypeVar("View", bound=Callable[..., Response])

#: A game's ETag as a client sends it back: "7", W/"7" or 7.
IF_MATCH = re.compile(r'(W/)?"?[0-9]{1,12}"?')

#: The two headers, for the schema of every write operation.
HEADERS = [
    OpenApiParameter(
        "If-Match",
        {"type": "string", "pattern": r'^(\*|(W/)?"?[0-9]{1,12}"?)$'},
        OpenApiParameter.HEADER,
        required=False,
        description='The game version the client last saw (its ETag, e.g. "7"): a game '
        "that has moved on since refuses the write (412 STALE_VERSION). Game writes only.",
    ),
    OpenApiParameter(
        "Idempotency-Key",
        {"type": "string", "minLength": 1, "maxLength": 128, "pattern": r"\S"},
        OpenApiParameter.HEADER,
        required=False,
        description="A unique string (at most 128 characters) per write: a retry with the "
        "same key gets the first answer and changes nothing.",
    ),
]


def expected_version(request: Request, body: dict[str, Any] | None = None) -> int | None:
    """The game version a write expects: ``expected_version`` in the body, else
    ``If-Match``; None: no check."""
    if body is not None and body.get("expected_version") is not None:
        return int(body["expected_version"])
    if "If-Match" not in request.headers:
        return None
    header = request.headers["If-Match"].strip()
    if header == "*":
        return None
    if not IF_MATCH.fullmatch(header):
        raise ServiceError(400, "BAD_REQUEST", _('If-Match must hold a game version, as "7"'))
    return int(header.removeprefix("W/").strip('"'))


def _key(request: Request) -> str | None:
    if "Idempotency-Key" not in request.headers:
        return None
    key = request.headers["Idempotency-Key"].strip()
    if not 1 <= len(key) <= 128:
        raise ServiceError(400, "BAD_REQUEST", _("Idempotency-Key holds 1 to 128 characters"))
    return key


def _fingerprint(request: Request, kwargs: dict[str, Any]) -> str:
    what = [request.method, request.path, kwargs, request.data]
    return hashlib.sha256(json.dumps(what, sort_keys=True, default=str).encode()).hexdigest()


def _replay(earlier: IdempotentRequest, fingerprint: str) -> Response:
    if earlier.response.get("fingerprint") != fingerprint:
        raise ServiceError(
            409, "IDEMPOTENCY_KEY_REUSED", _("this Idempotency-Key was used for another request")
        )
    headers = {"Idempotent-Replayed": "true", **earlier.response.get("headers", {})}
    return Response(earlier.response.get("body"), status=earlier.status_code, headers=headers)


def write(view: View) -> View:
    """The API's write operations: see the module's docstring."""

    @wraps(view)
    def run(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        expected_version(request)  # a malformed If-Match is a 400, on every write
        key = _key(request)
        if key is None:
            return view(self, request, *args, **kwargs)
        user = player_of(request)
        fingerprint = _fingerprint(request, kwargs)
        earlier = IdempotentRequest.objects.filter(user=user, key=key).first()
        if earlier is not None:
            return _replay(earlier, fingerprint)
        try:
            with transaction.atomic():
                response = view(self, request, *args, **kwargs)
                if response.status_code < 400:
                    IdempotentRequest.objects.create(
                        user=user,
                        key=key,
                        game_id=kwargs.get("game_id"),
                        status_code=response.status_code,
                        response={
                            "fingerprint": fingerprint,
                            "body": response.data,
                            "headers": {k: v for k, v in response.items() if k == "ETag"},
                        },
                    )
        except IntegrityError:
            # The same key committed meanwhile: what this copy did is undone.
            earlier = IdempotentRequest.objects.filter(user=user, key=key).first()
            if earlier is None:
                raise
            return _replay(earlier, fingerprint)
        return response

    return run  # type: ignore[return-value]
