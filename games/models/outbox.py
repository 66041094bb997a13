"""The outbox of e-mails: a row per e-mail, written in the transaction of what it
tells, sent after it commits (``games.notify.notifications``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models.game import Game
from games.models.lobby import Challenge
from lib.outbox import Lifecycle, Outbox

#: An outbox row is queued when its transaction commits; if it is still pending this
#: long after it was written (the broker was down, the task was lost), the minute
#: sweep queues it again.
OUTBOX_RESEND_AFTER = timedelta(minutes=2)


def outbox_first_sweep() -> datetime:
    """A new outbox row's ``next_attempt_at``: when the sweep takes it up if the task
    queued on commit has not sent it."""
    return timezone.now() + OUTBOX_RESEND_AFTER


class Notification(Outbox):
    """The outbox: one e-mail to send, written in the transaction of the event it tells.

    Claimed, retried and given up as every outbox row (``lib.outbox``): a task
    delivered twice sends one e-mail, and each row has at most
    ``settings.EMAIL_MAX_ATTEMPTS`` attempts, then ends failed.
    """

    class Status(models.TextChoices):
        #: To send now, or at next_attempt_at after a failed attempt.
        PENDING = "pending", pgettext_lazy("e-mail status", "Pending")
        #: Claimed by a worker (until next_attempt_at, its lease's end).
        SENDING = "sending", pgettext_lazy("e-mail status", "Sending")
        SENT = "sent", pgettext_lazy("e-mail status", "Sent")
        #: Waits for the player's daily digest.
        DIGEST = "digest", pgettext_lazy("e-mail status", "Digest")
        #: Given up: a permanent refusal, or every attempt failed.
        FAILED = "failed", pgettext_lazy("e-mail status", "Failed")
        #: Not sent: the turn it announced was over before it went out, or its player
        #: was looking at the game when it was to go (games.play.presence).
        OUTDATED = "outdated", pgettext_lazy("e-mail status", "Outdated")

    lifecycle = Lifecycle(Status.SENT, "EMAIL_MAX_ATTEMPTS", "NOTIFICATION_LEASE_SECONDS")

    #: The player told, or None for an invitee without an account (``email`` only).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
        verbose_name=_("user"),
    )
    email = models.EmailField(_("email"))
    kind = models.CharField(_("kind"), max_length=32)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("game")
    )
    challenge = models.ForeignKey(
        Challenge, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("challenge")
    )
    #: What the e-mail says beyond the game itself (e.g. the opponent's last turn).
    context = models.JSONField(_("context"), default=dict)
    #: The game's log length at the event: the e-mail shows the table as it was then,
    #: rebuilt from the deal and the log (None: no game, or a row from before this field).
    ply = models.PositiveIntegerField(_("ply"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    #: ``lib.outbox``'s, queued by the sweep if the task queued on commit has not
    #: sent it; None for a digest row waiting for its day.
    next_attempt_at = models.DateTimeField(
        _("next attempt at"), null=True, blank=True, default=outbox_first_sweep
    )

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [
            models.Index(fields=["status", "created_at"]),  # the retention's daily prune
            models.Index(fields=["status", "next_attempt_at"]),  # the minute sweep
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} ({self.status})"
