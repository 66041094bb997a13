"""The broker of the embedded default: kombu's filesystem transport, with its messages
written whole before a worker can see them.

kombu's own ``_put`` creates the message file, then writes it; a worker that lists
the folder in between moves the empty file away and dies on the JSON it cannot read
(seen as ``Unrecoverable error: JSONDecodeError`` once workers poll a few times a
second), or, when the move crosses file systems, loses the message. Here each message
is written to a hidden temporary file in the same folder, then renamed to its name:
a rename within a folder is atomic, so a worker sees a whole message or none. The
folder, the names and the reading are kombu's.

A worker looks in the folder every ``polling_interval`` (BROKER_POLLING_INTERVAL), and
kombu's loop also sleeps that long when every process of the worker is busy: each
task that ended then left its process idle for up to a polling interval before the
next message was taken, which a burst of e-mailed replies paid once a task. While
the worker is full, it looks again every ``BUSY_POLLING_INTERVAL`` instead: that
costs no listing of the folder, only the count of messages in hand.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic, sleep
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.transport.virtual import Empty
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

#: The URL scheme the settings use for it: ``files://``.
SCHEME = "files"
#: Seconds between two looks while every process of the worker is busy.
BUSY_POLLING_INTERVAL = 0.005


class Channel(filesystem.Channel):
    def _put(self, queue: Any, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"  # kombu's order
        final = os.path.join(self.data_folder_out, name)
        # Hidden, and without the ".<queue>.msg" ending a worker looks for.
        partial = os.path.join(self.data_folder_out, f".{uuid.uuid4()}.partial")
        try:
            with open(partial, "wb") as out:
                out.write(str_to_bytes(dumps(payload)))  # type: ignore[no-untyped-call]
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def drain_events(self, timeout: float | None = None, callback: Any = None) -> Any:
        # Full: kombu raises Empty without looking; the transport is told, so that it
        # looks again soon rather than after a whole polling interval.
        if self._consumers:  # a channel that only publishes says nothing of it
            self.connection.full = not self.qos.can_consume()
        return super().drain_events(timeout, callback)  # type: ignore[no-untyped-call]


class Transport(filesystem.Transport):
    Channel = Channel
    #: Whether the last look found every process busy (set by the channel).
    full = False

    def drain_events(self, connection: Any, timeout: float | None = None, **_: Any) -> None:
        """kombu's loop, sleeping ``BUSY_POLLING_INTERVAL`` while the worker is full."""
        started = monotonic()
        cycle = self.cycle
        assert cycle is not None  # made with the transport's first channel
        while True:
            try:
                cycle.get(self._deliver, timeout=timeout)  # type: ignore[no-untyped-call]
            except Empty:
                if timeout is not None and monotonic() - started >= timeout:
                    raise TimeoutError() from None
                interval = BUSY_POLLING_INTERVAL if self.full else self.polling_interval
                if timeout and interval and interval > timeout:
                    interval = timeout
                if interval:
                    sleep(interval)
            else:
                return


TRANSPORT_ALIASES.setdefault(SCHEME, f"{__name__}:Transport")
