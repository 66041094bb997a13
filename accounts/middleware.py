"""Pages show times in the signed-in player's own time zone (their profile's)."""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from .models import Profile


class PlayerTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The API speaks ISO 8601 with offsets, the calendar feed UTC: no lookup there.
        # The feed is read by calendar programs, so not even the session is read (no
        # "Vary: Cookie" on its answers).
        if not request.path.startswith(("/api/", "/calendar/")) and request.user.is_authenticated:
            zone = (
                Profile.objects.filter(user_id=request.user.pk)
                .values_list("time_zone", flat=True)
                .first()
            )
            timezone.activate(ZoneInfo(zone or "UTC"))
        else:
            timezone.deactivate()
        return self.get_response(request)
