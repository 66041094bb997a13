"""The embedded broker (lib/broker.py): a worker never sees half a message, and
a full worker takes the next message as soon as a process is free.

kombu's filesystem transport creates a message's file before writing it; a consumer
listing the folder in between took the empty file and died on its JSON. Here one
thread sends while another takes, as fast as they can: every message arrives whole.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from kombu.connection import Connection

import lib.broker  # noqa: F401  (registers the files:// transport)


def connection(folder: Path, polling_interval: float = 0) -> Connection:
    return Connection(  # type: ignore[no-untyped-call]
        "files://",
        transport_options={
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "control_folder": str(folder / "control"),  # not the working directory's
            "store_processed": False,
            "polling_interval": polling_interval,
        },
    )


def test_every_message_taken_while_others_are_written_is_whole(tmp_path: Path) -> None:
    count = 400
    payload = "x" * 20_000  # long enough for a write to be caught halfway

    def send() -> None:
        with connection(tmp_path) as conn:
            queue = conn.SimpleQueue("race")
            for n in range(count):
                queue.put({"n": n, "payload": payload})
            queue.close()

    sender = threading.Thread(target=send)
    sender.start()
    received: list[dict[str, Any]] = []
    with connection(tmp_path) as conn:
        queue = conn.SimpleQueue("race")
        while len(received) < count:
            # Wholeness is the point, not speed: a loaded machine may starve the sender.
            message = queue.get(timeout=180)
            received.append(message.payload)
            message.ack()
        queue.close()
    sender.join()
    assert sorted(m["n"] for m in received) == list(range(count))  # order within a ms: any
    assert all(m["payload"] == payload for m in received)
    assert not list(tmp_path.glob(".*.partial"))


def test_a_full_worker_takes_the_next_message_as_soon_as_a_task_ends(tmp_path: Path) -> None:
    """A worker whose every process is busy (its prefetch used up) used to sleep a whole
    polling interval before looking again: each task of a burst of e-mailed replies
    then waited up to that long after the one before it ended."""
    polling = 2.0  # seconds: long, so that a look at the next interval shows
    taken: list[tuple[float, Any]] = []
    with connection(tmp_path, polling) as conn:
        channel = conn.default_channel
        channel.basic_qos(prefetch_count=1)  # one process, as the worker's acks_late
        queue = conn.SimpleQueue("burst", channel=channel)
        queue.put({"n": 1})
        queue.put({"n": 2})

        def consume(body: object, message: Any) -> None:
            taken.append((time.monotonic(), message))

        consumer = conn.Consumer(queue.queue, callbacks=[consume], channel=channel)
        consumer.qos(prefetch_count=1)
        with consumer:
            conn.drain_events(timeout=5)
            assert len(taken) == 1  # the worker is now full
            finished = time.monotonic() + 0.3
            threading.Timer(0.3, taken[0][1].ack).start()  # the task ends
            conn.drain_events(timeout=5)
        queue.close()
    assert len(taken) == 2
    assert taken[1][0] - finished < 0.25, "the next message waited for a polling interval"
