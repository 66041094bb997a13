"""Celery beat's scheduler, with a heartbeat: every tick touches a file, so a health
check can tell a live beat from a hung or dead one by the file's age."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from celery.beat import PersistentScheduler
from django.conf import settings


class HeartbeatScheduler(PersistentScheduler):  # type: ignore[misc]
    def tick(self, *args: Any, **kwargs: Any) -> float:
        Path(settings.BEAT_HEARTBEAT_FILE).touch()
        interval: float = super().tick(*args, **kwargs)
        return interval
