"""Worked examples of the games' API for its OpenAPI description: a game as a seat
sees it, a spectator's, moves and messages, and the refusals of a message."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from games.engine import deal, view
from lib.openapi import ErrorExample

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
        "fair_deal": {
            "scheme": 2,
            "commitment": "9f2c…",
            "contributions": [
                {"seat": "A", "value": "5be0…", "by": "player"},
                {"seat": "B", "value": "c41a…", "by": "player"},
            ],
            "server_secret": None,
            "seed": None,
        },
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
