"""An e-mail invitation followed by someone not signed in: remembered in their session
until they sign up, so the sign-up page can say who invites them, fill in the address
the invitation went to, and take the invitation as proof of that address."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.http import HttpRequest

SESSION_KEY = "invitation_token"


class Invitation(Protocol):
    """What the sign-up page needs of an invitation: the address it went to."""

    email: str


#: Finds the invitation a token names while it awaits an answer: set by the app that
#: sends invitations (the lobby's challenges, ``games.apps``). Accounts knows nothing
#: of games.
_finder: Callable[[str], Any] | None = None


def find_invitations_with(finder: Callable[[str], Any]) -> None:
    global _finder
    _finder = finder


def remember(request: HttpRequest, token: str) -> None:
    request.session[SESSION_KEY] = token


def forget(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)


def pending_invitation(request: HttpRequest) -> Any:
    """The e-mail invitation this browser followed, while it awaits an answer (an
    ``Invitation``), or None."""
    token = request.session.get(SESSION_KEY)
    if not isinstance(token, str) or not token or _finder is None:
        return None
    return _finder(token)


def proves(request: HttpRequest, email: str) -> bool:
    """Whether following the invitation's link proved this address: the link went, secret,
    to the invited address only (the challenger never sees it)."""
    invitation = pending_invitation(request)
    return invitation is not None and invitation.email.lower() == email.strip().lower()
