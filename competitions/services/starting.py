"""A competition starts: at its start date (the minute sweep, ``sweep``) or with its
last entry when it starts when full. Too few players: it is cancelled."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.lobby import ratings
from lib.errors import ServiceError

from ..models import Competition, Entry, Format
from . import running, telling

#: Competitions started by one pass of the sweep (the rest wait a minute).
SWEEP_BATCH = 20


def start(competition: Competition) -> None:
    """Under the competition's row lock: the ratings at the start are kept (they seed
    it), its first games are dealt, and its players are told."""
    entries = list(
        competition.entries.filter(withdrawn_at__isnull=True).select_related("player__profile")
    )
    if len(entries) < competition.min_players:
        competition.status = Competition.Status.CANCELLED
        competition.finished_at = timezone.now()
        competition.save(update_fields=["status", "finished_at"])
        telling.cancelled(competition, entries)
        return
    standing = ratings.standings([e.player for e in entries if e.player], competition.rating_family)
    for entry in entries:
        if entry.player is not None:
            entry.rating = float(standing[entry.player.pk].rating)
    Entry.objects.bulk_update(entries, ["rating"])
    competition.status = Competition.Status.RUNNING
    competition.started_at = timezone.now()
    competition.save(update_fields=["status", "started_at"])
    telling.started(competition, entries)
    if competition.format == Format.LADDER:
        from .ladder import first_positions

        first_positions(competition, entries)
        return
    running.first_round(competition, entries)


def start_now(competition: Competition, by: User) -> Competition:
    """Its maker (or staff) starts an open competition before its date, or before it
    is full, once its fewest players have entered. ``competition``: locked, and one
    ``by`` may see (``entering.start_now``)."""
    if competition.creator_id != by.pk and not by.is_staff:
        raise ServiceError(403, "NOT_THE_MAKER", _("only its maker starts a competition early"))
    if competition.status != Competition.Status.OPEN:
        raise ServiceError(409, "NOT_OPEN", _("this competition has started already"))
    count = competition.entries.filter(withdrawn_at__isnull=True).count()
    if count < competition.min_players:
        raise ServiceError(
            409,
            "TOO_FEW_PLAYERS",
            _("it starts with %(fewest)s players at least; %(count)s have entered")
            % {"fewest": competition.min_players, "count": count},
        )
    start(competition)
    return competition


def sweep(now: datetime | None = None) -> dict[str, int]:
    """The competitions whose start date has come start (one transaction each)."""
    now = now or timezone.now()
    due = Competition.objects.filter(
        status=Competition.Status.OPEN, starts_at__isnull=False, starts_at__lte=now
    ).values_list("pk", flat=True)[:SWEEP_BATCH]
    started = 0
    for competition_id in list(due):
        with transaction.atomic():
            competition = (
                Competition.objects.select_for_update()
                .filter(pk=competition_id, status=Competition.Status.OPEN)
                .first()
            )
            if competition is not None:
                start(competition)
                started += 1
    return {"competitions_started": started}
