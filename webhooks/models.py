"""A player's webhooks and their deliveries (docs/webhooks.md).

A ``Delivery`` is an outbox row: written in the transaction of the event it carries,
POSTed after that commits. A webhook's deliveries go out one at a time, oldest first,
by whichever worker holds the webhook's claim (``claimed_at``, until ``claimed_until``);
after a failed attempt none goes out before ``retry_at``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Event


class Webhook(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.CharField(max_length=2000)
    #: The event kinds delivered (``games.events.KINDS``), at least one.
    kinds = models.JSONField(default=list)
    #: Signs every delivery (``webhooks.signing``); kept, as signing needs it, and shown
    #: to its owner only when made or replaced.
    secret = models.CharField(max_length=64)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    #: Failed attempts since the last delivery that went through: the back-off grows
    #: with it, and ``WEBHOOK_DISABLE_AFTER`` of them turn the webhook off.
    consecutive_failures = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=500, blank=True)
    #: No attempt before this (the back-off after a failed one).
    retry_at = models.DateTimeField(null=True, blank=True)
    #: The claim of the worker delivering: its start (which identifies it) and its end.
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["active", "retry_at"])]  # the minute sweep

    def __str__(self) -> str:
        return f"{self.url} ({self.user})"


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        DELIVERED = "delivered"
        FAILED = "failed"  # its attempts are spent
        SKIPPED = "skipped"  # its kind was unsubscribed before it went out

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    #: The event carried; none for a ping.
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="deliveries"
    )
    kind = models.CharField(max_length=32)
    game_id = models.BigIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    #: When the next attempt may be made (after a failed one), for the log.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    #: When the last attempt started.
    claimed_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The start of the receiver's last answer (at most 1 KB), for its owner to read.
    response_body = models.CharField(max_length=1024, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "deliveries"
        indexes = [
            models.Index(fields=["webhook", "status", "id"]),  # the next to deliver
            models.Index(fields=["created_at"]),  # the daily prune
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.webhook.url} (#{self.pk})"
