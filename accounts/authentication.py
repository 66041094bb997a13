"""``Authorization: Token <key>`` for the named tokens of ``accounts.ApiToken``."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from .models import ApiToken, hash_token

#: last_used_at is written at most this often per token (a write per request is waste).
LAST_USED_RESOLUTION = timedelta(minutes=5)


class ApiTokenAuthentication(TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        # The profile comes with the user (one query): most requests read it.
        token = (
            ApiToken.objects.select_related("user__profile")
            .filter(key_hash=hash_token(key))
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("invalid or revoked token"))
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token
