"""Site-wide views that belong to no app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says. The static URL is resolved
    per request, not at import: the hashed name exists only after collectstatic."""
    return HttpResponsePermanentRedirect(static("games/favicon.svg"))
