"""The open game database's page (``/database/``): the months published, each with its
count, size, SHA-256 and download (docs/open-database.md)."""

from __future__ import annotations

from datetime import date

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.archive import months
from games.models import DatabaseMonth


@require_safe
def database(request: HttpRequest) -> HttpResponse:
    rows = list(DatabaseMonth.objects.order_by("-month"))
    return render(request, "games/database.html", {"months": rows})


@require_safe
def month_file(request: HttpRequest, label: str) -> FileResponse:
    """A month's file (``label``: ``2026-10``), sent from the disk as it lies (a
    finished month never changes, so any cache may keep it for good)."""
    year, month = (int(part) for part in label.split("-"))
    if not (year >= 1 and 1 <= month <= 12):
        raise Http404
    row = DatabaseMonth.objects.filter(month=date(year, month, 1)).first()
    path = None if row is None else months.file_path(row)
    if row is None or path is None or not path.is_file():
        raise Http404
    response = FileResponse(
        path.open("rb"), as_attachment=True, filename=row.file_name, content_type="application/gzip"
    )
    response["ETag"] = f'"{row.sha256}"'
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
