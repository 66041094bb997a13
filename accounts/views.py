"""The one-click unsubscribe link of every e-mail: works without signing in."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from games.notifications import read_unsubscribe_token

from . import services


@csrf_exempt  # mail clients POST here (RFC 8058); the signed token is the credential
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (link scanners must not unsubscribe anyone); POST does it."""
    try:
        user_id, kind = read_unsubscribe_token(token)
        user = User.objects.get(pk=user_id)
    except (signing.BadSignature, User.DoesNotExist, KeyError, ValueError):
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=404)
    done = False
    if request.method == "POST":
        services.update_profile(user, {"notifications": {kind: "never"}})
        done = True
    label = kind.replace("_", " ")
    return render(request, "accounts/unsubscribe.html", {"kind": label, "done": done})
