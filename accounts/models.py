"""Profiles and named API tokens."""

from __future__ import annotations

import hashlib
import secrets
import zoneinfo

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts import notices


def default_notifications() -> dict[str, str]:
    """Every kind of notice declared (``accounts.notices``), at once."""
    return dict.fromkeys(notices.kinds(), "immediately")


def default_reminders() -> list[int]:
    return [24, 2]


TIME_ZONES = sorted(zoneinfo.available_timezones())


class ChallengesFrom(models.TextChoices):
    """Who may challenge a player by name (docs/conduct.md)."""

    ANYONE = "anyone", _("Anyone")
    PLAYED = "played", _("Players I have played")
    NOBODY = "nobody", _("Nobody: open challenges only")


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    #: Event name -> a mode of ``notices.NOTIFICATION_MODES``.
    notifications = models.JSONField(_("notifications"), default=default_notifications)
    #: Hours before a deadline at which to be reminded (default 24 h and 2 h).
    reminder_hours = models.JSONField(_("reminder hours"), default=default_reminders)
    #: Vacation: days a year (clocks stop), days taken in ``vacation_year``, and the end.
    vacation_allowance_days = models.PositiveSmallIntegerField(
        _("vacation allowance days"), default=30
    )
    vacation_year = models.PositiveSmallIntegerField(_("vacation year"), default=0)
    vacation_days_used = models.PositiveSmallIntegerField(_("vacation days used"), default=0)
    vacation_until = models.DateTimeField(_("vacation until"), null=True, blank=True)
    #: Play by mail (docs/play-by-mail.md): every turn's e-mail carries the board, the
    #: legal moves and a reply address, and a reply plays. A game may override it
    #: (``games.models.Seat.play_by_mail``).
    play_by_mail = models.BooleanField(_("play by mail"), default=False)
    #: A "your turn" e-mail at each turn of a game against the computer, which answers
    #: within seconds: off unless asked for (docs/notifications.md).
    computer_turn_emails = models.BooleanField(
        _("e-mail each turn against the computer"), default=False
    )
    #: "Your turn" by push and e-mail: the e-mail waits this long for the game to be
    #: opened, and is not sent if it was (0: both at once; docs/notifications.md).
    email_after_push_minutes = models.PositiveSmallIntegerField(
        _("minutes before an e-mail follows a push"), default=30
    )
    #: When e-mails to ``bounced_address`` came back for good (a bounce), and why. The
    #: outbox sends nothing more to that address until the player says it works again
    #: or changes it (``accounts.services.mail_works_again``).
    bounced_at = models.DateTimeField(_("bounced at"), null=True, blank=True)
    bounced_address = models.EmailField(_("bounced address"), blank=True)
    bounce_reason = models.CharField(_("bounce reason"), max_length=300, blank=True)
    #: A computer player's level (``games.engine.bots.LEVELS``), "" for a person. The
    #: three computer players are made by a migration (``accounts.bots``).
    bot_level = models.CharField(_("bot level"), max_length=8, blank=True, db_index=True)
    #: The secret of the player's calendar of deadlines (``/calendar/<token>.ics``), or
    #: None when they have none. Kept in clear, unlike an API token's key: the account
    #: page shows the link again whenever the player wants to add it to another
    #: calendar program, and what it opens is read-only and holds only the deadlines
    #: (no card, no move, no way to play). A new link replaces it; stopping the link
    #: clears it, and the old address answers 404. Unique, so the feed finds its
    #: player by the index.
    calendar_token = models.CharField(
        _("calendar token"), max_length=64, null=True, blank=True, unique=True
    )
    #: The language the player chose ("" for none: their browser's), and the one their
    #: browser last asked for: pages and e-mails speak the first, else the second
    #: (``accounts.services.language_of``).
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    browser_language = models.CharField(_("browser's language"), max_length=8, blank=True)
    #: Who may name this player in a challenge or an e-mail invitation
    #: (``accounts.conduct.refuses_challenges``); open challenges are for anyone.
    challenges_from = models.CharField(
        _("challenges from"),
        max_length=8,
        choices=ChallengesFrom.choices,
        default=ChallengesFrom.ANYONE,
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


def hash_token(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A named API token. Only its SHA-256 is stored: the key is shown once, at creation."""

    PREFIX = "rb_"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=60)
    key_hash = models.CharField(_("key hash"), max_length=64, unique=True)
    #: The first characters of the key, so a player can tell tokens apart.
    hint = models.CharField(_("hint"), max_length=12)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    @classmethod
    def issue(cls, user: models.Model, name: str) -> tuple[ApiToken, str]:
        """A new token and its key (the only time the key exists in clear)."""
        key = cls.PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(user=user, name=name, key_hash=hash_token(key), hint=key[:10])
        return token, key


class Block(models.Model):
    """``blocker`` keeps ``blocked`` away: no challenge, invitation or message from them,
    and none of their open challenges (docs/conduct.md). Nobody but the blocker knows."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks_made",
        verbose_name=_("blocker"),
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks_received",
        verbose_name=_("blocked"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="unique_block"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class Report(models.Model):
    """A player's report of another player, or of one of their messages, for support
    staff (the admin). A reported message is copied in: the report keeps what was
    written whatever becomes of the game."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abuse or harassment")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Cheating")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="reports_made",
        verbose_name=_("reporter"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    details = models.TextField(_("details"), max_length=2000, blank=True)
    #: A reported message: its game, its id and its words when reported.
    game_id = models.PositiveIntegerField(_("game"), null=True, blank=True)
    message_id = models.PositiveIntegerField(_("message"), null=True, blank=True)
    message_text = models.TextField(_("message text"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: Set by support staff once they have dealt with it.
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("handled by"),
    )
    staff_note = models.TextField(_("staff note"), blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        indexes = [models.Index(fields=["handled_at", "created_at"])]
        constraints = [
            # A player reports a message once.
            models.UniqueConstraint(
                fields=["reporter", "message_id"],
                condition=models.Q(message_id__isnull=False),
                name="unique_message_report",
            ),
        ]

    def __str__(self) -> str:
        return f"Report {self.pk}: {self.reported} ({self.reason})"


def normalised_address(address: str) -> str:
    """An e-mail address as the opt-outs keep and compare it: trimmed, in lower case
    (the service compares addresses whatever their case, as everywhere else)."""
    return address.strip().lower()


class InvitationOptOut(models.Model):
    """An address whose owner, invited by e-mail with no account here, asked never to
    be invited again (the invitation's one-click unsubscribe link, RFC 8058). Every
    invitation to it is refused until an account has it as a verified address
    (``accounts.conduct.refuses_invitations``)."""

    #: ``normalised_address`` of the address.
    address = models.CharField(_("address"), max_length=254, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("invitation opt-out")
        verbose_name_plural = _("invitation opt-outs")

    def __str__(self) -> str:
        return self.address
