"""REST API for games (``/api/v1/``): thin views that parse input, call one service, render."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import selectors, services


class GameStateSerializer(serializers.Serializer[dict[str, Any]]):
    """The game as the caller's seat sees it (never a face-down card)."""

    id = serializers.IntegerField()
    version = serializers.IntegerField()
    rules = serializers.CharField()
    players = serializers.DictField(child=serializers.CharField())
    seat = serializers.CharField(allow_null=True)
    status = serializers.CharField()
    to_move = serializers.CharField()
    your_turn = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    position = serializers.DictField()
    legal_moves = serializers.ListField(child=serializers.CharField())
    last_turn = serializers.DictField()
    ply = serializers.IntegerField()
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True)


class MovesSerializer(serializers.Serializer[dict[str, Any]]):
    moves = serializers.ListField(
        child=serializers.CharField(max_length=16),
        min_length=1,
        max_length=services.MAX_MOVES_PER_REQUEST,
        help_text="Moves in the notation, applied in order, all or none: ['H3-F1', 'T', 'C-W'].",
    )
    expected_version = serializers.IntegerField(
        required=False, min_value=1, help_text="The version you saw; 412 if the game has moved on."
    )


def _player(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated has run
    return user


def _if_match(request: Request) -> int | None:
    header = request.headers.get("If-Match", "").strip().strip('"').removeprefix("W/").strip('"')
    if not header:
        return None
    if not header.isdigit():
        raise services.GameError(400, "BAD_REQUEST", "If-Match must hold a game version")
    return int(header)


class GameDetailApi(APIView):
    @extend_schema(responses=GameStateSerializer, summary="A game from the caller's seat")
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_for(request.user, game_id)
        state = selectors.game_state(game, game.seat_of(request.user.pk))
        return Response(state, headers={"ETag": f'"{game.version}"'})


class PlayMovesApi(APIView):
    @extend_schema(
        request=MovesSerializer,
        responses=GameStateSerializer,
        parameters=[
            OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False),
            OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False),
        ],
        summary="Post one move or a whole list (all or none)",
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = MovesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        expected = data.validated_data.get("expected_version", _if_match(request))
        key = request.headers.get("Idempotency-Key") or None
        if key is not None and len(key) > 128:
            raise services.GameError(
                400, "BAD_REQUEST", "Idempotency-Key is at most 128 characters"
            )
        result = services.play_moves(
            game_id=game_id,
            user=_player(request),
            moves=data.validated_data["moves"],
            expected_version=expected,
            idempotency_key=key,
        )
        game = result.game
        state = selectors.game_state(game, game.seat_of(request.user.pk))
        headers = {"ETag": f'"{game.version}"'}
        if result.replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(state, headers=headers)
