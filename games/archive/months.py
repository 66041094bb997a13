"""The open database's monthly files (docs/open-database.md).

A month's file holds every public game that ended in that month (UTC), in the order
they ended (then by id), each in the notation (``notation.game_text``), a blank line
between two games, compressed with gzip as no clock or machine changes it (no time, no
file name in the header): the same games give the same bytes, so anyone may rebuild a
month from the stored games and compare its SHA-256 (``check_month``).

Append-only: a month is written once it is closed, ``OPEN_DATABASE_CLOSE_AFTER`` after
its end (the current month never is), and a month written is never written again. Its
file is written beside its final name and renamed into place, so a reader never sees
half a file.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Min, QuerySet
from django.utils import timezone

from games.archive.notation import game_text
from games.models import SEATS, DatabaseMonth, Game

#: Games read from the database at a time while a month is written.
CHUNK = 500


class Writable(Protocol):
    def write(self, data: bytes, /) -> Any: ...


def first_day(moment: date | datetime) -> date:
    """The first day of the month ``moment`` falls in (a datetime's, in UTC)."""
    if isinstance(moment, datetime):
        moment = moment.astimezone(UTC).date()
    return moment.replace(day=1)


def next_month(month: date) -> date:
    return date(month.year + month.month // 12, month.month % 12 + 1, 1)


def start_of(month: date) -> datetime:
    return datetime(month.year, month.month, 1, tzinfo=UTC)


def file_name(month: date) -> str:
    return f"rbank-{month:%Y-%m}.txt.gz"


def file_path(row: DatabaseMonth) -> Path:
    return Path(settings.OPEN_DATABASE_DIR) / row.file_name


def is_closed(month: date, now: datetime) -> bool:
    """Whether ``month`` is over, and ``OPEN_DATABASE_CLOSE_AFTER`` with it: a game that
    ends writes its end in the transaction that commits it, so one that ended a moment
    before midnight is in the database well before the month is written."""
    return start_of(next_month(month)) + settings.OPEN_DATABASE_CLOSE_AFTER <= now


def month_games(month: date) -> QuerySet[Game]:
    """The public games that ended in ``month``, in the order they ended, then by id."""
    return (
        Game.objects.filter(
            public=True,
            finished_at__gte=start_of(month),
            finished_at__lt=start_of(next_month(month)),
            record__isnull=False,
        )
        .prefetch_related(SEATS)
        .order_by("finished_at", "pk")
    )


class Digest:
    """A file being written, with its SHA-256 and size counted on the way."""

    def __init__(self, out: Writable | None = None) -> None:
        self.out = out
        self.sha256 = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self.sha256.update(data)
        self.size += len(data)
        if self.out is not None:
            self.out.write(data)
        return len(data)

    def flush(self) -> None:
        pass


def build(month: date, out: Digest) -> int:
    """Write ``month``'s file to ``out``; returns how many games it holds."""
    count = 0
    # mtime=0 and no file name: the gzip header says nothing of when or where.
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as packed:
        for game in month_games(month).iterator(chunk_size=CHUNK):
            if count:
                packed.write(b"\n")
            packed.write(game_text(game).encode())
            count += 1
    return count


def write_month(month: date) -> DatabaseMonth | None:
    """Write ``month``'s file and its row, unless it is written already (then None):
    the file goes under a temporary name and is renamed into place in the transaction
    that records it, so a second writer at the same moment loses on the row's unique
    month and leaves the first one's file alone."""
    if DatabaseMonth.objects.filter(month=month).exists():
        return None
    folder = Path(settings.OPEN_DATABASE_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    name = file_name(month)
    temporary = folder / f".{name}.{os.getpid()}.tmp"
    try:
        with temporary.open("wb") as raw:
            digest = Digest(raw)
            count = build(month, digest)
            raw.flush()
            os.fsync(raw.fileno())
        with transaction.atomic():
            row = DatabaseMonth.objects.create(
                month=month,
                file_name=name,
                size=digest.size,
                count=count,
                sha256=digest.sha256.hexdigest(),
            )
            os.replace(temporary, folder / name)
    except IntegrityError:
        return None  # written by another run meanwhile
    finally:
        temporary.unlink(missing_ok=True)
    return row


def write_closed_months(now: datetime | None = None) -> list[DatabaseMonth]:
    """What the beat task does: write every closed month not written yet, from the month
    the first public game ended in; a closed month with no game gets its (empty) file
    too, so that the list has no gap. Returns the months written."""
    now = now or timezone.now()
    first = Game.objects.filter(public=True, finished_at__isnull=False).aggregate(
        first=Min("finished_at")
    )["first"]
    if first is None:
        return []
    written = set(DatabaseMonth.objects.values_list("month", flat=True))
    done = []
    month = first_day(first)
    while is_closed(month, now):
        if month not in written and (row := write_month(month)) is not None:
            done.append(row)
        month = next_month(month)
    return done


@dataclass(frozen=True)
class Check:
    """A month's published file against a rebuild from the stored games."""

    month: DatabaseMonth
    sha256: str
    size: int
    count: int

    @property
    def same(self) -> bool:
        return (self.sha256, self.size, self.count) == (
            self.month.sha256,
            self.month.size,
            self.month.count,
        )


def check_month(row: DatabaseMonth) -> Check:
    """Rebuild ``row``'s month from the stored games, in memory, and compare."""
    digest = Digest()
    count = build(row.month, digest)
    return Check(row, digest.sha256.hexdigest(), digest.size, count)


def file_digest(row: DatabaseMonth) -> str:
    """The SHA-256 of the file as it lies on disk."""
    sha256 = hashlib.sha256()
    with file_path(row).open("rb") as stored:
        while block := stored.read(1 << 16):
            sha256.update(block)
    return sha256.hexdigest()
