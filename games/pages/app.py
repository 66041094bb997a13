"""The installable app: its web app manifest, its service worker (the shell cached,
the lobby and the tables last seen opened offline, push notifications shown and
clicked), the page shown offline; and the account's push devices, stored by the
account page's script (``games/static/games/push.js``) and removed there."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from games.push import devices
from games.templatetags.look import tokens
from lib.errors import ServiceError
from lib.naming import site_name

#: What the service worker keeps from its installation on: the look and the scripts
#: of every page, the icons, and the page it shows for a page never seen.
SHELL = (
    "games/site.css",
    "games/theme.js",
    "games/app.js",
    "games/lobby.js",
    "games/table.js",
    "games/playback.js",
    "games/favicon.svg",
    "games/icon.svg",
    "games/icon-192.png",
)
#: The icons' sizes in PNG (and the SVG drawn at any size).
ICON_SIZES = (192, 512)


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the reader's language, the colours the site's tokens."""
    look = tokens()
    icons = [{"src": static("games/icon.svg"), "sizes": "any", "type": "image/svg+xml"}]
    icons += [
        {"src": static(f"games/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in ICON_SIZES
    ]
    icons.append(
        {
            "src": static("games/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        }
    )
    data = {
        "id": "/",
        "name": _("Russian Bank by mail"),
        "short_name": site_name(),
        "description": _(
            "Russian Bank for two, one turn a day: play from your phone or by e-mail."
        ),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("lobby"),
        "scope": "/",
        "display": "standalone",
        "background_color": look["bg"],
        "theme_color": look["felt"],
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@cache
def _shell_version() -> str:
    """Changes with any file of the shell, so that browsers install the new worker."""
    digest = hashlib.sha256()
    for name in SHELL:
        found = finders.find(name)
        if isinstance(found, str):
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:12]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that its scope is every page."""
    context = {
        "version": _shell_version(),
        "shell": json.dumps([static(name) for name in SHELL] + [reverse("offline")]),
        "offline": json.dumps(reverse("offline")),
        "static_prefix": json.dumps(static("")),
        "renew": json.dumps(reverse("push-renew")),
    }
    response = render(request, "app/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"  # a new version is found at the next visit
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page it never kept, with no network."""
    return render(request, "app/offline.html")


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """Store this browser's push subscription (the Push API's JSON, POSTed by
    ``push.js`` with the page's CSRF token)."""
    if not isinstance(request.user, User):
        return JsonResponse({"error": "NOT_AUTHENTICATED"}, status=403)
    try:
        body = json.loads(request.body)
        keys = body.get("keys") or {}
        devices.subscribe(
            request.user,
            body.get("endpoint"),
            keys.get("p256dh"),
            keys.get("auth"),
            device=str(request.headers.get("User-Agent", ""))[:200],
        )
    except (ValueError, AttributeError):
        return JsonResponse({"error": "BAD_REQUEST"}, status=400)
    except ServiceError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=error.status)
    count = len(devices.devices_of(request.user))
    return JsonResponse({"stored": True, "devices": count}, status=201)


@csrf_exempt  # the service worker has no CSRF token; the old endpoint is the credential
@require_POST
def push_renew(request: HttpRequest) -> HttpResponse:
    """The browser renewed its subscription: ``{"old": endpoint, "subscription": {...}}``
    from the service worker (``pushsubscriptionchange``)."""
    try:
        body = json.loads(request.body)
        fresh = body.get("subscription") or {}
        keys = fresh.get("keys") or {}
        renewed = devices.renew(
            body.get("old"), fresh.get("endpoint"), keys.get("p256dh"), keys.get("auth")
        )
    except (ValueError, AttributeError):
        return JsonResponse({"error": "BAD_REQUEST"}, status=400)
    except ServiceError as error:
        return JsonResponse({"error": error.code, "message": error.message}, status=error.status)
    return HttpResponse(status=204 if renewed else 404)


@login_required
@require_POST
def push_remove(request: HttpRequest) -> HttpResponse:
    """Forget a device: by its id (the account page's button) or its endpoint (the
    script, when the browser unsubscribes)."""
    user = _user(request)
    if request.content_type == "application/json":
        try:
            endpoint = json.loads(request.body).get("endpoint")
        except (ValueError, AttributeError):
            endpoint = None
        removed = isinstance(endpoint, str) and devices.unsubscribe(user, endpoint=endpoint)
        return JsonResponse({"removed": removed})
    device = request.POST.get("device", "")
    if device.isdigit() and devices.unsubscribe(user, pk=int(device)):
        messages.success(request, _("That device gets no more push notifications."))
    return redirect(reverse("profile") + "#push")
