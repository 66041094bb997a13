"""REST API for the caller's account: profile, API tokens, the players it blocks."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import notices
from lib import fields
from lib.api import player_of
from lib.openapi import errors
from lib.pagination import ListApi
from lib.serializers import NoBody, RequestBody

from . import conduct, services
from .models import TIME_ZONES, ApiToken, ChallengesFrom
from .services import start_vacation, vacation_days_left

ME = OpenApiExample(
    "My account",
    value={
        "username": "alice",
        "email": "alice@example.com",
        "display_name": "Alice",
        "time_zone": "Europe/Paris",
        "language": "fr",
        "notifications": {"your_turn": "immediately", "reminder": "daily_digest"},
        "challenges_from": "anyone",
    },
    response_only=True,
)
TOKEN = OpenApiExample(
    "A token",
    value={
        "id": 1,
        "name": "my bot",
        "hint": "rb_5cQm9xA",
        "created_at": "2026-11-22T09:00:00Z",
        "last_used_at": "2026-11-22T10:12:00Z",
    },
    response_only=True,
)


#: One optional field per e-mail event: an event the server does not know is refused.
NotificationsSerializer = type(
    "NotificationsSerializer",
    (RequestBody,),
    {
        event: serializers.ChoiceField(choices=notices.NOTIFICATION_MODES, required=False)
        for event in notices.kinds()
    },
)


class MeSerializer(RequestBody):
    username = fields.CharField(read_only=True)
    email = fields.CharField(read_only=True, help_text="The account's address")
    display_name = fields.CharField(max_length=60, required=False, allow_blank=True)
    time_zone = serializers.ChoiceField(
        choices=TIME_ZONES, required=False, help_text="An IANA time zone, e.g. Europe/Paris"
    )
    language = serializers.ChoiceField(
        choices=["", *(code for code, _name in settings.LANGUAGES)],
        required=False,
        allow_blank=True,
        help_text="Pages and e-mails in en, fr or de; empty: the browser's (Accept-Language)",
    )
    vacation_until = serializers.DateTimeField(read_only=True, allow_null=True)
    vacation_days_left = fields.IntegerField(read_only=True)
    reminder_hours = serializers.ListField(
        child=fields.IntegerField(min_value=1, max_value=336),
        required=False,
        max_length=5,
        help_text="Hours before a deadline to be reminded (default [24, 2])",
    )
    notifications = NotificationsSerializer(
        required=False,
        help_text="For each event, how it is sent: immediately (e-mail), push, "
        "push_and_email, daily_digest or never",
    )
    play_by_mail = fields.BooleanField(
        required=False,
        help_text="Play by mail: every turn's e-mail carries the board, the legal moves and "
        "a reply address, and a reply plays (a game may say otherwise)",
    )
    computer_turn_emails = fields.BooleanField(
        required=False,
        help_text="A your_turn e-mail at each turn of a game against the computer (off by "
        "default: it answers within seconds). In any game, no your_turn e-mail is sent "
        "while its player has the game's page open.",
    )
    email_after_push_minutes = fields.IntegerField(
        required=False,
        min_value=0,
        max_value=services.MAX_EMAIL_AFTER_PUSH,
        help_text="A your_turn set to push_and_email: minutes the e-mail waits for the game "
        "to be opened after the push (not sent if it was); 0: both at once",
    )
    challenges_from = serializers.ChoiceField(
        choices=ChallengesFrom.values,
        required=False,
        help_text="Who may challenge me by name or invite me by e-mail: anyone (the "
        "default); played, the players I have sat at a game with; nobody, open challenges "
        "only. A challenge it refuses is 403 NOT_ACCEPTING_CHALLENGES.",
    )


def _me(user: User) -> dict[str, Any]:
    """The account, through its serializer (what the schema says is what is sent)."""
    profile = services.profile_of(user)
    return MeSerializer(
        {
            "username": user.get_username(),
            "email": user.email,
            "display_name": profile.display_name,
            "time_zone": profile.time_zone,
            "language": profile.language,
            "notifications": profile.notifications,
            "reminder_hours": profile.reminder_hours,
            "play_by_mail": profile.play_by_mail,
            "computer_turn_emails": profile.computer_turn_emails,
            "email_after_push_minutes": profile.email_after_push_minutes,
            "challenges_from": profile.challenges_from,
            "vacation_until": profile.vacation_until,
            "vacation_days_left": vacation_days_left(profile, timezone.now()),
        }
    ).data


class MeApi(APIView):
    @extend_schema(responses=MeSerializer, examples=[ME], summary="My account")
    def get(self, request: Request) -> Response:
        return Response(_me(player_of(request)))

    @extend_schema(
        request=MeSerializer,
        responses={200: MeSerializer, **errors(400, 413)},
        examples=[
            OpenApiExample(
                "Digest my turns",
                value={"time_zone": "Europe/Paris", "notifications": {"your_turn": "daily_digest"}},
                request_only=True,
            ),
            OpenApiExample(
                "Challenges from players I know",
                value={"challenges_from": "played"},
                request_only=True,
            ),
            ME,
        ],
        summary="Change my profile",
    )
    def patch(self, request: Request) -> Response:
        data = MeSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        user = player_of(request)
        services.update_profile(user, dict(data.validated_data))
        return Response(_me(user))


class VacationSerializer(RequestBody):
    days = fields.IntegerField(min_value=1, max_value=366)


class VacationApi(APIView):
    @extend_schema(
        request=VacationSerializer,
        responses={200: MeSerializer, **errors(400, 409, 413)},
        examples=[OpenApiExample("A week away", value={"days": 7}, request_only=True), ME],
        summary="Take vacation days: my clocks stop and my opponents are told",
    )
    def post(self, request: Request) -> Response:
        data = VacationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = player_of(request)
        start_vacation(user, data.validated_data["days"])
        return Response(_me(user))


class TokenSerializer(RequestBody):
    id = fields.IntegerField(read_only=True)
    name = fields.CharField(max_length=60)
    hint = fields.CharField(read_only=True, help_text="The key's first characters")
    created_at = serializers.DateTimeField(read_only=True)
    last_used_at = serializers.DateTimeField(read_only=True, allow_null=True)


class NewTokenSerializer(TokenSerializer):
    """A token just made: the only answer that holds its key."""

    key = fields.CharField(read_only=True, help_text="Shown once, when the token is made")


def _token(token: ApiToken, key: str | None = None) -> dict[str, Any]:
    fields = {
        "id": token.pk,
        "name": token.name,
        "hint": token.hint,
        "created_at": token.created_at,
        "last_used_at": token.last_used_at,
    }
    if key is None:
        return TokenSerializer(fields).data
    return NewTokenSerializer({**fields, "key": key}).data


class TokenListApi(ListApi):
    @extend_schema(
        responses={200: TokenSerializer(many=True), **errors(400)},
        examples=[TOKEN],
        summary="My API tokens",
    )
    def get(self, request: Request) -> Response:
        return self.page(request, player_of(request).api_tokens.all(), _token)

    @extend_schema(
        request=TokenSerializer,
        responses={201: NewTokenSerializer, **errors(400, 409, 413)},
        examples=[
            OpenApiExample("Name it", value={"name": "my bot"}, request_only=True),
            OpenApiExample(
                "The key, shown once",
                value={**TOKEN.value, "key": "rb_5cQm…", "last_used_at": None},
                response_only=True,
            ),
        ],
        summary="New token (the key is shown once)",
    )
    def post(self, request: Request) -> Response:
        data = TokenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token, key = services.create_token(player_of(request), data.validated_data["name"])
        return Response(_token(token, key), status=201)


class TokenDetailApi(APIView):
    @extend_schema(
        responses={204: None, **errors(400, 404, 413)},
        examples=[OpenApiExample("Revoked", value=None, response_only=True, status_codes=[204])],
        summary="Revoke a token",
    )
    def delete(self, request: Request, token_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        services.revoke_token(player_of(request), token_id)
        return Response(status=204)


class BlockSerializer(RequestBody):
    username = fields.CharField(
        max_length=150, trim_whitespace=False, help_text="The player's username (any case)"
    )


BLOCK = OpenApiExample("A blocked player", value={"username": "mallory"}, response_only=True)


class BlockListApi(ListApi):
    @extend_schema(
        responses={200: BlockSerializer(many=True), **errors(400)},
        examples=[BLOCK],
        summary="The players I block, by name",
    )
    def get(self, request: Request) -> Response:
        return self.page(
            request,
            conduct.blocked_by_me(player_of(request)),
            lambda user: BlockSerializer({"username": user.get_username()}).data,
        )

    @extend_schema(
        request=BlockSerializer,
        responses={
            201: BlockSerializer,
            **errors(
                400,
                404,
                413,
                more={
                    400: [("Yourself", "SAME_PLAYER", {"message": "you cannot block yourself"})],
                    404: [
                        (
                            "No such player",
                            "NO_SUCH_PLAYER",
                            {"message": "there is no player called 'malory'"},
                        )
                    ],
                },
            ),
        },
        examples=[
            OpenApiExample("Block a player", value={"username": "mallory"}, request_only=True),
            BLOCK,
        ],
        summary="Block a player (docs/conduct.md); blocking twice is one block",
        description="A blocked player cannot challenge you by name nor invite your address "
        "(they are told only that you take no challenge from them), neither of you sees the "
        "other's open challenges, and you read nothing they write, at any game. Your "
        "pending challenges to them are withdrawn. Nothing tells them of the block.",
    )
    def post(self, request: Request) -> Response:
        data = BlockSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        blocked = conduct.block(player_of(request), data.validated_data["username"])
        return Response(BlockSerializer({"username": blocked.get_username()}).data, status=201)


class BlockDetailApi(APIView):
    @extend_schema(
        responses={204: None, **errors(400, 413)},
        examples=[OpenApiExample("Unblocked", value=None, response_only=True, status_codes=[204])],
        summary="Lift a block (none: nothing to do)",
    )
    def delete(self, request: Request, username: str) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        conduct.unblock(player_of(request), username)
        return Response(status=204)
