"""REST API of a player's private note at a game (docs/notes.md): its writer's alone."""

from __future__ import annotations

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import notes
from games.play.selectors import game_for
from lib import fields
from lib.api import player_of
from lib.openapi import errors
from lib.serializers import RequestBody


class NoteTextField(fields.CharField):
    """A note as typed: ``games.notes`` takes control characters out (a null one too),
    so they are no reason to refuse the request."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]


class NoteSerializer(RequestBody):
    text = NoteTextField(
        allow_blank=True,
        trim_whitespace=False,
        max_length=notes.MAX_LENGTH,
        help_text="Plain text, at most 2,000 characters; empty deletes the note. Only you "
        "read it: never the other players, spectators, webhooks or e-mails",
    )


NOTE = OpenApiExample("A note", value={"text": "B keeps kings back: watch H6."})


class NoteApi(APIView):
    @extend_schema(
        responses={200: NoteSerializer, **errors(404)},
        examples=[NOTE],
        summary="My private note at a game I play",
        description='Only its writer reads it; "" when there is none.',
    )
    def get(self, request: Request, game_id: int) -> Response:
        user = player_of(request)
        return Response({"text": notes.note_text(game_for(user, game_id), user)})

    @extend_schema(
        request=NoteSerializer,
        responses={200: NoteSerializer, **errors(400, 404, 413)},
        examples=[NOTE],
        summary="Keep my private note at a game I play (empty deletes it)",
    )
    def put(self, request: Request, game_id: int) -> Response:
        data = NoteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values: dict[str, Any] = data.validated_data
        text = notes.write_note(game_id=game_id, user=player_of(request), text=values["text"])
        return Response({"text": text})
