"""Shared pieces of the OpenAPI description: the error shape and worked examples.

Examples are built from the engine, so they are real positions, not made-up JSON.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers

from games.engine import deal, view


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


#: The refusals of a message (games.talk), for the operations that take one.
MESSAGE_ERRORS: dict[int, list[ErrorExample]] = {
    400: [
        ("An empty message", "EMPTY_MESSAGE", {"message": "the message is empty"}),
        (
            "A message too long",
            "MESSAGE_TOO_LONG",
            {
                "message": "a message holds at most 500 characters (this one has 612)",
                "limit": 500,
            },
        ),
    ],
    429: [
        (
            "Too many messages",
            "TOO_MANY_MESSAGES",
            {"message": "at most 5 messages a minute at a game: wait a little"},
        )
    ],
}


def _game_example() -> dict[str, Any]:
    position = deal(20261122)
    seat = position.to_move
    return {
        "id": 42,
        "version": 7,
        "rules": "pagat",
        "rule_options": {},
        "stop_mode": "referee",
        "wrong_calls": {"A": 0, "B": 0},
        "players": {"A": "alice", "B": "bob"},
        "public": True,
        "seat": "AB"[seat],
        "status": "playing",
        "to_move": "AB"[seat],
        "your_turn": True,
        "deadline": "2026-11-25T18:00:00Z",
        "match": None,
        "stalemate_offer": None,
        "clock": {
            "control": "per_turn",
            "days_per_turn": 3,
            "bank_initial_days": 7,
            "bank_increment_days": 1,
            "bank_cap_days": 14,
            "weekend_pause": False,
            "bank_seconds": None,
        },
        "position": view(position, seat),
        "legal_moves": sorted(str(m) for m in position.legal_moves()),
        "last_turn": {"seat": None, "moves": [], "stopped": None, "correction": None},
        "current_turn": [],
        "can_call_stop": False,
        "ply": 0,
        "seed_hash": "9f2c…",
        "seed": None,
    }


GAME = OpenApiExample("A game, from the seat to move", value=_game_example(), response_only=True)


def _spectated_example() -> dict[str, Any]:
    """The same game from the spectator's seat: only what lies face up for everyone."""
    return {
        **_game_example(),
        "seat": None,
        "your_turn": False,
        "position": view(deal(20261122), None),
        "legal_moves": [],
    }


SPECTATED = OpenApiExample(
    "A public game, from a spectator's seat", value=_spectated_example(), response_only=True
)
#: A message at a game, as the API and the events give it (games.talk.as_data).
MESSAGE = OpenApiExample(
    "A message",
    value={
        "id": 812,
        "seat": "B",
        "author": "bob",
        "text": "Nice reserve play! I'm away until Monday.",
        "ply": 57,
        "created_at": "2026-11-25T09:14:03.120000+00:00",
    },
    response_only=True,
)
MOVES = OpenApiExample(
    "A whole turn",
    value={"moves": ["H3-F1", "R-H3", "T", "C-W"], "expected_version": 7},
    request_only=True,
)
ONE_MOVE = OpenApiExample("One move", value={"moves": ["T"]}, request_only=True)
NO_BODY = OpenApiExample("No body needed", value={}, request_only=True)


def closed_request_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every request body refuses a field it does not name (``RequestBody``): the
    schema says so with ``additionalProperties: false``. A challenge names exactly one
    of: a player, an e-mail address, or ``open: true``; a report, a message or a
    player."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, component in schemas.items():
        if name.endswith("Request") and component.get("type") == "object":
            component["additionalProperties"] = False
            for prop in component.get("properties", {}).values():
                if prop.get("type") == "string" and not {"pattern", "enum", "format"} & set(prop):
                    prop["pattern"] = NO_NUL  # DRF refuses a null character in a string
    report = schemas.get("ReportRequest")
    if report is not None:
        report["oneOf"] = [
            {"required": ["message"], "not": {"required": ["player"]}},
            {"required": ["player"], "not": {"required": ["message"]}},
        ]
    challenge = schemas.get("ChallengeRequest")
    if challenge is not None:
        _challenge_rules(challenge)
        for path in result.get("paths", {}).values():
            body = path.get("post", {}).get("requestBody", {})
            ref = body.get("content", {}).get("application/json", {}).get("schema", {})
            if ref.get("$ref", "").endswith("/ChallengeRequest"):
                body["required"] = True  # naming who may accept needs a body
        challenge["oneOf"] = [
            {"required": ["opponent"], "not": {"anyOf": [*_OTHER("opponent"), *_RANGE]}},
            {"required": ["email"], "not": {"anyOf": [*_OTHER("email"), *_RANGE]}},
            {"required": ["open"], "properties": {"open": {"enum": [True]}},
             "not": {"anyOf": _OTHER("open")}},
        ]  # fmt: skip
    return result


#: A string without a null character (which no text column can hold).
NO_NUL = "^[^\x00]*$"

#: A rating range, which only an open challenge may have.
_RANGE: list[dict[str, Any]] = [
    {"required": [name], "properties": {name: {"type": "integer"}}}
    for name in ("min_rating", "max_rating")
]


def _OTHER(chosen: str) -> list[dict[str, Any]]:
    """The ways of naming who may accept, other than ``chosen``."""
    others: list[dict[str, Any]] = [
        {"required": ["opponent"]},
        {"required": ["email"]},
        {"required": ["open"], "properties": {"open": {"enum": [True]}}},
    ]
    return [
        o for o, name in zip(others, ("opponent", "email", "open"), strict=True) if name != chosen
    ]


def _challenge_rules(challenge: dict[str, Any]) -> None:
    """What the engine declares, in the challenge's schema: each rule option with the
    values it takes, and who a three-player preset (G3) names: both opponents, or open
    (never an e-mail address); a two-player preset names no second opponent."""
    from games.engine import PRESETS
    from games.lobby import rules_catalog

    challenge["properties"]["options"] = {
        "type": "object",
        "additionalProperties": False,
        "description": challenge["properties"]["options"].get("description", ""),
        "properties": {
            option.name: {"enum": list(option.values), "description": option.description}
            for option in rules_catalog.options()
        },
    }
    three = sorted(name for name, rules in PRESETS.items() if rules.seats == 3)
    challenge["anyOf"] = [
        {
            "required": ["rules"],
            "properties": {"rules": {"enum": three}},
            "not": {"required": ["email"]},
            "anyOf": [
                {"required": ["opponent", "second_opponent"]},
                {"not": {"anyOf": [{"required": ["opponent"]}, {"required": ["second_opponent"]}]}},
            ],
        },
        {
            "properties": {"rules": {"not": {"enum": three}}},
            "not": {"required": ["second_opponent"]},
        },
    ]
