"""REST API of competitions, under ``/api/v1/competitions/`` (docs/competitions.md):
listed, made, read, entered, withdrawn from, their standings and pairings, and a
ladder's challenges. Reading needs no sign-in for a public competition."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.clocks import TimeControl
from lib.api import player_of
from lib.errors import ServiceError
from lib.openapi import NO_BODY, errors
from lib.pagination import ListApi
from lib.serializers import NoBody

from .models import Competition, Entry, Pairing
from .serializers import (
    ENTRY_EXAMPLE,
    EXAMPLE,
    PAIRING_EXAMPLE,
    STANDING_EXAMPLE,
    STATUSES,
    CompetitionEnterSerializer,
    CompetitionEntrySerializer,
    CompetitionInSerializer,
    CompetitionPairingSerializer,
    CompetitionSerializer,
    CompetitionStandingSerializer,
    LadderChallengeSerializer,
)
from .services import entering, ladder, standings, views
from .services.entering import Terms


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


class StartApi(APIView):
    @extend_schema(
        request=NoBody,
        responses={200: CompetitionSerializer, **errors(400, 403, 404, 409, 413)},
        examples=[NO_BODY, OpenApiExample("Started", value=EXAMPLE, response_only=True)],
        summary="Start a competition now (its maker), once its fewest players have entered",
    )
    def post(self, request: Request, competition_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        user = player_of(request)
        return Response(_out(entering.start_now(competition_id, user), user))


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
