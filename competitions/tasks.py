"""Competitions' task: the minute sweep (Celery beat, ``config.settings_tasks``)."""

from __future__ import annotations

from celery import shared_task

from .services import starting


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]
def sweep() -> dict[str, int]:
    """Every minute: the competitions whose start date has come start."""
    return starting.sweep()
