"""The open game database's months (docs/open-database.md).

    python manage.py open_database                  # write the closed months not written yet
    python manage.py open_database --check 2026-10  # rebuild a month, compare its SHA-256

``--check`` rebuilds the month from the stored games, in memory, and compares it with
the published row and the file on disk; it exits non-zero when they differ. It never
writes: a published month is never written again.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.archive import months
from games.models import DatabaseMonth


def month_of(text: str) -> date:
    try:
        year, month = (int(part) for part in text.split("-"))
        return date(year, month, 1)
    except ValueError:
        raise CommandError(f"{text!r}: a month is written YYYY-MM, as 2026-10") from None


class Command(BaseCommand):
    help = "Write the open database's closed months, or check a month against a rebuild."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", metavar="YYYY-MM", help="rebuild this month and compare")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            self.check_month(month_of(options["check"]))
            return
        for row in months.write_closed_months():
            self.stdout.write(f"{row.label}: {row.count} games, {row.size} bytes, {row.sha256}")

    def check_month(self, month: date) -> None:
        row = DatabaseMonth.objects.filter(month=month).first()
        if row is None:
            raise CommandError(f"{month:%Y-%m} is not published")
        check = months.check_month(row)
        on_disk = months.file_digest(row) if months.file_path(row).is_file() else "missing"
        self.stdout.write(f"published {row.sha256} ({row.count} games, {row.size} bytes)")
        self.stdout.write(f"on disk   {on_disk}")
        self.stdout.write(f"rebuilt   {check.sha256} ({check.count} games, {check.size} bytes)")
        if not check.same or on_disk != row.sha256:
            raise CommandError(f"{row.label} differs from its rebuild")
        self.stdout.write(f"{row.label}: the same bytes")
