"""Times as every page writes them: in the signed-in player's time zone (the profile's,
activated by ``accounts.middleware``), with the zone named."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format

register = template.Library()


@register.filter
def local_time(value: datetime | None, fmt: str = "D j M, H:i") -> str:
    """``Thu 26 Nov, 20:11 CET``. A zone whose abbreviation is only an offset (``-03``)
    is named by its key instead: ``Thu 26 Nov, 16:11 (America/Sao_Paulo)``."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    abbreviation = local.tzname() or ""
    if abbreviation.isalpha():
        return f"{date_format(local, fmt)} {abbreviation}"
    return f"{date_format(local, fmt)} ({timezone.get_current_timezone_name()})"
