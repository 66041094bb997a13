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
                    "expected_version, moves)"
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
    404: (
        "Not yours, or no such thing",
        [("Not yours, or no such thing", "NOT_FOUND", {"message": "no such game"})],
    ),
    409: (
        "Not possible now: out of turn, the game over, already on vacation, too many tokens",
        [
            ("Out of turn", "NOT_YOUR_TURN", {"message": "it is your opponent's turn"}),
            ("On vacation", "ON_VACATION", {"message": "you are already on vacation"}),
            (
                "Too many tokens",
                "TOO_MANY_TOKENS",
                {"message": "at most 20 tokens: revoke one first"},
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
    422: (
        "An Idempotency-Key used before for another request",
        [
            (
                "A key reused",
                "IDEMPOTENCY_KEY_REUSED",
                {"message": "this Idempotency-Key was used for another request"},
            )
        ],
    ),
    429: (
        "Too many requests",
        [("Too many requests", "THROTTLED", {"message": "Request was throttled."})],
    ),
}


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """Error responses for an operation, each with examples of the one error shape.

    Write operations name 400 and 413: any body can be unreadable, hold an unknown
    field, or be too large.
    """
    out = {}
    for status in (*statuses, 401, 429):
        description, examples = _ERRORS[status]
        out[status] = OpenApiResponse(
            ErrorSerializer,
            description=description,
            examples=[
                OpenApiExample(name, value={"error": code, **body}, status_codes=[status])
                for name, code, body in examples
            ],
        )
    return out


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
MOVES = OpenApiExample(
    "A whole turn",
    value={"moves": ["H3-F1", "R-H3", "T", "C-W"], "expected_version": 7},
    request_only=True,
)
ONE_MOVE = OpenApiExample("One move", value={"moves": ["T"]}, request_only=True)
NO_BODY = OpenApiExample("No body needed", value={}, request_only=True)
