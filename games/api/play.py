"""REST API of playing a game (``/api/v1/games/{id}/...``): moves, resigning, Stop!,
stalemate offers and answers. Each write answers the game from the caller's seat."""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.examples import GAME, MESSAGE_ERRORS, MOVES, ONE_MOVE
from games.api.games import GameStateSerializer, game_response
from games.api.talk import MessageTextField
from games.api.writes import HEADERS, expected_version, write
from games.engine import TEXT_PATTERN
from games.play import services, stalemate, stops
from lib import fields
from lib.api import player_of
from lib.openapi import NO_BODY, errors
from lib.serializers import NoBody, RequestBody

#: A move as the notation writes it (docs/notation.md): letters and digits, one dash.
MOVE_TEXT = RegexValidator(
    f"^{TEXT_PATTERN}$", gettext_lazy("a move is written like H3-F1, T or C-W")
)


class MovesSerializer(RequestBody):
    moves = serializers.ListField(
        child=fields.CharField(max_length=16, validators=[MOVE_TEXT]),
        min_length=1,
        max_length=services.MAX_MOVES_PER_REQUEST,
        help_text="Moves in the notation, applied in order, all or none: ['H3-F1', 'T', 'C-W'].",
    )
    expected_version = fields.IntegerField(
        required=False, min_value=1, help_text="The version you saw; 412 if the game has moved on."
    )
    message = MessageTextField(
        required=False,
        help_text="A message to the others, stored with the moves (all or none) and told "
        "with your turn (docs/messages.md): plain text, at most 500 characters as sent",
    )


class PlayMovesApi(APIView):
    @extend_schema(
        request=MovesSerializer,
        responses={
            200: GameStateSerializer,
            **errors(400, 404, 409, 412, 413, more=MESSAGE_ERRORS),
        },
        examples=[
            MOVES,
            ONE_MOVE,
            OpenApiExample(
                "A turn with a message",
                value={"moves": ["T", "C-W"], "message": "Nice reserve play!"},
                request_only=True,
            ),
            GAME,
        ],
        parameters=HEADERS,
        summary="Post one move or a whole list (all or none), with a message if you like",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = MovesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.play_moves(
            game_id=game_id,
            user=player_of(request),
            moves=data.validated_data["moves"],
            expected_version=expected_version(request, data.validated_data),
            message=data.validated_data.get("message"),
        )
        return game_response(request, result.game, result.engine)


class VersionSerializer(RequestBody):
    expected_version = fields.IntegerField(required=False, min_value=1)


class ResignApi(APIView):
    @extend_schema(
        request=VersionSerializer,
        responses={200: GameStateSerializer, **errors(400, 404, 409, 412, 413)},
        examples=[
            OpenApiExample("Resign", value={"expected_version": 7}, request_only=True),
            GAME,
        ],
        parameters=HEADERS,
        summary="Resign (R8.6: the opponent scores 30 + 20 + your count)",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = VersionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.resign(
            game_id=game_id,
            user=player_of(request),
            expected_version=expected_version(request, data.validated_data),
        )
        return game_response(request, game)


class StopSerializer(RequestBody):
    move = fields.IntegerField(
        min_value=1, help_text="The move of the opponent's last turn to stop, counted from 1"
    )
    choice = fields.CharField(
        required=False,
        max_length=16,
        validators=[MOVE_TEXT],
        help_text="The compulsory move to carry out when several fit (R7.2: the caller "
        "chooses), written as the offender would write it (R is the offender's reserve). A "
        "move that was not compulsory is passed over for the first that was.",
    )
    expected_version = fields.IntegerField(required=False, min_value=1)


class StopApi(APIView):
    @extend_schema(
        request=StopSerializer,
        responses={200: GameStateSerializer, **errors(400, 404, 409, 412, 413)},
        examples=[
            OpenApiExample("Stop the third move", value={"move": 3}, request_only=True),
            OpenApiExample(
                "Stop it and choose the foundation",
                value={"move": 3, "choice": "H2-F5", "expected_version": 12},
                request_only=True,
            ),
            OpenApiExample(
                "A wrong call",
                value={
                    "error": "WRONG_STOP",
                    "message": "move 3 (H2-H6) broke no rule (wrong call number 1; "
                    "2 more and you lose a turn)",
                    "wrong_calls": 1,
                    "turn_lost": False,
                },
                response_only=True,
                status_codes=[409],
            ),
            GAME,
        ],
        parameters=HEADERS,
        summary="Call Stop! on a move of the opponent's last turn (classic games, R7.4)",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = StopSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        outcome = stops.call_stop_on(
            game_id=game_id,
            user=player_of(request),
            move_number=values["move"],
            choice=values.get("choice"),
            expected_version=expected_version(request, values),
        )
        return game_response(request, outcome.game, outcome.engine)


class StalemateOfferApi(APIView):
    @extend_schema(
        request=NoBody,
        responses={200: GameStateSerializer, **errors(400, 404, 409, 412, 413)},
        examples=[NO_BODY, GAME],
        parameters=HEADERS,
        summary="Offer a stalemate",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        game = stalemate.offer_stalemate(
            game_id=game_id, user=player_of(request), expected_version=expected_version(request)
        )
        return game_response(request, game)


class AnswerSerializer(RequestBody):
    accept = fields.BooleanField(help_text="true ends the game as a stalemate (R8.5)")


class StalemateAnswerApi(APIView):
    @extend_schema(
        request=AnswerSerializer,
        responses={200: GameStateSerializer, **errors(400, 404, 409, 412, 413)},
        examples=[OpenApiExample("Accept", value={"accept": True}, request_only=True), GAME],
        parameters=HEADERS,
        summary="Accept or decline the opponent's stalemate offer",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = AnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = stalemate.answer_stalemate(
            game_id=game_id,
            user=player_of(request),
            accept=data.validated_data["accept"],
            expected_version=expected_version(request),
        )
        return game_response(request, game)
