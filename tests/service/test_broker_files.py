"""The embedded broker (rbank_site/broker.py): a worker never sees half a message.

kombu's filesystem transport creates a message's file before writing it; a consumer
listing the folder in between took the empty file and died on its JSON. Here one
thread sends while another takes, as fast as they can: every message arrives whole.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from kombu.connection import Connection

import rbank_site.broker  # noqa: F401  (registers the files:// transport)


def connection(folder: Path) -> Connection:
    return Connection(  # type: ignore[no-untyped-call]
        "files://",
        transport_options={
            "data_folder_in": str(folder),
            "data_folder_out": str(folder),
            "store_processed": False,
            "polling_interval": 0,
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
            message = queue.get(timeout=30)
            received.append(message.payload)
            message.ack()
        queue.close()
    sender.join()
    assert sorted(m["n"] for m in received) == list(range(count))  # order within a ms: any
    assert all(m["payload"] == payload for m in received)
    assert not list(tmp_path.glob(".*.partial"))
