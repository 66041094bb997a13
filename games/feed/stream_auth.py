"""What signed an event stream in, and whether it still holds.

A stream lives for hours, long after the request that opened it was authenticated: the
API token it was opened with may be revoked, the account deleted or turned off, the
browser's session ended (logged out, the password changed, the session deleted or
expired). Each web process's hub asks ``still_valid`` about its streams' credentials
every few seconds, and at once when told that a player's credentials changed
(``games.feed.stream.recheck``), and ends the streams whose credential no longer holds.
The database (and the session store) is the one truth, whichever process, admin page
or command made the change.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from rest_framework.request import Request

from accounts.models import ApiToken


@dataclass(frozen=True)
class Credential:
    """A stream's player and what signed it in: an API token (its id), or a session
    (its key: a secret, kept in this process's memory only)."""

    user_id: int
    token_id: int | None = None
    session_key: str | None = None

    def __repr__(self) -> str:  # never the session key in a log
        how = f"token {self.token_id}" if self.token_id is not None else "a session"
        return f"Credential(user {self.user_id}, {how})"


def credential_of(request: Request, http: HttpRequest) -> Credential:
    """The credential the API's authenticators accepted for ``request`` (its user is
    signed in): the token when one was sent, else the session."""
    user = request.user
    assert isinstance(user, User)
    if isinstance(request.auth, ApiToken):
        return Credential(user.pk, token_id=request.auth.pk)
    return Credential(user.pk, session_key=http.session.session_key)


def still_valid(credentials: Collection[Credential]) -> set[Credential]:
    """Those of ``credentials`` that would still sign their request in: the account
    exists and is active, and the token exists or the session still holds this user
    (not logged out, nor expired, nor signed with an older password). A few queries
    whatever the number of streams, and one read of the session store per session."""
    users = User.objects.filter(pk__in={c.user_id for c in credentials}, is_active=True)
    active = {user.pk: user for user in users}
    tokens = {c.token_id for c in credentials if c.token_id is not None}
    live_tokens = set(
        ApiToken.objects.filter(pk__in=tokens, user__in=list(active)).values_list("pk", flat=True)
    )
    valid = set()
    for credential in credentials:
        user = active.get(credential.user_id)
        if user is None:
            continue
        if credential.token_id is not None:
            if credential.token_id in live_tokens:
                valid.add(credential)
        elif credential.session_key is not None and _session_holds(credential.session_key, user):
            valid.add(credential)
    return valid


def _session_holds(session_key: str, user: User) -> bool:
    """Whether the session still signs ``user`` in, as ``django.contrib.auth.get_user``
    would decide, without its side effects (it flushes or renews the session)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    data = store.load()  # empty when the session is gone or expired
    if str(data.get(SESSION_KEY)) != str(user.pk):
        return False
    if data.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    signed = data.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return bool(signed) and any(constant_time_compare(signed, known) for known in hashes)
