"""The inbound table: every message that came in for play by mail, stored before it
is acted on, and acted on once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from lib.outbox import Lifecycle, Outbox

#: A new row's ``next_attempt_at``: when the minute sweep queues it if the task queued
#: when it was stored has not taken it up.
RESEND_AFTER = timedelta(minutes=1)


def first_sweep() -> datetime:
    return timezone.now() + RESEND_AFTER


class InboundMail(Outbox):
    """One message received, by the SMTP receiver or a provider's webhook.

    Stored before anything is done with it: a crash loses nothing. A worker claims the
    row as every outbox row (``lib.outbox``) and marks it done in the transaction that
    acts on it: nothing is applied twice. The same message delivered again (its Message-ID, or its
    digest when it has none) is counted on the first row, never stored or acted on twice.
    """

    class Status(models.TextChoices):
        RECEIVED = "received"  # waits for a worker
        HANDLING = "handling"  # claimed, until next_attempt_at (the lease's end)
        DONE = "done"  # acted on (or deliberately not): see outcome
        FAILED = "failed"  # every attempt failed: see detail and last_error

    lifecycle = Lifecycle(
        Status.DONE,
        "MAIL_INBOUND_MAX_ATTEMPTS",
        "MAIL_INBOUND_LEASE_SECONDS",
        waiting=Status.RECEIVED,
        claimed=Status.HANDLING,
    )

    class Outcome(models.TextChoices):
        PLAYED = "played"  # moves applied
        ACTED = "acted"  # resign, a stalemate offer or answer, a Stop! call
        REFUSED = "refused"  # the rules or the game refused it: answered with the reason
        STALE = "stale"  # a reply to an e-mail the game has moved past
        HELP = "help"  # asked for help, or wrote nothing we could read: answered
        WRONG_SENDER = "wrong_sender"  # not the seat's player's verified address
        UNAUTHENTICATED = "unauthenticated"  # no DKIM signature of its From domain
        TAMPERED = "tampered"  # an address of ours with a wrong signature
        UNKNOWN = "unknown"  # no such game or seat, or not an address of ours
        AUTOMATIC = "automatic"  # an auto-reply, a list, a receipt: never answered
        BOUNCE = "bounce"  # a delivery report: the address may be marked failing
        THROTTLED = "throttled"  # over the sender's hourly limit (webhook only)
        MALFORMED = "malformed"  # cannot be read at all

    source = models.CharField(max_length=16)  # "smtp", or the provider ("mailgun")
    #: The Message-ID header (without its angle brackets), "" when the message had none.
    message_id = models.CharField(max_length=255, blank=True)
    #: SHA-256 of what makes the message itself (its body and main headers, not the
    #: trace headers each relay adds): a copy without Message-ID is still known.
    digest = models.CharField(max_length=64, unique=True)
    envelope_from = models.CharField(max_length=254, blank=True)
    #: The address of ours it was sent to (a play+ or bounce+ address).
    recipient = models.CharField(max_length=254)
    sender = models.CharField(max_length=254, blank=True)  # its From address
    subject = models.CharField(max_length=200, blank=True)
    raw = models.BinaryField()
    size = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RECEIVED)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True)
    #: What happened, in a line: the refusal's code and words, an error.
    detail = models.CharField(max_length=500, blank=True)
    #: Whether its From is proved by a DKIM signature of its domain (``pass``, ``fail``;
    #: "" when not checked: MAIL_AUTHENTICATE_SENDER off, or not a reply to play).
    authentication = models.CharField(
        max_length=8, choices=[("pass", "pass"), ("fail", "fail")], blank=True
    )
    #: The verdict in a line: which signature, which domain, why it failed.
    authentication_detail = models.CharField(max_length=300, blank=True)
    #: Whether an e-mail answered it (the answer to a reply, or the short one to a
    #: stranger or a reply that failed authentication).
    answered = models.BooleanField(default=False)
    #: SHA-256 of the player's own text as read (case and runs of blanks folded): the
    #: same unreadable text again is a machine's, and gets no second answer.
    text_digest = models.CharField(max_length=64, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True)
    #: Times the same message came again (a retry, a second delivery): never acted on.
    duplicates = models.PositiveIntegerField(default=0)
    received_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    #: ``lib.outbox``'s, queued by the sweep if the task queued on arrival has not
    #: taken it up.
    next_attempt_at = models.DateTimeField(
        _("next attempt at"), null=True, blank=True, default=first_sweep
    )

    class Meta:
        verbose_name = "inbound e-mail"
        constraints = [
            models.UniqueConstraint(
                fields=["message_id"], condition=~Q(message_id=""), name="unique_inbound_message_id"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"]),  # the minute sweep
            models.Index(fields=["sender", "received_at"]),  # the hourly limit
            models.Index(fields=["received_at"]),  # the retention
        ]

    def __str__(self) -> str:
        return f"mail {self.pk} from {self.sender or '?'} ({self.status} {self.outcome})".strip()
