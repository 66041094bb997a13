"""Push notifications: each browser a player allowed to notify them, and the outbox
of pushes to send to it (``games.push``; docs/notifications.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models.game import Game
from games.models.lobby import Challenge
from games.models.outbox import outbox_first_sweep
from lib.outbox import Lifecycle, Outbox


class PushSubscription(models.Model):
    """One browser's subscription (the Push API's ``PushSubscription``): where its push
    service takes messages for it, and the keys that encrypt them (RFC 8291). A player
    has one per device; the push service's 404 or 410 deletes it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    #: The push service's URL for this browser: unique, a capability of its own.
    endpoint = models.CharField(_("endpoint"), max_length=1000, unique=True)
    #: The browser's P-256 public key and its authentication secret, base64url.
    p256dh = models.CharField(_("public key"), max_length=200)
    auth = models.CharField(_("authentication secret"), max_length=100)
    #: What the player may tell it by (the browser's description of itself).
    device = models.CharField(_("device"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user} on {self.device or self.endpoint[:40]}"

    def info(self) -> dict[str, object]:
        """As the Push API's ``PushSubscription.toJSON()`` gives it (pywebpush reads it)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushMessage(Outbox):
    """One push to one device, written in the transaction of the event it tells and
    sent after it commits: claimed, retried and given up by the one outbox (``lib.outbox``),
    at most ``settings.PUSH_MAX_ATTEMPTS`` attempts."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("push status", "Pending")
        SENDING = "sending", pgettext_lazy("push status", "Sending")
        SENT = "sent", pgettext_lazy("push status", "Sent")
        FAILED = "failed", pgettext_lazy("push status", "Failed")
        #: Not sent: its player was at the game, or the turn was over, when it was to go.
        OUTDATED = "outdated", pgettext_lazy("push status", "Outdated")
        #: Not sent: the push service says the subscription is gone (404, 410).
        GONE = "gone", pgettext_lazy("push status", "Gone")

    lifecycle = Lifecycle(Status.SENT, "PUSH_MAX_ATTEMPTS", "PUSH_LEASE_SECONDS")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_messages",
        verbose_name=_("user"),
    )
    #: None once the subscription is gone (the row stays, to say why it was not sent).
    subscription = models.ForeignKey(
        PushSubscription,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="messages",
        verbose_name=_("push subscription"),
    )
    kind = models.CharField(_("kind"), max_length=32)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("game")
    )
    challenge = models.ForeignKey(
        Challenge, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("challenge")
    )
    #: What the notice says beyond the game itself, as an e-mail's row keeps it.
    context = models.JSONField(_("context"), default=dict)
    #: The game's log length at the event (the turn it tells of).
    ply = models.PositiveIntegerField(_("ply"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    next_attempt_at = models.DateTimeField(
        _("next attempt at"), null=True, blank=True, default=outbox_first_sweep
    )

    class Meta:
        verbose_name = _("push message")
        verbose_name_plural = _("push messages")
        indexes = [
            models.Index(fields=["status", "created_at"]),  # the retention's daily prune
            models.Index(fields=["status", "next_attempt_at"]),  # the minute sweep
        ]

    def __str__(self) -> str:
        return f"push {self.kind} to {self.user} ({self.status})"
