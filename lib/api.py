"""What every API view shares, whichever app it belongs to."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.request import Request


def player_of(request: Request) -> User:
    """The signed-in player of a request that ``IsAuthenticated`` has let through."""
    user = request.user
    assert isinstance(user, User)
    return user
