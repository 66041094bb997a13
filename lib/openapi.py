"""Shared pieces of the OpenAPI description: the error shape and worked examples.

Examples are built from the engine, so they are real positions, not made-up JSON.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer[dict[str, Any]]):
    error = serializers.CharField(help_text="A code: S1-S5 and the other RULES.md codes, or HTTP")
    message = serializers.CharField(help_text="What went wrong, in words")
    move = serializers.CharField(required=False, help_text="The refused move, for moves")
    index = serializers.IntegerField(required=False, help_text="Its place in the list sent")


_ERRORS: dict[int, tuple[str, list[tuple[str, str, dict[str, Any]]]]] = {
    400: (
        "A refused move, or a body that cannot be read",
        [
            (
                "A refused move",
                "S4",
                {
                    "message": "the 7♣ cannot go on the 8♠: houses are built down in "
                    "alternating colours",
                    "move": "H2-H7",
                    "index": 0,
                },
            ),
            (
                "An unknown field",
                "BAD_REQUEST",
                {
                    "message": "expected_verison: unknown field (this operation takes: "
                    "expected_version, message, moves)"
                },
            ),
            (
                "Not JSON",
                "MALFORMED_JSON",
                {"message": "JSON parse error - Expecting value: line 1 column 1 (char 0)"},
            ),
        ],
    ),
    401: (
        "Not signed in",
        [("Not signed in", "NOT_AUTHENTICATED", {"message": "invalid or revoked token"})],
    ),
    403: (
        "The player takes no challenge from you (their setting, whatever its reason), or "
        "the invited address asked never to be invited",
        [
            (
                "Not taking challenges",
                "NOT_ACCEPTING_CHALLENGES",
                {
                    "message": "bob does not take challenges from you: an open challenge "
                    "may find them",
                    "player": "bob",
                },
            ),
            (
                "Not taking invitations",
                "NOT_ACCEPTING_INVITATIONS",
                {
                    "message": "dora@example.com asked never to be invited here again: they "
                    "may sign up and challenge you themselves",
                    "player": "dora@example.com",
                },
            ),
        ],
    ),
    404: (
        "Not yours, or no such thing",
        [("Not yours, or no such thing", "NOT_FOUND", {"message": "no such game"})],
    ),
    409: (
        "Not possible now: a move the rules refuse here, out of turn, the game over, a key "
        "used for another request, already on vacation, too many tokens or webhooks, a "
        "webhook's host that is not public",
        [
            ("Out of turn", "NOT_YOUR_TURN", {"message": "it is your opponent's turn"}),
            ("On vacation", "ON_VACATION", {"message": "you are already on vacation"}),
            (
                "A key reused",
                "IDEMPOTENCY_KEY_REUSED",
                {"message": "this Idempotency-Key was used for another request"},
            ),
            (
                "Too many tokens",
                "TOO_MANY_TOKENS",
                {"message": "at most 20 tokens: revoke one first"},
            ),
            (
                "A webhook's host refused",
                "URL_REFUSED",
                {
                    "message": "url: intranet.example.com resolves to 10.0.0.7, which is not "
                    "a public address: webhooks are delivered to the public internet only"
                },
            ),
        ],
    ),
    412: (
        "A stale version",
        [
            (
                "A stale version",
                "STALE_VERSION",
                {
                    "message": "the game has changed (version 8, you sent 7): reload it and "
                    "try again",
                    "version": 8,
                },
            )
        ],
    ),
    413: (
        "A body over the size limit",
        [
            (
                "Too large",
                "TOO_LARGE",
                {
                    "message": "the request body is too large: at most "
                    f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes"
                },
            )
        ],
    ),
    429: (
        "Too many requests",
        [("Too many requests", "THROTTLED", {"message": "Request was throttled."})],
    ),
}


#: An error's example: its name, its code and the rest of its body.
ErrorExample = tuple[str, str, dict[str, Any]]


def errors(
    *statuses: int, more: dict[int, list[ErrorExample]] | None = None
) -> dict[int, OpenApiResponse]:
    """Error responses for an operation, each with examples of the one error shape;
    ``more``: the operation's own examples, first, beside the shared ones.

    Write operations name 400 and 413: any body can be unreadable, hold an unknown
    field, or be too large.
    """
    out = {}
    for status in (*statuses, 401, 429):
        description, examples = _ERRORS[status]
        own = (more or {}).get(status, [])
        out[status] = OpenApiResponse(
            ErrorSerializer,
            description=description,
            examples=[
                OpenApiExample(name, value={"error": code, **body}, status_codes=[status])
                for name, code, body in [*own, *examples]
            ],
        )
    return out


NO_BODY = OpenApiExample("No body needed", value={}, request_only=True)


def closed_request_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every request body refuses a field it does not name (``RequestBody``): the
    schema says so with ``additionalProperties: false``."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, component in schemas.items():
        if name.endswith("Request") and component.get("type") == "object":
            component["additionalProperties"] = False
            for prop in component.get("properties", {}).values():
                if prop.get("type") == "string" and not {"pattern", "enum", "format"} & set(prop):
                    prop["pattern"] = NO_NUL  # DRF refuses a null character in a string
    return result


#: A string without a null character (which no text column can hold).
NO_NUL = "^[^\x00]*$"
