"""REST API of challenges (``/api/v1/challenges/``): made, listed, accepted,
declined, cancelled."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth.models import User
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.writes import HEADERS, write
from games.clocks import (
    BANK_CAP_DAYS,
    BANK_INCREMENT_DAYS,
    BANK_INITIAL_DAYS,
    DAYS_PER_TURN,
    TimeControl,
)
from games.engine import PRESETS
from games.lobby import challenges
from games.models import Challenge, StopMode
from lib import fields
from lib.api import player_of
from lib.openapi import NO_BODY, errors
from lib.pagination import ListApi
from lib.serializers import NoBody, RequestBody


def contribution_field() -> fields.CharField:
    """A player's contribution to the deal (docs/fair-deal.md)."""
    return fields.CharField(
        required=False,
        min_length=32,
        max_length=64,
        validators=[
            RegexValidator(
                r"^(?:[0-9a-fA-F]{2}){16,32}$",
                _("a contribution to the deal is 32 to 64 hexadecimal digits (an even number)"),
            )
        ],
        help_text="Your random contribution to the deal: 32 to 64 hex digits (16 to 32 random "
        "bytes). Left out, the server draws one for you and the game's record says so",
    )


class ChallengeSerializer(RequestBody):
    id = fields.IntegerField(read_only=True)
    challenger = fields.CharField(read_only=True)
    opponent = fields.CharField(required=False, help_text="A username to challenge")
    second_opponent = fields.CharField(
        required=False,
        help_text="The three-player game (rules three-player): the other named opponent",
    )
    accepted_by = serializers.ListField(
        child=fields.CharField(),
        read_only=True,
        help_text="Who has accepted, in seat order (B, then C)",
    )
    email = serializers.EmailField(required=False, help_text="Invite someone by e-mail")
    open = fields.BooleanField(required=False, default=False, help_text="Anyone may accept")
    rules = serializers.ChoiceField(
        choices=sorted(PRESETS),
        required=False,
        default="pagat",
        help_text="A preset: GET /api/v1/rules/ lists them",
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text='Options changed from the preset, e.g. {"lenient_turn": true, '
        '"reserve_size": 12} (GET /api/v1/rules/); options the preset\'s game cannot be '
        "played with are refused: 400 RULES_CLASH, the message naming them",
    )
    stop_mode = serializers.ChoiceField(
        choices=StopMode.values,
        required=False,
        default=StopMode.REFEREE,
        help_text="referee (default): the server refuses every violation; classic: priority "
        "slips stand unless the opponent calls Stop! before their first move",
    )
    match_target = fields.IntegerField(
        required=False,
        allow_null=True,
        **challenges.MATCH_TARGET.field(),
        help_text="Play a match to this many points; a single game when absent",
    )
    time_control = serializers.ChoiceField(
        choices=["per_turn", "bank"],
        required=False,
        default="per_turn",
        help_text="per_turn: days_per_turn for every turn; bank: a time bank per seat",
    )
    days_per_turn = fields.IntegerField(
        required=False, default=TimeControl.days_per_turn, **DAYS_PER_TURN.field()
    )
    bank_initial_days = fields.IntegerField(
        required=False, default=TimeControl.bank_initial_days, **BANK_INITIAL_DAYS.field()
    )
    bank_increment_days = fields.IntegerField(
        required=False, default=TimeControl.bank_increment_days, **BANK_INCREMENT_DAYS.field()
    )
    bank_cap_days = fields.IntegerField(
        required=False,
        default=TimeControl.bank_cap_days,
        **BANK_CAP_DAYS.field(),
        help_text="The most a time bank may hold; one below the initial bank is raised to it",
    )
    weekend_pause = fields.BooleanField(required=False, default=False)
    rated = fields.BooleanField(
        required=False,
        default=True,
        help_text="Whether the game changes the players' ratings (a computer's never moves)",
    )
    public = fields.BooleanField(
        required=False,
        default=True,
        help_text="Anyone may watch its games (the default); false: its players only",
    )
    min_rating = fields.IntegerField(
        required=False,
        allow_null=True,
        **challenges.RATING.field(),
        help_text="An open challenge: only players rated this or more (in its family) see it",
    )
    max_rating = fields.IntegerField(
        required=False,
        allow_null=True,
        **challenges.RATING.field(),
        help_text="An open challenge: only players rated this or less see it",
    )
    contribution = contribution_field()
    status = fields.CharField(read_only=True)
    game = fields.IntegerField(read_only=True, allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)


class ChallengeOutSerializer(serializers.Serializer[dict[str, Any]]):
    """A challenge as its challenger, a named player or anyone (open) sees it."""

    id = fields.IntegerField()
    challenger = fields.CharField()
    opponent = fields.CharField(allow_null=True)
    second_opponent = fields.CharField(allow_null=True)
    accepted_by = serializers.ListField(
        child=fields.CharField(), help_text="Who has accepted, in seat order (B, then C)"
    )
    email = fields.CharField(
        allow_blank=True,
        help_text='The invited address, shown to the challenger only; to others "(by e-mail)"',
    )
    open = fields.BooleanField()
    rules = fields.CharField()
    options = serializers.DictField()
    stop_mode = serializers.ChoiceField(choices=StopMode.values)
    match_target = fields.IntegerField(allow_null=True)
    time_control = serializers.ChoiceField(choices=["per_turn", "bank"])
    days_per_turn = fields.IntegerField()
    bank_initial_days = fields.IntegerField()
    bank_increment_days = fields.IntegerField()
    bank_cap_days = fields.IntegerField()
    weekend_pause = fields.BooleanField()
    rated = fields.BooleanField()
    public = fields.BooleanField(help_text="Whether anyone may watch its games")
    min_rating = fields.IntegerField(allow_null=True)
    max_rating = fields.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Challenge.Status.values)
    game = fields.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    commitment = fields.CharField(
        help_text="SHA-256 of 'rbank-commit/2:' + the server's secret, fixed now, before "
        "anyone accepts; the game's seed is derived from that secret and the contributions"
    )


CHALLENGE = OpenApiExample(
    "A challenge",
    value={
        "id": 3,
        "challenger": "alice",
        "opponent": "bob",
        "second_opponent": None,
        "accepted_by": [],
        "email": "",
        "open": False,
        "rules": "pagat",
        "options": {},
        "stop_mode": "referee",
        "match_target": None,
        "rated": True,
        "public": True,
        "min_rating": None,
        "max_rating": None,
        "status": "pending",
        "game": None,
        "commitment": "3c8e…",
        "created_at": "2026-11-22T09:00:00Z",
    },
    response_only=True,
)


class ChallengeAnswerSerializer(RequestBody):
    token = fields.CharField(
        required=False, max_length=64, help_text="The invitation link's token (e-mail invitations)"
    )
    contribution = contribution_field()


def _challenge(challenge: Challenge, user: User) -> dict[str, Any]:
    """The challenge as ``user`` may see it, through its output serializer."""
    mine = challenge.challenger_id == user.pk
    return ChallengeOutSerializer(
        {
            "id": challenge.pk,
            "challenger": challenge.challenger.get_username(),
            "opponent": challenge.opponent.get_username() if challenge.opponent else None,
            "second_opponent": (
                challenge.second_opponent.get_username() if challenge.second_opponent else None
            ),
            "accepted_by": [
                player.get_username()
                for player in (challenge.accepted_by, challenge.second_accepted_by)
                if player is not None
            ],
            # Only the challenger sees the address they invited.
            "email": challenge.email if mine else ("" if not challenge.email else "(by e-mail)"),
            "open": challenge.is_open,
            "rules": challenge.rules,
            "options": challenge.rule_options,
            "stop_mode": challenge.stop_mode,
            "match_target": challenge.match_target,
            **{k: v for k, v in asdict(challenge.clock()).items() if k != "control"},
            "time_control": challenge.time_control,
            "rated": challenge.rated,
            "public": challenge.public,
            "min_rating": challenge.min_rating,
            "max_rating": challenge.max_rating,
            "status": challenge.status,
            "game": challenge.game_id,
            "created_at": challenge.created_at,
            "commitment": challenge.commitment,
        }
    ).data


class ChallengeListApi(ListApi):
    @extend_schema(
        responses={200: ChallengeOutSerializer(many=True), **errors(400)},
        examples=[CHALLENGE],
        summary="Challenges: mine and open",
    )
    def get(self, request: Request) -> Response:
        user = player_of(request)
        return self.page(request, challenges.challenges_for(user), lambda c: _challenge(c, user))

    @extend_schema(
        request=ChallengeSerializer,
        responses={201: ChallengeOutSerializer, **errors(400, 403, 404, 409, 413)},
        examples=[
            OpenApiExample("By username", value={"opponent": "bob"}, request_only=True),
            OpenApiExample(
                "By e-mail, a match",
                value={"email": "dora@example.com", "match_target": 300},
                request_only=True,
            ),
            OpenApiExample("Open to anyone", value={"open": True}, request_only=True),
            OpenApiExample(
                "A private game", value={"opponent": "bob", "public": False}, request_only=True
            ),
            OpenApiExample(
                "Three players",
                value={"rules": "three-player", "opponent": "bob", "second_opponent": "carol"},
                request_only=True,
            ),
            CHALLENGE,
        ],
        parameters=HEADERS,
        summary="Challenge a player, invite by e-mail, or open a challenge",
    )
    @write
    def post(self, request: Request) -> Response:
        data = ChallengeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user = player_of(request)
        challenge = challenges.create_challenge(
            user,
            opponent=values.get("opponent"),
            second_opponent=values.get("second_opponent"),
            email=values.get("email"),
            is_open=values["open"],
            rules=values["rules"],
            rule_options=values["options"],
            stop_mode=values["stop_mode"],
            match_target=values.get("match_target"),
            clock=TimeControl(
                control=values["time_control"],
                days_per_turn=values["days_per_turn"],
                bank_initial_days=values["bank_initial_days"],
                bank_increment_days=values["bank_increment_days"],
                # A cap below the initial bank is raised to it, as the page's form does.
                bank_cap_days=max(values["bank_cap_days"], values["bank_initial_days"]),
                weekend_pause=values["weekend_pause"],
            ),
            rated=values["rated"],
            min_rating=values.get("min_rating"),
            max_rating=values.get("max_rating"),
            public=values["public"],
            contribution=values.get("contribution"),
        )
        return Response(_challenge(challenge, user), status=201)


def _answer(request: Request) -> tuple[User, str | None, str | None]:
    data = ChallengeAnswerSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    values = data.validated_data
    return player_of(request), values.get("token"), values.get("contribution")


ANSWERED = {200: ChallengeOutSerializer, **errors(400, 404, 409, 413)}


class ChallengeAcceptApi(APIView):
    @extend_schema(
        request=ChallengeAnswerSerializer,
        responses=ANSWERED,
        examples=[NO_BODY, CHALLENGE],
        parameters=HEADERS,
        summary="Accept a challenge: the game (or match) starts",
    )
    @write
    def post(self, request: Request, challenge_id: int) -> Response:
        user, token, contribution = _answer(request)
        accepted = challenges.accept_challenge(
            challenge_id, user, token=token, contribution=contribution
        )
        return Response(_challenge(accepted, user))


class ChallengeDeclineApi(APIView):
    @extend_schema(
        request=ChallengeAnswerSerializer,
        responses=ANSWERED,
        examples=[NO_BODY, CHALLENGE],
        parameters=HEADERS,
        summary="Decline a challenge (or leave an open three-player one you joined)",
    )
    @write
    def post(self, request: Request, challenge_id: int) -> Response:
        user, token, _contribution = _answer(request)
        return Response(
            _challenge(challenges.decline_challenge(challenge_id, user, token=token), user)
        )


class ChallengeCancelApi(APIView):
    @extend_schema(
        request=NoBody,
        responses=ANSWERED,
        examples=[NO_BODY, CHALLENGE],
        parameters=HEADERS,
        summary="Cancel a challenge you sent",
    )
    @write
    def post(self, request: Request, challenge_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        user = player_of(request)
        return Response(_challenge(challenges.cancel_challenge(challenge_id, user), user))
