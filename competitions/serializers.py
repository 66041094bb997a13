"""The competitions' API as its OpenAPI schema describes it: the request and answer
serializers, their worked examples, and what a competition's body says beyond its
serializer (drf-spectacular's postprocessing hook, ``competition_request_body``)."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from games.clocks import DAYS_PER_TURN
from games.engine import PRESETS
from games.lobby import rules_catalog
from games.lobby.challenges import MATCH_TARGET, RATING
from games.models import StopMode
from lib import fields
from lib.serializers import RequestBody

from .models import Competition, Format
from .services.entering import (
    DESCRIPTION_LENGTH,
    DIVISION_SIZE,
    NAME_LENGTH,
    PLAYERS,
    PROMOTED,
    REACH,
    SWISS_ROUNDS,
)

STATUSES = [s.value for s in Competition.Status]
#: The presets a competition may be played with: the two-player ones.
TWO_PLAYER_PRESETS = sorted(name for name, rules in PRESETS.items() if rules.seats == 2)
#: A name: some text that is not only spaces, without a null character.
NAME = RegexValidator(r"^[^\x00]*[^\s\x00][^\x00]*$")
NO_NUL = RegexValidator(r"^[^\x00]*$")


class CompetitionInSerializer(RequestBody):
    name = fields.CharField(max_length=NAME_LENGTH, min_length=1, validators=[NAME])
    format = serializers.ChoiceField(choices=Format.values)
    description = fields.CharField(
        required=False, default="", allow_blank=True, max_length=DESCRIPTION_LENGTH
    )
    rules = serializers.ChoiceField(
        choices=TWO_PLAYER_PRESETS,
        required=False,
        default="pagat",
        help_text="A two-player preset (GET /api/v1/rules/)",
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="Options changed from the preset (GET /api/v1/rules/)",
    )
    stop_mode = serializers.ChoiceField(
        choices=StopMode.values, required=False, default=StopMode.REFEREE
    )
    time_control = serializers.ChoiceField(
        choices=["per_turn", "bank"], required=False, default="per_turn"
    )
    days_per_turn = fields.IntegerField(required=False, default=3, **DAYS_PER_TURN.field())
    rated = fields.BooleanField(required=False, default=True)
    min_rating = fields.IntegerField(required=False, allow_null=True, **RATING.field())
    max_rating = fields.IntegerField(required=False, allow_null=True, **RATING.field())
    starts_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="When it starts; absent or null: as soon as it is full",
    )
    max_players = fields.IntegerField(required=False, default=16, **PLAYERS.field())
    min_players = fields.IntegerField(required=False, default=2, **PLAYERS.field())
    public = fields.BooleanField(
        required=False,
        default=True,
        help_text="false: the invited players and the link's holders only",
    )
    invited = serializers.ListField(
        child=fields.CharField(max_length=150, validators=[NO_NUL]),
        required=False,
        default=list,
        max_length=200,
        help_text="Usernames invited to a private competition",
    )
    double = fields.BooleanField(
        required=False, default=False, help_text="Round robin, league: each pair meets twice"
    )
    rounds = fields.IntegerField(
        required=False, **SWISS_ROUNDS.field(), help_text="Swiss (and only Swiss): its rounds"
    )
    match_target = fields.IntegerField(
        required=False,
        **MATCH_TARGET.field(),
        help_text="Knockout: each tie a match to this many points",
    )
    division_size = fields.IntegerField(required=False, default=8, **DIVISION_SIZE.field())
    promoted = fields.IntegerField(required=False, default=2, **PROMOTED.field())
    reach = fields.IntegerField(required=False, default=3, **REACH.field())


class CompetitionSerializer(serializers.Serializer[dict[str, Any]]):
    id = fields.IntegerField()
    name = fields.CharField()
    description = fields.CharField(allow_blank=True)
    format = serializers.ChoiceField(choices=Format.values)
    status = serializers.ChoiceField(choices=STATUSES)
    rules = fields.CharField()
    options = serializers.DictField()
    stop_mode = serializers.ChoiceField(choices=StopMode.values)
    time_control = serializers.ChoiceField(choices=["per_turn", "bank"])
    days_per_turn = fields.IntegerField()
    rated = fields.BooleanField()
    min_rating = fields.IntegerField(allow_null=True)
    max_rating = fields.IntegerField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    max_players = fields.IntegerField()
    min_players = fields.IntegerField()
    players = fields.IntegerField(help_text="Entered and not withdrawn")
    public = fields.BooleanField()
    creator = fields.CharField(allow_null=True)
    double = fields.BooleanField()
    rounds = fields.IntegerField(allow_null=True)
    match_target = fields.IntegerField(allow_null=True)
    division_size = fields.IntegerField()
    promoted = fields.IntegerField()
    reach = fields.IntegerField()
    current_round = fields.IntegerField(help_text="The round (a league: the season) under way")
    entered = fields.BooleanField(help_text="Whether you have entered it (and not withdrawn)")


class CompetitionEntrySerializer(serializers.Serializer[dict[str, Any]]):
    competition = fields.IntegerField()
    player = fields.CharField()
    rating = fields.IntegerField(
        help_text="Your rating in its family, as at entry (at the start once started)"
    )
    withdrawn = fields.BooleanField()


class CompetitionStandingSerializer(serializers.Serializer[dict[str, Any]]):
    rank = fields.IntegerField()
    player = fields.CharField(help_text="The name entered (a deleted account's stays)")
    points = serializers.FloatField()
    played = fields.IntegerField()
    wins = fields.IntegerField()
    tiebreaks = serializers.DictField(
        child=serializers.FloatField(), help_text="By name, in the order they break ties"
    )
    withdrawn = fields.BooleanField()
    division = fields.IntegerField(allow_null=True, help_text="A league's division (1 at the top)")


class CompetitionPairingSerializer(serializers.Serializer[dict[str, Any]]):
    round = fields.IntegerField()
    division = fields.IntegerField(allow_null=True)
    seat_a = fields.CharField()
    seat_b = fields.CharField(allow_null=True, help_text="null: a bye")
    bye = fields.BooleanField()
    game = fields.IntegerField(allow_null=True)
    match = fields.IntegerField(allow_null=True)
    points_a = serializers.FloatField(allow_null=True, help_text="null while it is played")
    points_b = serializers.FloatField(allow_null=True)
    forfeit = fields.BooleanField()


class CompetitionEnterSerializer(RequestBody):
    computer = serializers.ChoiceField(
        choices=["easy", "medium", "strong"],
        required=False,
        help_text="Its maker enters a computer player of this level instead of themselves",
    )
    token = fields.CharField(
        required=False, max_length=64, help_text="A private competition's link token"
    )


class LadderChallengeSerializer(RequestBody):
    opponent = fields.CharField(max_length=150, help_text="A player up to `reach` places above you")


EXAMPLE = {
    "id": 7,
    "name": "Autumn Swiss",
    "description": "Five rounds, three days a turn.",
    "format": "swiss",
    "status": "open",
    "rules": "pagat",
    "options": {},
    "stop_mode": "referee",
    "time_control": "per_turn",
    "days_per_turn": 3,
    "rated": True,
    "min_rating": None,
    "max_rating": None,
    "starts_at": "2026-12-01T09:00:00Z",
    "started_at": None,
    "finished_at": None,
    "max_players": 32,
    "min_players": 4,
    "players": 11,
    "public": True,
    "creator": "alice",
    "double": False,
    "rounds": 5,
    "match_target": None,
    "division_size": 8,
    "promoted": 2,
    "reach": 3,
    "current_round": 0,
    "entered": False,
}


ENTRY_EXAMPLE = OpenApiExample(
    "Entered",
    value={"competition": 7, "player": "alice", "rating": 1612, "withdrawn": False},
    response_only=True,
)
STANDING_EXAMPLE = OpenApiExample(
    "A line of the standings",
    value={
        "rank": 1,
        "player": "alice",
        "points": 3.5,
        "played": 4,
        "wins": 3,
        "tiebreaks": {"buchholz": 9.0, "sonneborn_berger": 7.25, "direct": 0.0, "count": 412},
        "withdrawn": False,
        "division": None,
    },
    response_only=True,
)
PAIRING_EXAMPLE = OpenApiExample(
    "A pairing",
    value={
        "round": 2,
        "division": None,
        "seat_a": "alice",
        "seat_b": "bob",
        "bye": False,
        "game": 42,
        "match": None,
        "points_a": 1.0,
        "points_b": 0.0,
        "forfeit": False,
    },
    response_only=True,
)


def competition_request_body(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """What a competition's body says beyond its serializer (drf-spectacular's
    postprocessing hook): the rule options the engine declares, a Swiss's rounds,
    a knockout's match target only for a knockout."""
    schemas = result.get("components", {}).get("schemas", {})
    body = schemas.get("CompetitionInRequest")
    if body is None:
        return result
    body["properties"]["options"] = {
        "type": "object",
        "additionalProperties": False,
        "description": body["properties"]["options"].get("description", ""),
        "properties": {
            option.name: {"enum": list(option.values), "description": option.description}
            for option in rules_catalog.options()
        },
    }
    body["allOf"] = [
        {
            "anyOf": [
                {"properties": {"format": {"enum": ["swiss"]}}, "required": ["rounds"]},
                {
                    "properties": {"format": {"not": {"enum": ["swiss"]}}},
                    "not": {"required": ["rounds"]},
                },
            ]
        },
        {
            "anyOf": [
                {"properties": {"format": {"enum": ["knockout"]}}},
                {"not": {"required": ["match_target"]}},
            ]
        },
    ]
    return result
