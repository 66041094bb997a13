"""REST API of the players' messages at a game, and of reports of a message or a
player to support staff."""

from __future__ import annotations

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.conduct import MAX_DETAILS, report_player
from accounts.models import Report
from games import talk
from games.api.examples import MESSAGE, MESSAGE_ERRORS
from games.api.writes import HEADERS, write
from games.play import selectors, services
from lib import fields
from lib.api import player_of
from lib.errors import ServiceError
from lib.openapi import errors
from lib.pagination import ListApi
from lib.serializers import RequestBody

#: A message holds a character that is no space, no control character and no mark
#: that turns the text's direction: ``talk.clean`` takes those out, and a message with
#: nothing else is refused (400 EMPTY_MESSAGE). The schema says so.
MESSAGE_PATTERN = (
    r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202a-\u202f\u205f"
    r"\u2066-\u2069\u3000]"
)


@extend_schema_field(
    {
        "type": "string",
        "minLength": 1,
        "maxLength": talk.MAX_LENGTH,
        "pattern": MESSAGE_PATTERN,
    }
)
class MessageTextField(fields.CharField):
    """A message as the player typed it: ``games.talk`` cleans it and refuses an empty
    one (EMPTY_MESSAGE); here only what the schema states is checked, the length as
    sent (MESSAGE_TOO_LONG). Control characters (a null one too) are the service's to
    take out, not a reason to refuse the request."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, **kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]

    def run_validation(self, data: Any = empty) -> Any:
        if data == "":
            return data  # EMPTY_MESSAGE, as the service says of every empty message
        return super().run_validation(data)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        if len(text) > talk.MAX_LENGTH:
            raise talk.too_long(len(text))
        return text


class MessageSerializer(serializers.Serializer[dict[str, Any]]):
    """A message at a game (docs/messages.md), as the API and the events give it."""

    id = fields.IntegerField(help_text="What POST /api/v1/reports/ names to report it")
    seat = fields.CharField(help_text="The writer's seat")
    author = fields.CharField(help_text='The writer\'s username ("deleted player" once gone)')
    text = fields.CharField(
        help_text="Plain text, as the player wrote it (lines end with \\n): never markup, "
        "show it as text"
    )
    ply = fields.IntegerField(
        help_text="The record's length when it was written: it follows that many entries "
        "of the log (0: before the first move)"
    )
    created_at = serializers.DateTimeField()


class WriteMessageSerializer(RequestBody):
    text = MessageTextField(
        help_text="Plain text, at most 500 characters as sent; control characters are "
        "taken out, and a message with nothing else is refused (EMPTY_MESSAGE)"
    )


class MessageListApi(ListApi):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: MessageSerializer(many=True), **errors(400, 404)},
        examples=[MESSAGE],
        summary="The messages at a game you may read, oldest first",
        description="A player reads every message but those of players they block; a "
        "public game's spectator none while it is played, all once it is over.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, seat = selectors.game_to_watch(request.user, game_id)
        return self.page(
            request,
            talk.messages_for(game, request.user, seat),
            lambda message: MessageSerializer(talk.as_data(message, game)).data,
        )

    @extend_schema(
        request=WriteMessageSerializer,
        responses={201: MessageSerializer, **errors(400, 404, 409, 413, more=MESSAGE_ERRORS)},
        examples=[
            OpenApiExample(
                "Between turns", value={"text": "Away until Monday, sorry!"}, request_only=True
            ),
            MESSAGE,
        ],
        parameters=HEADERS,
        summary="Write to the other players at a game you play (at any time)",
        description="On your turn the message goes with the turn (the next player reads it "
        "in their your_turn event and e-mail); otherwise the others are told at once (a "
        "message event and e-mail). A message changes no version: If-Match is not checked.",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = WriteMessageSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = player_of(request)
        message = services.write_message(
            game_id=game_id, user=user, text=data.validated_data["text"]
        )
        game = selectors.game_for(user, game_id)
        return Response(MessageSerializer(talk.as_data(message, game)).data, status=201)


class ReportSerializer(RequestBody):
    message = fields.IntegerField(
        required=False, min_value=1, help_text="A message's id (GET .../messages/)"
    )
    player = fields.CharField(
        required=False, max_length=150, trim_whitespace=False, help_text="A player's username"
    )
    reason = serializers.ChoiceField(
        choices=Report.Reason.values, help_text="abuse, spam, cheating or other"
    )
    details = fields.CharField(
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        max_length=MAX_DETAILS,
        help_text="What happened, for support staff",
    )


class ReportOutSerializer(serializers.Serializer[dict[str, Any]]):
    id = fields.IntegerField()
    reason = serializers.ChoiceField(choices=Report.Reason.values)
    created_at = serializers.DateTimeField()


class ReportApi(APIView):
    @extend_schema(
        request=ReportSerializer,
        responses={
            201: ReportOutSerializer,
            **errors(
                400,
                404,
                413,
                more={
                    400: [
                        (
                            "Your own message",
                            "SAME_PLAYER",
                            {"message": "you cannot report your own message"},
                        )
                    ],
                    404: [
                        (
                            "A message you may not read",
                            "NOT_FOUND",
                            {"message": "no such message"},
                        ),
                        (
                            "No such player",
                            "NO_SUCH_PLAYER",
                            {"message": "there is no player called 'malory'"},
                        ),
                    ],
                    429: [
                        (
                            "Too many reports",
                            "TOO_MANY_REPORTS",
                            {
                                "message": "at most 20 reports a day: support staff will "
                                "read those you sent"
                            },
                        )
                    ],
                },
            ),
        },
        examples=[
            OpenApiExample(
                "A message", value={"message": 812, "reason": "abuse"}, request_only=True
            ),
            OpenApiExample(
                "A player",
                value={
                    "player": "mallory",
                    "reason": "cheating",
                    "details": "Plays the engine's first legal move, instantly, every time.",
                },
                request_only=True,
            ),
            OpenApiExample(
                "Reported",
                value={"id": 31, "reason": "abuse", "created_at": "2026-11-25T09:20:00Z"},
                response_only=True,
            ),
        ],
        summary="Report a message or a player to support staff (docs/conduct.md)",
        description="Exactly one of message (one you may read, not yours) or player. A "
        "message is reported once by each player: a second report answers the first. "
        "Whoever is reported is never told by whom.",
    )
    def post(self, request: Request) -> Response:
        data = ReportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if ("message" in values) == ("player" in values):
            raise ServiceError(
                400,
                "BAD_REQUEST",
                _("give exactly one of: message (its id) or player (a username)"),
            )
        user = player_of(request)
        if "message" in values:
            report = talk.report_message(
                user, values["message"], reason=values["reason"], details=values["details"]
            )
        else:
            report = report_player(
                user, values["player"], reason=values["reason"], details=values["details"]
            )
        return Response(
            ReportOutSerializer(
                {"id": report.pk, "reason": report.reason, "created_at": report.created_at}
            ).data,
            status=201,
        )
