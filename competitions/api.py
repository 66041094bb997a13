"""REST API of competitions, under ``/api/v1/competitions/`` (docs/competitions.md):
listed, made, read, entered, withdrawn from, their standings and pairings, and a
ladder's challenges. Reading needs no sign-in for a public competition."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.validators import RegexValidator
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.clocks import DAYS_PER_TURN, TimeControl
from games.engine import PRESETS
from games.lobby import rules_catalog
from games.lobby.challenges import MATCH_TARGET, RATING
from games.models import StopMode
from lib import fields
from lib.api import player_of
from lib.errors import ServiceError
from lib.openapi import NO_BODY, errors
from lib.pagination import ListApi
from lib.serializers import NoBody, RequestBody

from .models import Competition, Entry, Format, Pairing
from .services import entering, ladder, standings, views
from .services.entering import (
    DESCRIPTION_LENGTH,
    DIVISION_SIZE,
    NAME_LENGTH,
    PLAYERS,
    PROMOTED,
    REACH,
    SWISS_ROUNDS,
    Terms,
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


def _out(competition: Competition, user: User | None) -> dict[str, Any]:
    active = competition.entries.filter(withdrawn_at__isnull=True)
    return CompetitionSerializer(
        {
            **{
                name: getattr(competition, name)
                for name in (
                    "id",
                    "name",
                    "description",
                    "format",
                    "status",
                    "rules",
                    "stop_mode",
                    "time_control",
                    "days_per_turn",
                    "rated",
                    "min_rating",
                    "max_rating",
                    "starts_at",
                    "started_at",
                    "finished_at",
                    "max_players",
                    "min_players",
                    "public",
                    "double",
                    "rounds",
                    "match_target",
                    "division_size",
                    "promoted",
                    "reach",
                    "current_round",
                )
            },
            "options": competition.rule_options,
            "players": getattr(competition, "players", None) or active.count(),
            "creator": competition.creator.get_username() if competition.creator else None,
            "entered": user is not None and active.filter(player=user).exists(),
        }
    ).data


def _viewer(request: Request) -> User | None:
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None


def _token(request: Request) -> str | None:
    return request.query_params.get("token") or None


TOKEN = OpenApiParameter(
    "token", str, required=False, description="A private competition's link token"
)


class CompetitionListApi(ListApi):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status", str, required=False, enum=STATUSES, description="Default: all"
            )
        ],
        responses={200: CompetitionSerializer(many=True), **errors(400)},
        examples=[OpenApiExample("A competition", value=EXAMPLE, response_only=True)],
        summary="Competitions: the public ones, and the private ones you are in or made",
    )
    def get(self, request: Request) -> Response:
        found = entering.visible(_viewer(request))
        status = request.query_params.get("status")
        if status is not None:
            if status not in STATUSES:
                raise ServiceError(
                    400,
                    "BAD_REQUEST",
                    _("status must be one of: %(statuses)s") % {"statuses": ", ".join(STATUSES)},
                )
            found = found.filter(status=status)
        user = _viewer(request)
        return self.page(request, views.with_counts(found).order_by("-pk"), lambda c: _out(c, user))

    @extend_schema(
        request=CompetitionInSerializer,
        responses={201: CompetitionSerializer, **errors(400, 404, 409, 413)},
        examples=[
            OpenApiExample(
                "A Swiss",
                value={"name": "Autumn Swiss", "format": "swiss", "rounds": 5},
                request_only=True,
            ),
            OpenApiExample(
                "A league",
                value={"name": "Winter league", "format": "league", "division_size": 8},
                request_only=True,
            ),
            OpenApiExample("A competition", value=EXAMPLE, response_only=True),
        ],
        summary="Make a competition (two-player rules; at most 3 of yours open or running)",
    )
    def post(self, request: Request) -> Response:
        data = CompetitionInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        terms = Terms(
            name=v["name"],
            format=v["format"],
            description=v["description"],
            rules=v["rules"],
            rule_options=v["options"],
            stop_mode=v["stop_mode"],
            clock=TimeControl(control=v["time_control"], days_per_turn=v["days_per_turn"]),
            rated=v["rated"],
            min_rating=v.get("min_rating"),
            max_rating=v.get("max_rating"),
            starts_at=v.get("starts_at"),
            max_players=v["max_players"],
            min_players=v["min_players"],
            public=v["public"],
            invited=v["invited"],
            double=v["double"],
            rounds=v.get("rounds"),
            match_target=v.get("match_target"),
            division_size=v["division_size"],
            promoted=v["promoted"],
            reach=v["reach"],
        )
        user = player_of(request)
        return Response(_out(entering.create_competition(user, terms), user), status=201)


class CompetitionDetailApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[TOKEN],
        responses={200: CompetitionSerializer, **errors(404)},
        examples=[OpenApiExample("A competition", value=EXAMPLE, response_only=True)],
        summary="A competition",
    )
    def get(self, request: Request, competition_id: int) -> Response:
        user = _viewer(request)
        return Response(_out(entering.competition_for(competition_id, user, _token(request)), user))


def _entry(competition_id: int, user: User) -> dict[str, Any]:
    entry = Entry.objects.filter(competition_id=competition_id, player=user).first()
    return CompetitionEntrySerializer(
        {
            "competition": competition_id,
            "player": user.get_username(),
            "rating": round(entry.rating) if entry else 0,
            "withdrawn": entry is None or entry.withdrawn_at is not None,
        }
    ).data


class EnterApi(APIView):
    @extend_schema(
        request=CompetitionEnterSerializer,
        responses={201: CompetitionEntrySerializer, **errors(400, 403, 404, 409, 413)},
        examples=[
            NO_BODY,
            OpenApiExample("A computer player", value={"computer": "medium"}, request_only=True),
            ENTRY_EXAMPLE,
        ],
        summary="Enter a competition (one that starts when full starts with its last entry)",
    )
    def post(self, request: Request, competition_id: int) -> Response:
        data = CompetitionEnterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = player_of(request)
        level = data.validated_data.get("computer")
        if level:
            entry = entering.enter_computer(competition_id, user, level)
            assert entry.player is not None
            return Response(_entry(competition_id, entry.player), status=201)
        entering.enter(competition_id, user, token=data.validated_data.get("token"))
        return Response(_entry(competition_id, user), status=201)


class WithdrawApi(APIView):
    @extend_schema(
        request=NoBody,
        responses={200: CompetitionEntrySerializer, **errors(400, 404, 409, 413)},
        examples=[NO_BODY, ENTRY_EXAMPLE],
        summary="Withdraw: before the start the entry goes; after it your games are resigned",
    )
    def post(self, request: Request, competition_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        user = player_of(request)
        entering.withdraw(competition_id, user)
        return Response(_entry(competition_id, user))


class StandingsApi(ListApi):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[TOKEN],
        responses={200: CompetitionStandingSerializer(many=True), **errors(400, 404)},
        examples=[STANDING_EXAMPLE],
        summary="Standings with their tie-breaks (a league: this season's, division by division)",
    )
    def get(self, request: Request, competition_id: int) -> Response:
        competition = entering.competition_for(competition_id, _viewer(request), _token(request))
        rows: list[dict[str, Any]] = []
        for level, table, _crossed, _names in views.page_context(competition, None)["tables"]:
            rows += [_standing(row, table, level) for row in table.rows]
        return self.page(request, rows, lambda row: row)


def _standing(row: standings.Row, table: standings.Table, level: int | None) -> dict[str, Any]:
    return CompetitionStandingSerializer(
        {
            "rank": row.standing.rank,
            "player": row.name,
            "points": row.standing.points,
            "played": row.standing.played,
            "wins": row.standing.wins,
            "tiebreaks": dict(zip(table.tiebreaks, row.standing.tiebreaks, strict=False)),
            "withdrawn": row.withdrawn,
            "division": level,
        }
    ).data


class PairingsApi(ListApi):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        parameters=[
            TOKEN,
            OpenApiParameter("round", int, required=False, description="One round only"),
        ],
        responses={200: CompetitionPairingSerializer(many=True), **errors(400, 404)},
        examples=[PAIRING_EXAMPLE],
        summary="Each round's pairings, with their games and results, latest round first",
    )
    def get(self, request: Request, competition_id: int) -> Response:
        competition = entering.competition_for(competition_id, _viewer(request), _token(request))
        found = (
            Pairing.objects.filter(round__competition=competition)
            .select_related("round", "seat_a", "seat_b", "division")
            .order_by("-round__number", "division__level", "pk")
        )
        number = request.query_params.get("round")
        if number is not None:
            if not (number.isascii() and number.isdigit() and len(number) < 6):
                raise ServiceError(400, "BAD_REQUEST", _("round must be a whole number"))
            found = found.filter(round__number=int(number))
        return self.page(request, found, _pairing)


def _pairing(pairing: Pairing) -> dict[str, Any]:
    return CompetitionPairingSerializer(
        {
            "round": pairing.round.number,
            "division": pairing.division.level if pairing.division else None,
            "seat_a": pairing.seat_a.name,
            "seat_b": pairing.seat_b.name if pairing.seat_b else None,
            "bye": pairing.bye,
            "game": pairing.game_id,
            "match": pairing.match_id,
            "points_a": pairing.points_a,
            "points_b": pairing.points_b,
            "forfeit": pairing.forfeit,
        }
    ).data


class LadderChallengeApi(APIView):
    @extend_schema(
        request=LadderChallengeSerializer,
        responses={201: CompetitionPairingSerializer, **errors(400, 404, 409, 413)},
        examples=[
            OpenApiExample("Up the ladder", value={"opponent": "bob"}, request_only=True),
            PAIRING_EXAMPLE,
        ],
        summary="A ladder: challenge a player above you; the game is dealt at once",
    )
    def post(self, request: Request, competition_id: int) -> Response:
        data = LadderChallengeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pairing = ladder.challenge(
            competition_id, player_of(request), data.validated_data["opponent"]
        )
        return Response(_pairing(pairing), status=201)


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
