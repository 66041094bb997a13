"""Celery beat's scheduler: one beat at a time, with a heartbeat.

A deployment runs one beat. A second one started by mistake (another machine, a
restart that overlapped) must send nothing twice: each beat first takes the database
lock ``beat`` (``games.models.Lock``), and only its holder opens the schedule and sends
tasks. The holder renews it at every tick (at least once a minute); another beat waits,
and takes over once a holder that died has let it run out (``BEAT_LOCK_SECONDS``).

Every tick touches a file, so a health check can tell a live beat from a hung or dead
one by the file's age.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import time
import uuid
from pathlib import Path
from typing import Any

from celery.beat import PersistentScheduler
from django.conf import settings
from django.db import close_old_connections

logger = logging.getLogger(__name__)

LOCK = "beat"


class HeartbeatScheduler(PersistentScheduler):  # type: ignore[misc]
    holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

    def setup_schedule(self) -> None:
        # Before the schedule file is opened: a waiting beat touches nothing of the holder's.
        self._wait_for_the_lock()
        super().setup_schedule()

    def tick(self, *args: Any, **kwargs: Any) -> float:
        Path(settings.BEAT_HEARTBEAT_FILE).touch()
        if not self._take():
            # Another beat has it (this one was stopped longer than the lock lasts):
            # stop sending at once, and leave; the service's supervisor restarts it.
            logger.error("beat lock lost to another beat: this beat stops")
            raise SystemExit(1)
        interval: float = super().tick(*args, **kwargs)
        return min(interval, settings.BEAT_LOCK_SECONDS / 3)

    def close(self) -> None:
        super().close()
        try:
            from games.models import Lock

            Lock.release(LOCK, self.holder)
        except Exception as exc:  # it runs out by itself
            logger.warning("could not release the beat lock: %r", exc)

    def _take(self) -> bool:
        from games.models import Lock  # Django is set up by then, not at this import

        close_old_connections()
        try:
            return Lock.take(LOCK, self.holder, settings.BEAT_LOCK_SECONDS)
        except Exception as exc:
            logger.warning("could not take the beat lock: %r", exc)
            return False

    def _wait_for_the_lock(self) -> None:
        # Celery's own handlers would save the schedule, which is not open yet (and
        # would open it): a waiting beat has nothing to save, a signal ends it at once.
        handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
        for signum in handlers:
            signal.signal(signum, _leave)
        said = False
        try:
            while not self._take():
                if not said:
                    logger.warning("another beat holds the lock: this one waits, sending nothing")
                    said = True
                Path(settings.BEAT_HEARTBEAT_FILE).touch()  # alive, standing by
                time.sleep(min(5.0, settings.BEAT_LOCK_SECONDS / 3))
        finally:
            for signum, handler in handlers.items():
                signal.signal(signum, handler)
        logger.info("beat lock taken holder=%s", self.holder)


def _leave(signum: int, frame: object) -> None:
    raise SystemExit(0)
