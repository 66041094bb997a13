"""REST API of a player's finished games as a stream
(``/api/v1/players/{username}/games/export/``, docs/open-database.md): NDJSON or the
notation, a page at a time, the next page's address in the ``Link`` header."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from games.archive import stream
from games.engine import PRESETS
from lib.errors import ServiceError
from lib.openapi import errors

NDJSON = "application/x-ndjson"
NOTATION = "text/plain"


class JsonErrors(BaseContentNegotiation):
    """The stream writes its own body; DRF renders only its errors, in JSON. (DRF would
    otherwise read ``?format=`` as the name of one of its renderers.)"""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        return JSONRenderer(), JSONRenderer.media_type


class ExportQuery(serializers.Serializer[dict[str, Any]]):
    format = serializers.ChoiceField(
        choices=stream.FORMATS,
        default="ndjson",
        help_text="ndjson: a JSON object per line; notation: the games in the notation, "
        "a blank line between two",
    )
    since = serializers.DateField(
        required=False, help_text="Games that ended on this day (UTC) or later"
    )
    until = serializers.DateField(
        required=False, help_text="Games that ended before this day (UTC)"
    )
    rules = serializers.ChoiceField(
        choices=sorted(PRESETS), required=False, help_text="The preset the games were played by"
    )
    result = serializers.ChoiceField(
        choices=stream.RESULTS,
        required=False,
        help_text="From the player's side: won, lost, or drawn (nobody won)",
    )
    cursor = serializers.RegexField(
        stream.CURSOR_PATTERN,
        required=False,
        error_messages={"invalid": stream.BAD_CURSOR},
        help_text="Where the page starts: the cursor of the Link header's next page",
    )
    limit = serializers.IntegerField(
        min_value=1,
        max_value=stream.MAX_LIMIT,
        default=stream.DEFAULT_LIMIT,
        help_text="Games in the page",
    )


def _day(value: date | None) -> datetime | None:
    return None if value is None else datetime(value.year, value.month, value.day, tzinfo=UTC)


GAME_LINE = {
    "id": 42,
    "ended_at": "2026-10-03T12:34:56Z",
    "rules": "pagat",
    "rule_options": {},
    "stop_mode": "referee",
    "players": {"A": "alice", "B": "bob"},
    "public": True,
    "rated": True,
    "seat": "A",
    "result": "won",
    "status": "won",
    "ending": "cards",
    "winner": "A",
    "score": {"A": 57, "B": 0},
    "seed": "1234567890",
    "seed_hash": "9f2c…",
    "notation": '[Game "42"]\n[Rules "pagat"]\n…\n',
}


class PlayerGamesExportApi(APIView):
    permission_classes = [AllowAny]
    content_negotiation_class = JsonErrors

    @extend_schema(
        parameters=[ExportQuery],
        responses={
            (200, NDJSON): OpenApiResponse(
                OpenApiTypes.STR,
                examples=[
                    OpenApiExample(
                        "NDJSON",
                        value=json.dumps(GAME_LINE, ensure_ascii=False) + "\n",
                        response_only=True,
                        media_type=NDJSON,
                    )
                ],
            ),
            (200, NOTATION): OpenApiResponse(
                OpenApiTypes.STR,
                examples=[
                    OpenApiExample(
                        "The notation",
                        value='[Game "42"]\n[Rules "pagat"]\n[A "alice"]\n[B "bob"]\n'
                        '[Ended "2026-10-03T12:34:56Z"]\n[SeedHash "9f2c…"]\n'
                        '[Seed "1234567890"]\n[Status "won"]\n[Score "A=57 B=0"]\n'
                        '[Ending "cards"]\n\n1 A: H3-F1 T C-W\n…\n',
                        response_only=True,
                        media_type=NOTATION,
                    )
                ],
            ),
            **errors(400, 404),
        },
        summary="A player's finished games as a stream, NDJSON or the notation, page by page",
        description="The player's finished games in the order they ended (then by id): all "
        "of them to the player; to anyone else the public ones and the private ones they "
        "played in. Each game has its revealed seed and its result; the players' messages "
        "are not in it. A page holds `limit` games; "
        'when more follow, the `Link` header names the next page (`<…>; rel="next"`) and '
        "`X-Next-Cursor` its cursor. Pages are read by a keyset: each costs the same, "
        "however far into the games it starts.",
    )
    def get(self, request: Request, username: str) -> StreamingHttpResponse:
        player = User.objects.filter(is_active=True, username__iexact=username).first()
        if player is None:
            raise ServiceError(
                404,
                "NO_SUCH_PLAYER",
                _("there is no player called %(name)s") % {"name": repr(username)},
            )
        params = ExportQuery(data=request.query_params)
        params.is_valid(raise_exception=True)
        values = params.validated_data
        cursor = values.get("cursor")
        query = stream.Query(
            player=player,
            since=_day(values.get("since")),
            until=_day(values.get("until")),
            rules=values.get("rules"),
            result=values.get("result"),
            after=None if cursor is None else stream.Cursor.parse(cursor),
            limit=values["limit"],
        )
        found = stream.page(query, request.user)
        form = values["format"]
        response = StreamingHttpResponse(
            stream.lines(found, form),
            content_type=NDJSON if form == "ndjson" else f"{NOTATION}; charset=utf-8",
        )
        if found.next is not None:
            following = {key: value for key, value in request.query_params.items()}
            following["cursor"] = str(found.next)
            url = request.build_absolute_uri(request.path) + "?" + urlencode(following)
            response["Link"] = f'<{url}>; rel="next"'
            response["X-Next-Cursor"] = str(found.next)
        return response
