"""A player's webhooks and their deliveries (docs/webhooks.md).

A ``Delivery`` is an outbox row (``lib.outbox``): written in the transaction of the
event it carries, POSTed after that commits. A webhook's deliveries go out one at a
time, oldest first: only the oldest unfinished one is ever claimed
(``webhooks.delivery``); after a failed attempt none goes out before the webhook's
``retry_at``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Event
from lib.outbox import Lifecycle, Outbox


class Webhook(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="webhooks",
        verbose_name=_("user"),
    )
    url = models.CharField(_("URL"), max_length=2000)
    #: The event kinds delivered (``games.feed.events.KINDS``), at least one.
    kinds = models.JSONField(_("kinds"), default=list)
    #: Signs every delivery (``webhooks.signing``); kept, as signing needs it, and shown
    #: to its owner only when made or replaced.
    secret = models.CharField(_("secret"), max_length=64)
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    #: Failed attempts since the last delivery that went through: the back-off grows
    #: with it, and ``WEBHOOK_DISABLE_AFTER`` of them turn the webhook off.
    consecutive_failures = models.PositiveIntegerField(_("consecutive failures"), default=0)
    disabled_at = models.DateTimeField(_("disabled at"), null=True, blank=True)
    disabled_reason = models.CharField(_("disabled reason"), max_length=500, blank=True)
    #: No attempt before this (the back-off after a failed one).
    retry_at = models.DateTimeField(_("retry at"), null=True, blank=True)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        indexes = [models.Index(fields=["active", "retry_at"])]  # the minute sweep

    def __str__(self) -> str:
        return f"{self.url} ({self.user})"


class Delivery(Outbox):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SENDING = "sending", _("Sending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")  # its attempts are spent
        SKIPPED = "skipped", _("Skipped")  # its kind was unsubscribed before it went out

    lifecycle = Lifecycle(Status.DELIVERED, "WEBHOOK_MAX_ATTEMPTS", "NOTIFICATION_LEASE_SECONDS")

    webhook = models.ForeignKey(
        Webhook, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("webhook")
    )
    #: The event carried; none for a ping.
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
        verbose_name=_("event"),
    )
    kind = models.CharField(_("kind"), max_length=32)
    game_id = models.BigIntegerField(_("game id"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(_("response status"), null=True, blank=True)
    #: The start of the receiver's last answer (at most 1 KB), for its owner to read.
    response_body = models.CharField(_("response body"), max_length=1024, blank=True)
    duration_ms = models.PositiveIntegerField(_("duration ms"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        indexes = [
            models.Index(fields=["webhook", "status", "id"]),  # the next to deliver
            models.Index(fields=["created_at"]),  # the daily prune
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.webhook.url} (#{self.pk})"
