"""Writes for accounts: profiles and API tokens."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from rbank_site.errors import ServiceError

from .models import NOTIFICATION_EVENTS, NOTIFICATION_MODES, TIME_ZONES, ApiToken, Profile

MAX_TOKENS = 20


def profile_of(user: User) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def update_profile(user: User, changes: dict[str, Any]) -> Profile:
    """Change display name, time zone or notification preferences; refuses unknown values."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
        if "display_name" in changes:
            profile.display_name = str(changes["display_name"]).strip()[:60]
        if "time_zone" in changes:
            if changes["time_zone"] not in TIME_ZONES:
                raise ServiceError(
                    400, "BAD_REQUEST", "time_zone must be an IANA name like Europe/Paris"
                )
            profile.time_zone = changes["time_zone"]
        if "reminder_hours" in changes:
            profile.reminder_hours = sorted(set(changes["reminder_hours"]), reverse=True)
        if "notifications" in changes:
            wanted = changes["notifications"]
            if not isinstance(wanted, dict) or not all(
                event in NOTIFICATION_EVENTS and mode in NOTIFICATION_MODES
                for event, mode in wanted.items()
            ):
                raise ServiceError(
                    400,
                    "BAD_REQUEST",
                    f"notifications maps events ({', '.join(NOTIFICATION_EVENTS)}) "
                    f"to {', '.join(NOTIFICATION_MODES)}",
                )
            profile.notifications = {**profile.notifications, **wanted}
        profile.save()
        return profile


def create_token(user: User, name: str) -> tuple[ApiToken, str]:
    name = name.strip()
    if not name:
        raise ServiceError(400, "BAD_REQUEST", "give the token a name")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # counts under a lock
        if user.api_tokens.count() >= MAX_TOKENS:
            raise ServiceError(
                409, "TOO_MANY_TOKENS", f"at most {MAX_TOKENS} tokens: revoke one first"
            )
        return ApiToken.issue(user, name[:60])


def revoke_token(user: User, token_id: int) -> None:
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise ServiceError(404, "NOT_FOUND", "no such token")
