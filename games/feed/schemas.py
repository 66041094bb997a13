"""What each kind of event holds, as a JSON Schema (draft 2020-12) per kind: the one
description of the events' fields. docs/api-events.md lists the same fields in words
(its table is checked against these schemas by the tests), and the tests validate
every event the suite writes, as a client reads it, against its kind's schema.

Every event has ``id``, ``kind`` and ``at``; an event about a game has ``game`` and
``version`` (the game's version once the action was done); one about a challenge has
``challenge``. Every object is closed: a field no schema names is a defect.
"""

from __future__ import annotations

from typing import Any

from games.engine import (
    BY_AGREEMENT,
    BY_CARDS,
    BY_RESIGNATION,
    BY_STALEMATE,
    BY_TIMEOUT,
    BY_TURN_LIMIT,
)

Schema = dict[str, Any]


def closed(properties: Schema, optional: frozenset[str] = frozenset()) -> Schema:
    """An object with exactly ``properties``: each one there (but the ``optional``
    ones), and none other."""
    return {
        "type": "object",
        "properties": properties,
        "required": sorted(set(properties) - optional),
        "additionalProperties": False,
    }


ID: Schema = {"type": "integer", "minimum": 1}
TIME: Schema = {"type": "string", "format": "date-time"}
SEAT: Schema = {"type": "string", "pattern": "^[A-C]$"}
USERNAME: Schema = {"type": "string", "minLength": 1}
#: A move in the notation (docs/notation.md), as the API writes it.
MOVE: Schema = {"type": "string", "pattern": "^[A-Za-z0-9]{1,7}(-[A-Za-z0-9]{1,7})?$"}
MOVES: Schema = {"type": "array", "items": MOVE}
BY_SEAT: Schema = {"type": "object", "propertyNames": SEAT}
ENDINGS = [BY_CARDS, BY_STALEMATE, BY_TURN_LIMIT, BY_AGREEMENT, BY_RESIGNATION, BY_TIMEOUT]

#: A message at a game, as ``GET /games/{id}/messages/`` lists it (``talk.as_data``).
MESSAGE: Schema = closed(
    {
        "id": ID,
        "seat": SEAT,
        "author": {"type": "string"},
        "text": {"type": "string", "minLength": 1},
        "ply": {"type": "integer", "minimum": 0},
        "created_at": TIME,
    }
)

ENVELOPE: Schema = {"id": ID, "kind": {"type": "string"}, "at": TIME}
ABOUT_GAME: Schema = {"game": ID, "version": {"type": "integer", "minimum": 1}}
ABOUT_CHALLENGE: Schema = {"challenge": ID}
#: A competition's events (the competitions app): its id and name.
ABOUT_COMPETITION: Schema = {"competition": ID, "name": {"type": "string", "minLength": 1}}

#: Each kind's own fields, besides the envelope and what it is about.
FIELDS: dict[str, tuple[Schema, Schema]] = {
    "challenge": (
        ABOUT_CHALLENGE,
        {
            "by": USERNAME,
            "rules": {"type": "string"},
            "rated": {"type": "boolean"},
            "match_target": {"type": ["integer", "null"]},
        },
    ),
    "challenge_answered": (
        ABOUT_CHALLENGE,
        {
            "accepted": {"type": "boolean"},
            "by": USERNAME,
            # The game and its version, once it is dealt (not while a three-player
            # challenge waits for its third player, nor when declined).
            **ABOUT_GAME,
        },
    ),
    "challenge_cancelled": (ABOUT_CHALLENGE, {"by": USERNAME}),
    "game_started": (
        ABOUT_GAME,
        {
            "players": {**BY_SEAT, "additionalProperties": USERNAME},
            "rules": {"type": "string"},
            "rated": {"type": "boolean"},
            "match": {"type": ["integer", "null"]},
        },
    ),
    "your_turn": (
        ABOUT_GAME,
        {
            "seat": SEAT,
            "last_turn": MOVES,
            "lost_turn": {"type": "boolean"},
            "deadline": {"type": ["string", "null"], "format": "date-time"},
            "messages": {"type": "array", "items": MESSAGE},
        },
    ),
    "move": (ABOUT_GAME, {"seat": SEAT, "moves": {**MOVES, "minItems": 1}}),
    "stop_called": (
        ABOUT_GAME,
        {
            "by": SEAT,
            "stopped": SEAT,
            "move_number": {"type": "integer", "minimum": 1},
            "move": MOVE,
            "code": {"type": "string", "minLength": 1},
            "correction": {"type": "string"},
        },
    ),
    "stalemate_offered": (ABOUT_GAME, {"by": SEAT}),
    "message": (ABOUT_GAME, {"message": MESSAGE}),
    "game_over": (
        ABOUT_GAME,
        {
            "ending": {"enum": ENDINGS},
            "winner": {"anyOf": [SEAT, {"type": "null"}]},
            "score": {**BY_SEAT, "additionalProperties": {"type": "integer"}},
        },
    ),
    "tournament_started": (
        ABOUT_COMPETITION,
        {
            "format": {"enum": ["round_robin", "swiss", "knockout", "league", "ladder"]},
            "players": {"type": "integer", "minimum": 0},
        },
    ),
    "round_started": (
        ABOUT_COMPETITION,
        {
            "round": {"type": "integer", "minimum": 1},
            "opponent": {"type": ["string", "null"]},
            "bye": {"type": "boolean"},
            # The game dealt, and its version (not for a bye).
            **ABOUT_GAME,
        },
    ),
    "tournament_finished": (
        ABOUT_COMPETITION,
        {
            "place": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
            "points": {"type": ["number", "null"]},
        },
    ),
}

#: Fields of an event that may be absent (every other one is always there): a
#: challenge answered before any game is dealt has no game.
OPTIONAL: dict[str, frozenset[str]] = {
    "challenge_answered": frozenset(ABOUT_GAME),
    "round_started": frozenset(ABOUT_GAME),
}


def schema_of(kind: str) -> Schema:
    """The JSON Schema of ``kind``'s events, as a client reads them."""
    about, own = FIELDS[kind]
    properties = {**ENVELOPE, "kind": {"const": kind}, **about, **own}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": kind,
        **closed(properties, OPTIONAL.get(kind, frozenset())),
    }


#: Every kind's schema.
SCHEMAS: dict[str, Schema] = {kind: schema_of(kind) for kind in FIELDS}
