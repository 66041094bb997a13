"""REST API of a finished game's review (``/api/v1/games/{id}/review/``; docs/review.md):
its players, and anyone once a public game is over, read what the review found."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.play import selectors
from games.review import services
from lib.openapi import errors


class MissedCompulsorySerializer(serializers.Serializer[dict[str, Any]]):
    index = serializers.IntegerField(help_text="The record index of the slip")
    move = serializers.CharField(help_text="The move played")
    violation = serializers.CharField(help_text="The priority rule it broke (S1-S3, S6-S11)")
    compulsory = serializers.ListField(
        child=serializers.CharField(), help_text="The moves the rules required instead"
    )


class MissedStopSerializer(serializers.Serializer[dict[str, Any]]):
    move_number = serializers.IntegerField(help_text="The slip's number in the turn before")
    violation = serializers.CharField()


class DecisionSerializer(serializers.Serializer[dict[str, Any]]):
    index = serializers.IntegerField(help_text="The record index of its first move")
    played = serializers.ListField(child=serializers.CharField(), help_text="The moves played")
    better = serializers.ListField(
        child=serializers.CharField(), help_text="The strong player's line from the same view"
    )
    played_score = serializers.FloatField(help_text="Expected count difference after the moves")
    better_score = serializers.FloatField(help_text="... after the strong player's line")
    loss = serializers.FloatField(help_text="better_score - played_score, at least 0")


class TurnReviewSerializer(serializers.Serializer[dict[str, Any]]):
    turn = serializers.IntegerField(help_text="From 1, as in the export")
    seat = serializers.CharField()
    index = serializers.IntegerField(help_text="The record index of its first move")
    moves = serializers.ListField(child=serializers.CharField())
    marks = serializers.ListField(
        child=serializers.ChoiceField(choices=["compulsory", "stop", "loss"]),
        help_text="compulsory: a compulsory move missed; stop: a Stop! chance missed; "
        "loss: a decision that lost 3 or more (expected count)",
    )
    loss = serializers.FloatField()
    missed_compulsory = MissedCompulsorySerializer(many=True)
    missed_stop = MissedStopSerializer(allow_null=True)
    decisions = DecisionSerializer(many=True)


class PlayerReviewSerializer(serializers.Serializer[dict[str, Any]]):
    accuracy = serializers.FloatField(
        allow_null=True, help_text="100 x mean of 2^(-loss/4) over its decisions"
    )
    decisions = serializers.IntegerField()
    loss = serializers.FloatField()
    missed_compulsory = serializers.IntegerField()
    missed_stops = serializers.IntegerField()


class BudgetSerializer(serializers.Serializer[dict[str, Any]]):
    decision_steps = serializers.IntegerField(help_text="Strong-search steps per decision")
    samples = serializers.IntegerField(help_text="Play-outs scoring each line")


class ReviewSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    format = serializers.CharField(help_text="rbank-review/1")
    seconds = serializers.FloatField(help_text="The CPU time the review took")
    budget = BudgetSerializer()
    players = serializers.DictField(child=PlayerReviewSerializer(), help_text="By seat")
    turns = TurnReviewSerializer(many=True)


class ReviewApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: ReviewSerializer,
            **errors(
                404,
                409,
                more={
                    409: [
                        (
                            "In play",
                            "GAME_NOT_OVER",
                            {"message": "a game is reviewed once it is over"},
                        ),
                        (
                            "Not ready",
                            "REVIEW_PENDING",
                            {
                                "message": "the review of this game is being prepared: "
                                "try again soon"
                            },
                        ),
                    ]
                },
            ),
        },
        examples=[
            OpenApiExample(
                "A review",
                value={
                    "id": 42,
                    "format": "rbank-review/1",
                    "seconds": 6.2,
                    "budget": {"decision_steps": 12000, "samples": 8},
                    "players": {
                        "A": {
                            "accuracy": 91.5,
                            "decisions": 80,
                            "loss": 41.2,
                            "missed_compulsory": 1,
                            "missed_stops": 0,
                        }
                    },
                    "turns": [
                        {
                            "turn": 1,
                            "seat": "A",
                            "index": 0,
                            "moves": ["T", "C-W"],
                            "marks": ["compulsory"],
                            "loss": 0.0,
                            "missed_compulsory": [
                                {
                                    "index": 1,
                                    "move": "C-W",
                                    "violation": "S2",
                                    "compulsory": ["C-F3"],
                                }
                            ],
                            "missed_stop": None,
                            "decisions": [],
                        }
                    ],
                },
                response_only=True,
            )
        ],
        summary="The review of a finished game: slips, Stop! chances, the strong player's lines",
        description="To its players, and to anyone once a public game is over. 409 "
        "GAME_NOT_OVER while it is played, 409 REVIEW_PENDING until the review is ready "
        "(docs/review.md).",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, _seat = selectors.game_to_watch(request.user, game_id)
        return Response(ReviewSerializer(services.review_of(game)).data)
