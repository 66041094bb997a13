"""The event stream's transport: events published after their commit reach the open
streams of every web process.

Each web process runs one ``Hub`` on its event loop, which holds the open streams by
player. ``publish`` (called on commit, from any process) hands the events over:

- with ``REDIS_URL``, through the Redis channel ``STREAM_CHANNEL``, to which every web
  process's hub subscribes; a hub also reads the events table every
  ``STREAM_SAFETY_POLL_SECONDS``, so an event whose publication was lost (Redis away
  for a moment) still arrives, late;
- without it (``make run``: no server), straight to this process's hub, and every
  ``STREAM_POLL_SECONDS`` each hub reads the events table for what other processes
  wrote (the worker's computer players and deadline sweep).

A hub passes each event id on once, whichever way it came. The table is read back
``LOOKBACK`` seconds, not from the last id seen: ids are taken when a transaction
writes, so one that commits later can carry a lower id than an event already read.
A hub reads nothing while no stream is open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections
from django.utils import timezone

from .models import Event

logger = logging.getLogger(__name__)

#: How far back a hub reads the events table (longer than any transaction that writes one).
LOOKBACK = 30.0
#: Events one stream may have waiting; a client that reads slower is cut off and resumes
#: from its Last-Event-ID.
QUEUE_SIZE = 1000
#: Stored events read at a time by a reconnecting client's catch-up.
PAGE_SIZE = 1000
#: With Redis, the safety net's period.
SAFETY_POLL_SECONDS = 5.0

T = TypeVar("T")

#: The message that tells a stream to end (its client fell too far behind).
CLOSE: dict[str, Any] = {}


class TooManyStreams(Exception):
    """The player already holds ``settings.STREAM_MAX_PER_USER`` streams here."""


async def in_thread(function: Callable[[], T]) -> T:
    """Run ORM code from the event loop in a worker thread, with Django's connection
    hygiene (a stream is no request: nothing else closes what it opened)."""

    def call() -> T:
        close_old_connections()
        try:
            return function()
        finally:
            close_old_connections()

    return await sync_to_async(call, thread_sensitive=False)()


def encode(rows: list[Event]) -> str:
    return json.dumps(
        [{"user": row.user_id, "event": row.as_json()} for row in rows], cls=DjangoJSONEncoder
    )


def publish(rows: list[Event]) -> None:
    """After the commit: every web process's hub gets ``rows``. Never raises: the
    action has committed, and a lost publication is read back from the table."""
    message = encode(rows)
    for hub in list(_hubs.values()):
        with contextlib.suppress(RuntimeError):  # its loop has closed
            hub.loop.call_soon_threadsafe(hub.take, message)
    if settings.REDIS_URL:
        try:
            _redis().publish(settings.STREAM_CHANNEL, message)
        except Exception as exc:
            logger.warning("could not publish %s event(s) to Redis: %r", len(rows), exc)


_client: Any = None


def _redis() -> Any:
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(
            settings.REDIS_URL,
            socket_connect_timeout=settings.REDIS_TIMEOUT,
            socket_timeout=settings.REDIS_TIMEOUT,
        )
    return _client


@dataclass(eq=False)
class Stream:
    """One open stream: its player, the events waiting to be written to it, and the ids
    it must not pass on (sent in its catch-up, or committed before its client asked)."""

    user_id: int
    known: set[int] = field(default_factory=set)
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))


class Hub:
    """This process's open streams, fed by ``publish`` and the table."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.streams: dict[int, set[Stream]] = {}
        self.seen: dict[int, float] = {}  # event id -> when it was passed on
        self.task = loop.create_task(self._run())

    def open(self, user_id: int, known: set[int]) -> Stream:
        streams = self.streams.setdefault(user_id, set())
        if len(streams) >= settings.STREAM_MAX_PER_USER:
            raise TooManyStreams
        stream = Stream(user_id, known)
        streams.add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        streams = self.streams.get(stream.user_id, set())
        streams.discard(stream)
        if not streams:
            self.streams.pop(stream.user_id, None)

    @property
    def count(self) -> int:
        return sum(len(streams) for streams in self.streams.values())

    def take(self, message: str) -> None:
        """Pass on the events of a published message (as ``encode`` wrote it)."""
        self.deliver((item["user"], item["event"]) for item in json.loads(message))

    def deliver(self, items: Any) -> None:
        now = time.monotonic()
        for user_id, event in items:
            if event["id"] in self.seen:
                continue
            self.seen[event["id"]] = now
            for stream in list(self.streams.get(user_id, ())):
                if event["id"] in stream.known:
                    continue
                try:
                    stream.queue.put_nowait(event)
                except asyncio.QueueFull:
                    logger.warning("stream of user %s fell behind: closed", user_id)
                    self.close(stream)
                    stream.queue.get_nowait()  # room for the end
                    stream.queue.put_nowait(CLOSE)

    async def _run(self) -> None:
        tasks = [self._poll(SAFETY_POLL_SECONDS if settings.REDIS_URL else None)]
        if settings.REDIS_URL:
            tasks.append(self._subscribe())
        await asyncio.gather(*tasks)

    async def _poll(self, every: float | None) -> None:
        """Read the table's recent events for the players with a stream open here."""
        while True:
            await asyncio.sleep(every or settings.STREAM_POLL_SECONDS)
            self._forget()
            if not self.streams:
                continue
            users, seen = set(self.streams), set(self.seen)
            try:
                rows = await in_thread(partial(_unseen, users, seen))
            except Exception as exc:
                logger.warning("could not read the events table: %r", exc)
                continue
            self.deliver((row.user_id, row.as_json()) for row in rows)

    def _forget(self) -> None:
        """Ids older than twice the lookback can no longer come back from the table."""
        horizon = time.monotonic() - 2 * LOOKBACK
        for event_id in [key for key, seen in self.seen.items() if seen < horizon]:
            del self.seen[event_id]

    async def _subscribe(self) -> None:
        """Follow the Redis channel; reconnect when it goes away (the table fills the gap)."""
        import redis.asyncio

        while True:
            client = redis.asyncio.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=settings.REDIS_TIMEOUT
            )
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(settings.STREAM_CHANNEL)
                    async for message in pubsub.listen():
                        if message["type"] == "message":
                            self.take(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.warning("event channel lost, reconnecting: %r", exc)
                await asyncio.sleep(1)
            finally:
                await client.aclose()


def _unseen(users: set[int], seen: set[int]) -> list[Event]:
    """The events of the last ``LOOKBACK`` seconds for ``users`` not in ``seen``: their
    ids first (a narrow read of the index), then only the new rows."""
    since = timezone.now() - timedelta(seconds=LOOKBACK)
    recent = Event.objects.filter(created_at__gte=since).values_list("pk", "user_id")
    new = [pk for pk, user_id in recent if user_id in users and pk not in seen]
    return list(Event.objects.filter(pk__in=new).order_by("pk")) if new else []


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The running loop's hub, started on first use."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(loop)
    return found


def known_ids(user_id: int) -> set[int]:
    """The ids of the player's events a hub may still pass on (those of the lookback
    window, committed before this read), which a stream opened now must not send: what
    commits after it reaches the stream live."""
    since = timezone.now() - timedelta(seconds=2 * LOOKBACK)
    rows = Event.objects.filter(user_id=user_id, created_at__gte=since)
    return set(rows.values_list("pk", flat=True))


def missed(user_id: int, after: int) -> list[dict[str, Any]]:
    """A page of the player's stored events after ``after``, oldest first: a
    reconnecting client's catch-up reads page after page until one is short."""
    rows = Event.objects.filter(user_id=user_id, pk__gt=after).order_by("pk")[:PAGE_SIZE]
    return [row.as_json() for row in rows]
