"""HTML views. The invitation link an e-mailed invitee follows lands here."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from rbank_site.errors import ServiceError

from . import challenges


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Show an e-mail invitation; accept or decline it once signed in (sign up on the way)."""
    try:
        challenge = challenges.challenge_by_token(token)
    except ServiceError as exc:
        return render(request, "games/invitation.html", {"error": exc.message}, status=exc.status)
    if not request.user.is_authenticated:
        query = urlencode({"next": request.get_full_path()})
        return redirect(f"{reverse('account_signup')}?{query}")
    assert isinstance(request.user, User)
    error = None
    if request.method == "POST":
        answer = request.POST.get("answer")
        try:
            if answer == "accept":
                challenge = challenges.accept_challenge(challenge.pk, request.user, token=token)
                return redirect(f"/api/v1/games/{challenge.game_id}/")
            if answer == "decline":
                challenge = challenges.decline_challenge(challenge.pk, request.user, token=token)
        except ServiceError as exc:
            error = exc.message
    return render(request, "games/invitation.html", {"challenge": challenge, "error": error})
