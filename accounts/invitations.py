"""An e-mail invitation followed by someone not signed in: remembered in their session
until they sign up, so the sign-up page can say who invites them, fill in the address
the invitation went to, and take the invitation as proof of that address."""

from __future__ import annotations

from django.http import HttpRequest

from games.models import Challenge

SESSION_KEY = "invitation_token"


def remember(request: HttpRequest, token: str) -> None:
    request.session[SESSION_KEY] = token


def forget(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)


def pending_invitation(request: HttpRequest) -> Challenge | None:
    """The e-mail invitation this browser followed, while it awaits an answer."""
    token = request.session.get(SESSION_KEY)
    if not isinstance(token, str) or not token:
        return None
    return (
        Challenge.objects.select_related("challenger")
        .filter(token=token, status=Challenge.Status.PENDING, is_open=False)
        .exclude(email="")
        .first()
    )


def proves(request: HttpRequest, email: str) -> bool:
    """Whether following the invitation's link proved this address: the link went, secret,
    to the invited address only (the challenger never sees it)."""
    invitation = pending_invitation(request)
    return invitation is not None and invitation.email.lower() == email.strip().lower()
