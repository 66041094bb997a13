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

A player's open streams are counted across every web process (``STREAM_MAX_PER_USER``):
each holds a lease row, which its hub renews while it lives (``games.feed.stream_leases``).

A stream ends when what signed it in no longer holds (a token revoked, an account
deleted or turned off, a session ended: ``games.feed.stream_auth``). ``recheck`` (called on
commit, from any process, when a player's credentials change) has the hubs check that
player's streams at once: this process's directly, the others' through
``STREAM_CHANNEL``'s companion channel when there is Redis. And every
``STREAM_CREDENTIAL_SECONDS`` each hub checks all its streams against the database,
which catches what no one told (another process without Redis, a session that
expired, a row deleted by hand).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections, transaction
from django.utils import timezone

from accounts.models import ApiToken
from games.feed import stream_leases
from games.feed.stream_auth import Credential, still_valid
from games.models import Event

logger = logging.getLogger(__name__)

#: How far back a hub reads the events table (longer than any transaction that writes one).
LOOKBACK = 30.0
#: Events one stream may have waiting; a client that reads slower is cut off and resumes
#: from its Last-Event-ID.
QUEUE_SIZE = 1000
#: Stored events read at a time by a reconnecting client's catch-up.
PAGE_SIZE = 1000

T = TypeVar("T")

#: The message that tells a stream to end (its client fell too far behind, or its
#: credential no longer holds).
CLOSE: dict[str, Any] = {}


class TooManyStreams(Exception):
    """The player already holds ``settings.STREAM_MAX_PER_USER`` streams, on any process."""


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
    _tell(settings.STREAM_CHANNEL, encode(rows), f"{len(rows)} event(s)")


def recheck(user_ids: list[int]) -> None:
    """After the commit: the credentials of these players changed (a token revoked, a
    logout, an account deleted or changed); every web process's hub checks their
    streams now. Never raises: the periodic check ends them a few seconds later."""
    _tell(revoked_channel(), json.dumps(sorted(set(user_ids))), "a credential check")


def revoked_channel() -> str:
    return f"{settings.STREAM_CHANNEL}:recheck"


def credentials_changed(sender: object, **kwargs: Any) -> None:
    """A receiver of what may end a player's streams: a token deleted, an account
    deleted or saved (turned off, a new password), a logout. Their streams are checked
    once it commits. A login's own save (``last_login``) changes nothing."""
    if set(kwargs.get("update_fields") or ()) == {"last_login"}:
        return
    instance, user = kwargs.get("instance"), kwargs.get("user")
    if isinstance(instance, ApiToken):
        user_id = instance.user_id
    elif isinstance(instance, User):
        user_id = instance.pk
    elif isinstance(user, User):  # user_logged_out (user is None when nobody was in)
        user_id = user.pk
    else:
        return
    transaction.on_commit(partial(recheck, [user_id]))


def _tell(channel: str, message: str, what: str) -> None:
    """``message`` to every hub: this process's at once, the others' through Redis."""
    for hub in list(_hubs.values()):
        with contextlib.suppress(RuntimeError):  # its loop has closed
            hub.loop.call_soon_threadsafe(hub.receive, channel, message)
    if settings.REDIS_URL:
        try:
            _redis().publish(channel, message)
        except Exception as exc:
            logger.warning("could not publish %s to Redis: %r", what, exc)


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
    """One open stream: what signed it in, the events waiting to be written to it, and
    the ids it must not pass on (sent in its catch-up, or committed before its client
    asked), its lease (``games.feed.stream_leases``). ``ended``: the hub has closed it
    (the client reads no more)."""

    credential: Credential
    known: set[int] = field(default_factory=set)
    lease: int | None = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    ended: bool = False

    @property
    def user_id(self) -> int:
        return self.credential.user_id


class Hub:
    """This process's open streams, fed by ``publish`` and the table."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.id = uuid.uuid4().hex  # its leases' holder
        self.streams: dict[int, set[Stream]] = {}
        self.seen: dict[int, float] = {}  # event id -> when it was passed on
        self.checks: set[asyncio.Task[None]] = set()
        self.task = loop.create_task(self._run())

    async def open(self, credential: Credential, known: set[int]) -> Stream:
        lease = await in_thread(partial(stream_leases.take, credential.user_id, self.id))
        if lease is None:
            raise TooManyStreams
        stream = Stream(credential, known, lease=lease)
        self.streams.setdefault(credential.user_id, set()).add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        streams = self.streams.get(stream.user_id, set())
        if stream in streams and stream.lease is not None:
            self._spawn(self._release(stream.lease))
        streams.discard(stream)
        if not streams:
            self.streams.pop(stream.user_id, None)

    async def _release(self, lease: int) -> None:
        try:
            await in_thread(partial(stream_leases.release, [lease]))
        except Exception as exc:  # the next renewal drops it
            logger.warning("could not release a stream's lease: %r", exc)

    def _spawn(self, work: Any) -> None:
        try:
            task = self.loop.create_task(work)
        except RuntimeError:  # the loop is closing: a lease left runs out by itself
            work.close()
            return
        self.checks.add(task)  # held until done (the loop keeps only a weak reference)
        task.add_done_callback(self.checks.discard)

    def end(self, stream: Stream) -> None:
        """Close ``stream`` and tell its reader, whatever it has waiting."""
        self.close(stream)
        stream.ended = True
        with contextlib.suppress(asyncio.QueueEmpty):
            stream.queue.get_nowait()  # room for the end
        stream.queue.put_nowait(CLOSE)

    @property
    def count(self) -> int:
        return sum(len(streams) for streams in self.streams.values())

    def receive(self, channel: str | bytes, message: str | bytes) -> None:
        """A message published on ``channel``: events, or players to check."""
        if isinstance(channel, bytes):
            channel = channel.decode()
        if channel == revoked_channel():
            self._spawn(self.check(json.loads(message)))
        else:
            self.take(message)

    def take(self, message: str | bytes) -> None:
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
                    self.end(stream)

    async def check(self, user_ids: list[int] | None = None) -> None:
        """End the streams (of ``user_ids``, else all) whose credential no longer holds."""
        users = set(self.streams) if user_ids is None else set(user_ids) & set(self.streams)
        streams = [stream for user in users for stream in self.streams.get(user, ())]
        if not streams:
            return
        credentials = {stream.credential for stream in streams}
        try:
            valid = await in_thread(partial(still_valid, credentials))
        except Exception as exc:
            logger.warning("could not check the streams' credentials: %r", exc)
            return
        for stream in streams:
            if stream.credential not in valid and not stream.ended:
                logger.info(
                    "stream of user %s ended: %r no longer holds", stream.user_id, stream.credential
                )
                self.end(stream)

    async def _run(self) -> None:
        tasks = [
            self._poll(settings.STREAM_SAFETY_POLL_SECONDS if settings.REDIS_URL else None),
            self._check_every(settings.STREAM_CREDENTIAL_SECONDS),
            self._renew_every(settings.STREAM_LEASE_SECONDS / 3),
        ]
        if settings.REDIS_URL:
            tasks.append(self._subscribe())
        await asyncio.gather(*tasks)

    async def _check_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            await self.check()

    async def _renew_every(self, seconds: float) -> None:
        """Keep this hub's leases alive (a hub that has never held one has none)."""
        held_any = False
        while True:
            await asyncio.sleep(seconds)
            held = [s.lease for streams in self.streams.values() for s in streams if s.lease]
            held_any = held_any or bool(held)
            if not held_any:
                continue
            try:
                await in_thread(partial(stream_leases.renew, self.id, held))
            except Exception as exc:
                logger.warning("could not renew the streams' leases: %r", exc)

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
                    await pubsub.subscribe(settings.STREAM_CHANNEL, revoked_channel())
                    async for message in pubsub.listen():
                        if message["type"] == "message":
                            self.receive(message["channel"], message["data"])
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
