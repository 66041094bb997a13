"""Writes for accounts: profiles, API tokens, the calendar link, vacations and deleting
an account."""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import notices
from lib.errors import ServiceError
from lib.logs import fields

from .models import (
    TIME_ZONES,
    ApiToken,
    ChallengesFrom,
    Profile,
    normalised_address,
)
from .signals import account_deleting, vacation_started

MAX_TOKENS = 20
UNSUBSCRIBE_SALT = "rbank.unsubscribe"
NO_INVITATIONS_SALT = "rbank.no-invitations"

logger = logging.getLogger(__name__)


def profile_of(user: User) -> Profile:
    """The user's profile, made on first use. A profile read with its user (joined by
    ``select_related``, as the game's seats and the API's token read them, or kept by
    the middleware for the request) costs no query; else it is read from the
    database, never from an older copy kept on a long-lived user object."""
    kept = user._state.fields_cache.get("profile")
    if isinstance(kept, Profile):
        return kept
    profile, created = Profile.objects.get_or_create(user=user)
    if created:  # Django keeps a new one-to-one row on the object it was made for
        forget_profile(user)
    return profile


def keep_profile(user: User, profile: Profile) -> None:
    """``profile`` is read with ``user`` from now on (for the rest of a request)."""
    user._state.fields_cache["profile"] = profile


def forget_profile(user: User) -> None:
    """The next ``profile_of(user)`` reads the row again (it was changed by an UPDATE)."""
    user._state.fields_cache.pop("profile", None)


LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


def language_of(user: User | None) -> str:
    """The language to write to ``user`` in when no browser asks (e-mails): the one they
    chose, else their browser's as last seen, else the site's (English)."""
    if user is None:
        return str(settings.LANGUAGE_CODE)
    profile = profile_of(user)
    return profile.language or profile.browser_language or str(settings.LANGUAGE_CODE)


#: The longest wait of an e-mail after a push: a day (what ``games.play.presence``
#: remembers of a look).
MAX_EMAIL_AFTER_PUSH = 24 * 60


def update_profile(user: User, changes: dict[str, Any]) -> Profile:
    """Change display name, time zone, notification preferences or who may challenge
    the player; refuses unknown values."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
        if "display_name" in changes:
            profile.display_name = str(changes["display_name"]).strip()[:60]
        if "time_zone" in changes:
            if changes["time_zone"] not in TIME_ZONES:
                raise ServiceError(
                    400, "BAD_REQUEST", _("time_zone must be an IANA name like Europe/Paris")
                )
            profile.time_zone = changes["time_zone"]
        if "reminder_hours" in changes:
            profile.reminder_hours = sorted(set(changes["reminder_hours"]), reverse=True)
        if "notifications" in changes:
            wanted = changes["notifications"]
            if not isinstance(wanted, dict) or not all(
                event in notices.kinds() and mode in notices.NOTIFICATION_MODES
                for event, mode in wanted.items()
            ):
                raise ServiceError(
                    400,
                    "BAD_REQUEST",
                    _("notifications maps events (%(events)s) to %(modes)s")
                    % {
                        "events": ", ".join(notices.kinds()),
                        "modes": ", ".join(notices.NOTIFICATION_MODES),
                    },
                )
            profile.notifications = {**profile.notifications, **wanted}
        if "play_by_mail" in changes:
            profile.play_by_mail = bool(changes["play_by_mail"])
        if "computer_turn_emails" in changes:
            profile.computer_turn_emails = bool(changes["computer_turn_emails"])
        if "email_after_push_minutes" in changes:
            minutes = changes["email_after_push_minutes"]
            if not isinstance(minutes, int) or not 0 <= minutes <= MAX_EMAIL_AFTER_PUSH:
                raise ServiceError(
                    400,
                    "BAD_REQUEST",
                    _("email_after_push_minutes must be from 0 to %(most)s")
                    % {"most": MAX_EMAIL_AFTER_PUSH},
                )
            profile.email_after_push_minutes = minutes
        if "challenges_from" in changes:
            if changes["challenges_from"] not in ChallengesFrom.values:
                raise ServiceError(
                    400,
                    "BAD_REQUEST",
                    _("challenges_from must be one of: %(values)s")
                    % {"values": ", ".join(ChallengesFrom.values)},
                )
            profile.challenges_from = changes["challenges_from"]
        if "language" in changes:
            if changes["language"] not in {"", *LANGUAGE_CODES}:
                raise ServiceError(
                    400,
                    "BAD_REQUEST",
                    _("language must be one of %(codes)s, or empty for your browser's")
                    % {"codes": ", ".join(sorted(LANGUAGE_CODES))},
                )
            profile.language = changes["language"]
        profile.save()
        if "profile" in user._state.fields_cache:
            keep_profile(user, profile)  # what the caller reads next is what was saved
        return profile


def verified_address(user: User, address: str) -> bool:
    """Whether ``address`` is one of the user's verified e-mail addresses (django-allauth
    verified it by a confirmation link): only such an address may play by mail."""
    mine = EmailAddress.objects.filter(user=user, email__iexact=address, verified=True)
    return bool(mine.exists())


def mail_bounced(address: str, reason: str, now: datetime | None = None) -> int:
    """E-mails to ``address`` come back for good: the outbox stops sending to it, and
    the account page says so. Returns how many accounts use the address."""
    users = list(User.objects.filter(email__iexact=address))
    for user in users:
        profile_of(user)  # made on first use
        forget_profile(user)
    return Profile.objects.filter(user__in=users).update(
        bounced_at=now or timezone.now(),
        bounced_address=address.lower(),
        bounce_reason=reason[:300],
    )


def mail_works_again(user: User) -> None:
    """The player mended their mailbox (or says so): e-mails go out to it again."""
    Profile.objects.filter(user=user).update(bounced_at=None, bounced_address="", bounce_reason="")
    forget_profile(user)


def bouncing(profile: Profile, address: str) -> bool:
    """Whether e-mails to ``address`` bounced for good (and the player has not said
    since that it works again)."""
    return profile.bounced_at is not None and profile.bounced_address == address.lower()


def create_token(user: User, name: str) -> tuple[ApiToken, str]:
    name = name.strip()
    if not name:
        raise ServiceError(400, "BAD_REQUEST", _("give the token a name"))
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # counts under a lock
        if user.api_tokens.count() >= MAX_TOKENS:
            raise ServiceError(
                409,
                "TOO_MANY_TOKENS",
                _("at most %(count)s tokens: revoke one first") % {"count": MAX_TOKENS},
            )
        return ApiToken.issue(user, name[:60])


def revoke_token(user: User, token_id: int) -> None:
    deleted, _rows = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise ServiceError(404, "NOT_FOUND", _("no such token"))


def make_calendar_link(user: User) -> str:
    """A new secret for the player's calendar of deadlines: the address it makes
    replaces the one they had, which stops working at once. Returns the secret."""
    token = secrets.token_urlsafe(32)
    Profile.objects.filter(pk=profile_of(user).pk).update(calendar_token=token)
    forget_profile(user)
    return token


def stop_calendar_link(user: User) -> None:
    """The calendar of deadlines is no longer served: its address answers 404."""
    Profile.objects.filter(user=user).update(calendar_token=None)
    forget_profile(user)


def calendar_owner(token: str) -> User | None:
    """The player whose calendar secret ``token`` is, or None (no such link, or stopped)."""
    if not token or len(token) > 64:
        return None
    profile = Profile.objects.select_related("user").filter(calendar_token=token).first()
    return None if profile is None else profile.user


def calendar_address(token: str, *, scheme: str = "") -> str:
    """The calendar's address on this site; with ``scheme="webcal"`` the same address
    in the form a click hands to the calendar program, which subscribes to it."""
    address = settings.SITE_URL + reverse("calendar-feed", args=[token])
    if scheme:
        address = scheme + address[address.index(":") :]
    return address


def has_account(email: str) -> bool:
    """Whether an account has this address, as its e-mail or one of its addresses
    (verified or not): an invitation sent there is answered after logging in."""
    return (
        User.objects.filter(email__iexact=email).exists()
        or EmailAddress.objects.filter(email__iexact=email).exists()
    )


def unsubscribe_token(user: User, kind: str) -> str:
    """The signed credential of an e-mail's one-click unsubscribe link (``kind``: an
    event, or the digest)."""
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """The user id and kind of a token; raises ``signing.BadSignature`` (or KeyError,
    ValueError for a well-signed token of another shape)."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    return int(data["u"]), str(data["k"])


def no_invitations_token(address: str) -> str:
    """The signed credential of an invitation's one-click unsubscribe link, for an
    address with no account: following it asks never to be invited again."""
    return signing.dumps(normalised_address(address), salt=NO_INVITATIONS_SALT)


def read_no_invitations_token(token: str) -> str | None:
    """The address a ``no_invitations_token`` names, or None when ``token`` is not one
    (another link's token, or a forged one)."""
    try:
        address = signing.loads(token, salt=NO_INVITATIONS_SALT)
    except signing.BadSignature:
        return None
    return address if isinstance(address, str) and address else None


def vacation_days_left(profile: Profile, now: datetime) -> int:
    used = profile.vacation_days_used if profile.vacation_year == now.year else 0
    return max(0, profile.vacation_allowance_days - used)


def start_vacation(user: User, days: int, now: datetime | None = None) -> Profile:
    """Stop the player's clocks for ``days`` days, out of a yearly allowance.

    The days taken are spent, even if the player plays during the vacation. The
    games app, told by ``vacation_started``, moves the clocks of the player's games
    and tells their opponents, in this transaction.
    """
    now = now or timezone.now()
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
        if profile.vacation_until is not None and profile.vacation_until > now:
            raise ServiceError(409, "ON_VACATION", _("you are already on vacation"))
        left = vacation_days_left(profile, now)
        if not 1 <= days <= left:
            raise ServiceError(
                409,
                "NO_VACATION_LEFT",
                _("you can take 1 to %(left)s vacation days this year") % {"left": left},
            )
        if profile.vacation_year != now.year:
            profile.vacation_year, profile.vacation_days_used = now.year, 0
        profile.vacation_days_used += days
        profile.vacation_until = now + timedelta(days=days)
        profile.save()
        if "profile" in user._state.fields_cache:
            keep_profile(user, profile)
        vacation_started.send(
            sender=Profile, user=user, days=days, until=profile.vacation_until, now=now
        )
        return profile


def delete_account(user: User) -> int:
    """A player leaves for good. What they take part in ends first (the games app
    resigns their games in play, told by ``account_deleting``); their finished games
    stay, their seat shown as a deleted player. Returns how many games were ended."""
    with transaction.atomic():
        ended = 0
        for _receiver, count in account_deleting.send(sender=User, user=user):
            ended += count if isinstance(count, int) else 0
        logger.info("account deleted %s", fields(user=user, resigned=ended))
        user.delete()
    return ended
