"""Workers racing for the same rows: threads of this process, each with its own
database connection, started together."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def race(workers: int, work: Callable[[], None]) -> None:
    """Run ``work`` in ``workers`` threads released at the same moment; return once
    all have ended (each closes its connection)."""
    barrier = threading.Barrier(workers)

    def worker() -> None:
        try:
            barrier.wait()
            work()
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
