"""What the games' request bodies say beyond their serializers, in the OpenAPI
description: who a challenge names, the rule options it takes, what a report is about."""

from __future__ import annotations

from typing import Any

from games.engine import PRESETS
from games.lobby import rules_catalog

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


def game_request_bodies(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A challenge names exactly one of: a player, an e-mail address, or ``open:
    true``, with the rules and options the engine declares; a report, a message or a
    player (drf-spectacular's postprocessing hook, after ``lib.openapi``'s)."""
    schemas = result.get("components", {}).get("schemas", {})
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
