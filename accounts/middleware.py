"""Pages speak the signed-in player's language and show times in their time zone (their
profile's).

The language: the one the player chose on the account page, else the browser's
(``Accept-Language``, which Django's ``LocaleMiddleware`` has already read), else
English. The browser's is remembered on the profile when it changes, so that the
e-mails of a player who never chose are written in the language their pages are.
"""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from .models import Profile
from .services import keep_profile, profile_of


class PlayerTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The API speaks ISO 8601 with offsets and the language of Accept-Language; the
        # calendar feed UTC. The feed is read by calendar programs, so not even the
        # session is read (no "Vary: Cookie" on its answers).
        if not request.path.startswith(("/api/", "/calendar/")) and request.user.is_authenticated:
            profile = profile_of(request.user)  # made on a player's first page
            keep_profile(request.user, profile)  # the view reads it again at no cost
            timezone.activate(ZoneInfo(profile.time_zone or "UTC"))
            browser = translation.get_language()
            if profile.language:
                translation.activate(profile.language)
                request.LANGUAGE_CODE = profile.language
            elif browser != profile.browser_language:
                Profile.objects.filter(pk=profile.pk).update(browser_language=browser)
                profile.browser_language = browser
        else:
            timezone.deactivate()
        return self.get_response(request)
