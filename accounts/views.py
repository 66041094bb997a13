"""The one-click unsubscribe link of every e-mail: works without signing in."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from games.notifications import read_unsubscribe_token

from . import services
from .models import NOTIFICATION_EVENTS

DIGEST = "digest"


@csrf_exempt  # mail clients POST here (RFC 8058); the signed token is the credential
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (link scanners must not unsubscribe anyone); POST does it."""
    try:
        user_id, kind = read_unsubscribe_token(token)
        user = User.objects.get(pk=user_id)
    except (signing.BadSignature, User.DoesNotExist, KeyError, ValueError):
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    if kind != DIGEST and kind not in NOTIFICATION_EVENTS:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    done = False
    if request.method == "POST":
        wanted = services.profile_of(user).notifications
        # The digest's link stops everything the player had put in the digest.
        events = (
            [e for e, mode in wanted.items() if mode == "daily_digest"]
            if kind == DIGEST
            else [kind]
        )
        services.update_profile(user, {"notifications": dict.fromkeys(events, "never")})
        done = True
    label = "daily digest" if kind == DIGEST else kind.replace("_", " ")
    return render(request, "accounts/unsubscribe.html", {"kind": label, "done": done})


def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {})
