"""The minute sweep (Celery beat, ``games.tasks.sweep_deadlines``): idle seats forfeit,
reminders go out, the e-mails and pushes whose next attempt is due are queued again, and the
computer players whose cue was lost are cued again.

Deadlines are stored, indexed columns (``Game.deadline``, ``Game.reminder_at``); one
beat task scans them every minute. Never a Celery task scheduled days ahead: with
Redis such a task is redelivered after the visibility timeout. Every action
re-checks the deadline under the game's row lock, so a move that lands in the same
second as the sweep is never lost and never forfeited.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games.computer.bot_wake import wake_stalled
from games.notify.notifications import queue_due
from games.play.sweep import SWEEP_BATCH, due_deadlines
from games.push import sending


def sweep(now: datetime | None = None) -> dict[str, int]:
    """One pass of the minute sweep: what each part did, counted."""
    now = now or timezone.now()
    return {
        "bots_woken": wake_stalled(now, SWEEP_BATCH),
        **due_deadlines(now),
        **queue_due(now, SWEEP_BATCH),
        **sending.queue_due(now, SWEEP_BATCH),
    }
