"""REST API of players (``/api/v1/players/``) and of the leaderboard: ratings and
records per family of rules."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.lobby import ratings
from lib import fields
from lib.errors import ServiceError
from lib.openapi import errors
from lib.pagination import ListApi


class StandingSerializer(serializers.Serializer[dict[str, Any]]):
    rating = fields.IntegerField(help_text="Glicko-2, rounded")
    provisional = fields.BooleanField(help_text="Its deviation is still wide (shown with ?)")
    games = fields.IntegerField(help_text="Rated games in this family")


class PlayerSerializer(serializers.Serializer[dict[str, Any]]):
    username = fields.CharField()
    display_name = fields.CharField()
    computer = fields.CharField(
        allow_null=True, help_text="A computer player's level (easy, medium, strong), or null"
    )
    ratings = serializers.DictField(
        child=StandingSerializer(),
        help_text="Rating family -> the player's rating in it (families they have played)",
    )


class RecordSerializer(serializers.Serializer[dict[str, Any]]):
    family = fields.CharField(help_text="standard, one-pack, three-player or foster")
    rating = fields.IntegerField()
    deviation = fields.IntegerField()
    provisional = fields.BooleanField()
    games = fields.IntegerField()
    wins = fields.IntegerField()
    losses = fields.IntegerField()
    draws = fields.IntegerField()


class PlayerProfileSerializer(PlayerSerializer):
    records = RecordSerializer(many=True, help_text="Rating and record per family played")


PLAYER = OpenApiExample(
    "A player",
    value={
        "username": "bob",
        "display_name": "Bob",
        "computer": None,
        "ratings": {"standard": {"rating": 1523, "provisional": False, "games": 31}},
    },
    response_only=True,
)


def _players() -> QuerySet[User]:
    return (
        User.objects.filter(is_active=True)
        .select_related("profile")
        .prefetch_related("ratings")
        .order_by("username")
    )


class PlayerListApi(ListApi):
    @extend_schema(
        parameters=[OpenApiParameter("search", str, required=False)],
        examples=[PLAYER],
        responses={200: PlayerSerializer(many=True), **errors(400)},
        summary="Players, to challenge by username, with their ratings",
    )
    def get(self, request: Request) -> Response:
        users = _players()
        search = request.query_params.get("search", "").strip().replace("\x00", "")
        if search:
            users = users.filter(username__istartswith=search)
        return self.page(request, users, lambda u: PlayerSerializer(ratings.player_summary(u)).data)


class PlayerDetailApi(APIView):
    @extend_schema(
        responses={200: PlayerProfileSerializer, **errors(404)},
        examples=[
            OpenApiExample(
                "A player",
                value={
                    **PLAYER.value,
                    "records": [
                        {
                            "family": "standard",
                            "rating": 1523,
                            "deviation": 71,
                            "provisional": False,
                            "games": 31,
                            "wins": 17,
                            "losses": 13,
                            "draws": 1,
                        }
                    ],
                },
                response_only=True,
            )
        ],
        summary="A player: ratings and record in each family of rules",
    )
    def get(self, request: Request, username: str) -> Response:
        user = _players().filter(username__iexact=username).first()
        if user is None:
            raise ServiceError(
                404,
                "NO_SUCH_PLAYER",
                _("there is no player called %(name)s") % {"name": repr(username)},
            )
        return Response(PlayerProfileSerializer(ratings.player_profile(user)).data)


class LeaderboardRowSerializer(RecordSerializer):
    username = fields.CharField()
    display_name = fields.CharField()


class LeaderboardApi(ListApi):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "family",
                str,
                required=False,
                enum=sorted(ratings.FAMILY_NAMES),
                description="The family of rules (default standard)",
            )
        ],
        responses={200: LeaderboardRowSerializer(many=True), **errors(400)},
        examples=[
            OpenApiExample(
                "The ladder",
                value={
                    "username": "alice",
                    "display_name": "Alice",
                    "family": "standard",
                    "rating": 1712,
                    "deviation": 64,
                    "provisional": False,
                    "games": 48,
                    "wins": 30,
                    "losses": 16,
                    "draws": 2,
                },
                response_only=True,
            )
        ],
        summary=f"The ladder: players with {ratings.LEADERBOARD_MIN_GAMES} rated games or more",
    )
    def get(self, request: Request) -> Response:
        family = request.query_params.get("family", "standard")
        if family not in ratings.FAMILY_NAMES:
            raise ServiceError(
                400,
                "BAD_REQUEST",
                _("family is one of %(families)s")
                % {"families": ", ".join(sorted(ratings.FAMILY_NAMES))},
            )
        return self.page(
            request,
            ratings.leaderboard(family),
            lambda row: LeaderboardRowSerializer(ratings.ladder_row(row)).data,
        )
