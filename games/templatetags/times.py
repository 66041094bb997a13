"""Times as every page writes them: in the signed-in player's time zone (the profile's,
activated by ``accounts.middleware``), with the zone named, in the page's language's
format (``config/formats/``)."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.template.defaultfilters import timeuntil_filter
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def local_time(value: datetime | None, fmt: str = "SHORT_DATETIME_FORMAT") -> str:
    """``Thu 26 Nov, 20:11 CET`` (German ``Do., 26. Nov., 20:11 CET``); ``fmt`` names
    another of the language's formats (``DATETIME_FORMAT``...). A zone whose
    abbreviation is only an offset (``-03``) is named by its key instead: ``Thu 26 Nov,
    16:11 (America/Sao_Paulo)``."""
    if value is None:
        return ""
    local = timezone.localtime(value)
    abbreviation = local.tzname() or ""
    if abbreviation.isalpha():
        return f"{date_format(local, fmt)} {abbreviation}"
    return f"{date_format(local, fmt)} ({timezone.get_current_timezone_name()})"


@register.simple_tag
def deadline(value: datetime, countdown: bool = True) -> SafeString:
    """A deadline and the time left until it, for a sentence to name (``{% deadline
    game.deadline as when %}`` then ``play by {{ when }}``): ``<time>Thu 26 Nov, 20:11
    CET</time> (in 2 days)``; with ``countdown``, the time left in the element the game
    page's script counts down."""
    # Translators: the time left until a deadline, e.g. "(in 2 days, 3 hours)".
    left = pgettext("time left", "in %(time)s") % {"time": timeuntil_filter(value)}
    iso = value.isoformat()
    if countdown:
        return format_html(
            '<time class="deadline" datetime="{}">{}</time> '
            '(<span class="countdown" data-deadline="{}">{}</span>)',
            iso,
            local_time(value),
            iso,
            left,
        )
    return format_html('<time datetime="{}">{}</time> ({})', iso, local_time(value), left)
