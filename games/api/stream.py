"""``GET /api/v1/stream/events/``: one long-lived stream of a player's events.

Server-Sent Events by default (``text/event-stream``: each event's ``id:`` is its id,
``event:`` its kind, ``data:`` its JSON), or one JSON object per line for
``Accept: application/x-ndjson``. ``Last-Event-ID`` (the header browsers send again
on their own, or ``?since=``) replays the stored events after that id first. A
comment (SSE) or an empty line (NDJSON) every ``STREAM_HEARTBEAT_SECONDS`` keeps idle
connections and the proxies between alive.

A stream opened by a game page names its game (``?game=N``): while it is open, the
player counts as looking at that game (``games.play.presence``, refreshed every third of
``PRESENCE_SECONDS``), and no "your turn" e-mail is sent for it.

An async view: it waits on the hub (``games.feed.stream``) without holding a thread or a
database connection; the ORM is used only to authenticate and to read the backlog.
The stream needs the ASGI server; under WSGI (the test server) it answers 503 at once
and the game page polls.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.settings import api_settings

from games.feed.stream import (
    CLOSE,
    PAGE_SIZE,
    Stream,
    TooManyStreams,
    hub,
    in_thread,
    known_ids,
    missed,
)
from games.feed.stream_auth import Credential, credential_of
from games.play import presence

SSE = "text/event-stream"
NDJSON = "application/x-ndjson"


@dataclass(frozen=True)
class Format:
    content_type: str
    preamble: str
    heartbeat: str

    def event(self, event: dict[str, Any]) -> str:
        data = json.dumps(event, cls=DjangoJSONEncoder, separators=(",", ":"))
        if self.content_type == NDJSON:
            return data + "\n"
        return f"id: {event['id']}\nevent: {event['kind']}\ndata: {data}\n\n"


FORMATS = {
    # The browser's EventSource reconnects after ``retry`` ms, sending Last-Event-ID.
    SSE: Format(SSE, "retry: 3000\n: connected\n\n", ": heartbeat\n\n"),
    NDJSON: Format(NDJSON, "", "\n"),
}


def error(status: int, code: str, message: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"error": code, "message": message}, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


def negotiate(accept: str) -> Format | None:
    """NDJSON when asked for by name, else SSE; None when neither is acceptable."""
    kinds = {part.split(";")[0].strip().lower() for part in accept.split(",")} - {""}
    if NDJSON in kinds:
        return FORMATS[NDJSON]
    if not kinds or kinds & {SSE, "*/*", "text/*"}:
        return FORMATS[SSE]
    return None


def resume_from(request: HttpRequest) -> int | None:
    """The id after which to replay the stored events (``Last-Event-ID``, else
    ``?since=``; 0: all that are kept), None for a new stream; ValueError if no id."""
    text = request.headers.get("Last-Event-ID") or request.GET.get("since")
    if text is None:
        return None
    text = text.strip()
    if not (text.isdigit() and len(text) < 19):
        raise ValueError(text)
    return int(text)


def watched_game(request: HttpRequest) -> int | None:
    """The game whose page opened the stream (``?game=``), None for none; ValueError
    for a value that is no game id."""
    text = request.GET.get("game")
    if text is None:
        return None
    text = text.strip()
    if not (text.isascii() and text.isdigit() and len(text) < 19 and int(text) > 0):
        raise ValueError(text)
    return int(text)


def authenticate(request: HttpRequest) -> Credential | None:
    """The API's own authenticators (a token, or the signed-in session): what signed
    the player in, which the stream keeps checking (``games.feed.stream_auth``)."""
    classes = cast(list[type[BaseAuthentication]], api_settings.DEFAULT_AUTHENTICATION_CLASSES)
    authenticators = [cls() for cls in classes]
    drf = Request(request, authenticators=authenticators)
    return credential_of(drf, request) if drf.user.is_authenticated else None


def holds_streams(request: HttpRequest) -> bool:
    """Whether the server that took ``request`` can hold a stream open (ASGI)."""
    return isinstance(request, ASGIRequest)


@csrf_exempt  # it takes no write: any other method is its 405, not Django's CSRF page
async def events(request: HttpRequest) -> HttpResponseBase:
    if request.method not in ("GET", "HEAD"):
        return error(
            405,
            "METHOD_NOT_ALLOWED",
            _("method %(method)s not allowed") % {"method": request.method},
            Allow="GET, HEAD",
        )
    form = negotiate(request.headers.get("Accept", ""))
    if form is None:
        return error(
            406,
            "NOT_ACCEPTABLE",
            _("the stream is sent as %(sse)s or %(ndjson)s") % {"sse": SSE, "ndjson": NDJSON},
        )
    try:
        after = resume_from(request)
    except ValueError:
        return error(400, "BAD_REQUEST", _("Last-Event-ID (or since) must be an event id"))
    try:
        game_id = watched_game(request)
    except ValueError:
        return error(400, "BAD_REQUEST", _("game must be a game's id"))
    try:
        credential = await in_thread(lambda: authenticate(request))
    except APIException as exc:
        return error(401, "NOT_AUTHENTICATED", str(exc.detail))
    if credential is None:
        return error(401, "NOT_AUTHENTICATED", _("sign in, or send Authorization: Token <key>"))
    if not holds_streams(request):
        unavailable = _("this server holds no streams: poll GET /api/v1/games/")
        return error(503, "STREAM_UNAVAILABLE", unavailable, **{"Retry-After": "60"})
    known = await in_thread(lambda: known_ids(credential.user_id))
    try:
        stream = await hub().open(credential, known)
    except TooManyStreams:
        limit = settings.STREAM_MAX_PER_USER
        return error(
            429,
            "TOO_MANY_STREAMS",
            _("at most %(count)s open streams per player") % {"count": limit},
        )
    looking = None if game_id is None else (credential.user_id, game_id)
    response = StreamingHttpResponse(
        flow(stream, after, form, looking), content_type=form.content_type
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def flow(
    stream: Stream, after: int | None, form: Format, looking: tuple[int, int] | None = None
) -> AsyncGenerator[str, None]:
    """What the client reads: every stored event it missed (after ``after``), a page
    at a time, then each new one as it comes (none it has had, or that came before it
    asked). ``looking``: the player and the game whose page opened the stream, marked
    present while it is open."""
    refresh = presence.seconds() / 3
    marked = -refresh
    loop = asyncio.get_running_loop()
    try:
        if form.preamble:
            yield form.preamble
        while after is not None and not stream.ended:
            page = await in_thread(partial(missed, stream.user_id, after))
            for event in page:
                stream.known.add(event["id"])
                yield form.event(event)
            after = page[-1]["id"] if len(page) == PAGE_SIZE else None
        while True:
            if looking is not None and loop.time() - marked >= refresh:
                await presence.amark(*looking)
                marked = loop.time()
            try:
                event = await asyncio.wait_for(
                    stream.queue.get(), min(settings.STREAM_HEARTBEAT_SECONDS, refresh)
                )
            except TimeoutError:
                yield form.heartbeat
                continue
            if event is CLOSE or stream.ended:
                return
            if event["id"] not in stream.known:
                yield form.event(event)
    finally:
        hub().close(stream)
