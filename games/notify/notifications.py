"""The outbox: e-mails written in the event's transaction, sent after it commits.

``notify`` is called inside a service's transaction. It honours the player's
preference for that kind of event (immediately, in the daily digest, or never),
writes a ``Notification`` row and, for "immediately", dispatches the sending task
once the transaction commits. ``send`` claims the row with a conditional UPDATE:
a task delivered twice, or a row re-dispatched by the sweep, sends one e-mail.
A task the broker cannot take is logged and left to the sweep (``dispatch``): the
action it follows has committed and is never reported as failed.

An e-mail gives up: each claim is an attempt, and a failed attempt either schedules
the next one (``next_attempt_at``, with exponential back-off, for the minute sweep to
queue) or, when the failure is permanent (a 5xx refusal, a template that does not
render) or the attempts are spent (``settings.EMAIL_MAX_ATTEMPTS``), ends the row
``failed`` with the error kept in ``last_error``.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from accounts.bots import level_of
from accounts.conduct import refuses_invitations
from accounts.services import (
    bouncing,
    profile_of,
)
from games.models import Challenge, Game, Notification
from games.notify.mail_play import plays_by_mail
from games.notify.writing import TURN_KINDS, build_message, moment_of, talk_of
from games.play import presence
from lib.logs import fields

logger = logging.getLogger(__name__)


#: The tasks that send the outbox's e-mails (``games.tasks``), named: the outbox queues
#: them without importing them, for the tasks call it.
SEND_NOTIFICATION = "games.tasks.send_notification"
SEND_DIGEST = "games.tasks.send_digest"


def dispatch(task: str, *args: Any, countdown: float | None = None) -> bool:
    """Queue the task named ``task`` (to run ``countdown`` seconds from now, if given);
    False, with a warning, when the broker cannot take it.

    Every caller has already committed what the task is about (an outbox row still
    pending, a digest still waiting), and the sweep or the next run queues it again.
    So no failure here may reach the caller: whatever the broker raises (a missing
    folder, a refused connection, kombu's or redis's own errors) is only logged.
    """
    try:
        current_app.tasks[task].apply_async(args, countdown=countdown)
    except Exception as exc:
        logger.warning("could not queue %s%r, left for the sweep: %r", task, args, exc)
        return False
    return True


def lease() -> timedelta:
    """How long a claimed row belongs to the worker that claimed it: a dead worker's
    rows are taken up again after this (settings.NOTIFICATION_LEASE_SECONDS)."""
    return timedelta(seconds=settings.NOTIFICATION_LEASE_SECONDS)


def notify(
    kind: str,
    *,
    user: User | None = None,
    email: str = "",
    game: Game | None = None,
    challenge: Challenge | None = None,
    queue: bool = True,
    **context: Any,
) -> Notification | None:
    """Queue an e-mail about ``kind`` (see games.notify.kinds). In a
    game its player plays by mail, "your turn" is the game itself: sent at once,
    whatever the preference for notices. Against the computer, which answers within
    seconds, "your turn" is sent only to a player who asks for it
    (``Profile.computer_turn_emails``; docs/notifications.md). ``queue=False``: no
    task is queued, the caller sends the row itself once committed (``send``), or
    else the minute sweep does."""
    profile = profile_of(user) if user else None
    mode = profile.notifications.get(kind, "immediately") if profile else "immediately"
    if kind == "your_turn" and user is not None and game is not None:
        seat = game.seat_of(user.pk)
        if seat is not None and plays_by_mail(game, seat, profile):
            mode = "immediately"
        elif against_computer(game) and not (profile and profile.computer_turn_emails):
            mode = "never"
    address = email or (user.email if user else "")
    if mode == "never" or not address:
        return None
    row = Notification.objects.create(
        user=user,
        email=address,
        kind=kind,
        game=game,
        challenge=challenge,
        context=context,
        ply=None if game is None else game.ply,
        status=Notification.Status.DIGEST
        if mode == "daily_digest"
        else Notification.Status.PENDING,
        **({"next_attempt_at": None} if mode == "daily_digest" else {}),
    )
    if queue and row.status == Notification.Status.PENDING:
        transaction.on_commit(partial(dispatch, SEND_NOTIFICATION, row.pk))
    return row


def against_computer(game: Game) -> bool:
    """Whether a computer player sits at ``game`` (``accounts.bots``)."""
    return any(level_of(player) for player in game.players)


def at_the_game(row: Notification) -> bool:
    """Whether the row is a "your turn" whose player is looking at its game now (its
    page, a poll or its stream in the last ``PRESENCE_SECONDS``, ``games.play.presence``):
    they see the turn come, and need no e-mail. One who plays the game by mail gets it
    all the same: for them the e-mail is the game."""
    if row.kind != "your_turn" or row.user_id is None or row.game is None:
        return False
    if not presence.is_present(row.user_id, row.game.pk):
        return False
    seat = row.game.seat_of(row.user_id)
    return seat is None or not plays_by_mail(row.game, seat)


def claim(notification_id: int) -> bool:
    """Take the row for an attempt; False when another worker has it or it is done.

    A row whose attempts are spent is not taken but ends failed: its last attempt's
    worker was lost (the claim ran out), or ``EMAIL_MAX_ATTEMPTS`` was lowered.
    """
    now = timezone.now()
    claimable = Notification.objects.filter(
        Q(status=Notification.Status.PENDING)
        | Q(status=Notification.Status.SENDING, next_attempt_at__lte=now),
        pk=notification_id,
    )
    limit = settings.EMAIL_MAX_ATTEMPTS
    if claimable.filter(attempts__lt=limit).update(
        status=Notification.Status.SENDING,
        claimed_at=now,
        next_attempt_at=now + lease(),
        attempts=F("attempts") + 1,
    ):
        return True
    if claimable.filter(attempts__gte=limit).update(
        status=Notification.Status.FAILED,
        next_attempt_at=None,
        last_error=Case(
            When(
                status=Notification.Status.SENDING,
                then=Value("no word from the worker of the last attempt (its claim ran out)"),
            ),
            default=F("last_error"),
        ),
    ):
        logger.error("e-mail %s failed: its %d attempts are spent", notification_id, limit)
    return False


def retry_delay(attempts: int) -> timedelta:
    """The back-off after the ``attempts``-th failed attempt: doubling, capped."""
    seconds = settings.EMAIL_RETRY_BACKOFF * 2 ** min(attempts - 1, 30)
    return timedelta(seconds=min(seconds, settings.EMAIL_RETRY_BACKOFF_MAX))


def is_permanent(error: BaseException) -> bool:
    """Whether no later attempt can mend ``error``.

    The SMTP server's 5xx answers about the message (a dead address, content refused)
    are permanent; 4xx answers, a refused or lost connection and a timeout are not. A
    refused login or sender address is our configuration: retried, so that a fix in
    time still delivers. Whatever is not a network error (a template that does not
    render, a header Django refuses) would fail the same way again.
    """
    if isinstance(error, SoftTimeLimitExceeded):
        return False  # the task's time ran out: a slow server, as a timeout
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(500 <= code < 600 for code, _ in error.recipients.values())
    if isinstance(error, smtplib.SMTPAuthenticationError | smtplib.SMTPSenderRefused):
        return False
    if isinstance(error, smtplib.SMTPResponseException):
        return 500 <= error.smtp_code < 600
    return not isinstance(error, OSError)


def describe(error: BaseException) -> str:
    """``error`` in a line for ``Notification.last_error``: the server's answer if any."""

    def answer(code: int, text: bytes | str) -> str:
        words = text.decode(errors="replace") if isinstance(text, bytes) else text
        return f"{code} {words}"

    if isinstance(error, smtplib.SMTPRecipientsRefused):
        line = "; ".join(
            f"{address}: {answer(code, text)}" for address, (code, text) in error.recipients.items()
        )
    elif isinstance(error, smtplib.SMTPResponseException):
        line = answer(error.smtp_code, error.smtp_error)
    else:
        line = type(error).__name__ + (f": {error}" if str(error) else "")
    return " ".join(line.split())[:500]


def attempt_failed(rows: Sequence[Notification], error: Exception, *, retry_as: str) -> None:
    """One attempt at the e-mail of ``rows`` (one row, or a digest's) failed with
    ``error``: each row either waits for its next attempt, in status ``retry_as``, or
    ends failed (a permanent error, or its attempts spent). Only rows still held by
    this attempt's claim are changed."""
    now = timezone.now()
    reason = describe(error)
    permanent = is_permanent(error)
    spent = [r for r in rows if permanent or r.attempts >= settings.EMAIL_MAX_ATTEMPTS]
    again = [r for r in rows if r not in spent]
    held = Notification.objects.filter(
        status=Notification.Status.SENDING, claimed_at=rows[0].claimed_at
    )
    ids = ",".join(str(r.pk) for r in rows)
    if spent:
        held.filter(pk__in=[r.pk for r in spent]).update(
            status=Notification.Status.FAILED, next_attempt_at=None, last_error=reason
        )
        logger.error(
            "e-mail gave up %s",
            fields(
                id=ids,
                kind=rows[0].kind,
                attempts=max(r.attempts for r in spent),
                permanent=permanent,
                error=reason,
            ),
            exc_info=not isinstance(error, OSError),  # a template's traceback, say
        )
    if again:
        attempts = max(r.attempts for r in again)
        retry_at = now + retry_delay(attempts)
        held.filter(pk__in=[r.pk for r in again]).update(
            status=retry_as, next_attempt_at=retry_at, last_error=reason
        )
        logger.warning(
            "e-mail failed %s",
            fields(
                id=ids, kind=rows[0].kind, attempt=attempts, error=reason, next=retry_at.isoformat()
            ),
        )


def send(notification_id: int) -> bool:
    """One attempt at a claimable notification; True when this call sent it."""
    if not claim(notification_id):
        return False
    row = Notification.objects.select_related("user", "game", "challenge").get(pk=notification_id)
    if row.user is not None and bouncing(profile_of(row.user), row.email):
        Notification.objects.filter(pk=row.pk).update(
            status=Notification.Status.FAILED,
            next_attempt_at=None,
            last_error="not sent: e-mails to this address bounce (the account page says so)",
        )
        return False
    if row.user is None and row.kind == "invitation" and refuses_invitations(row.email):
        Notification.objects.filter(pk=row.pk).update(
            status=Notification.Status.OUTDATED,
            next_attempt_at=None,
            last_error="not sent: the address asked never to be invited",
        )
        return False
    try:
        moment = moment_of(row)
        if row.kind == "message" and row.game is not None and not talk_of(row, row.game):
            # Its writer was blocked since: the recipient reads nothing from them.
            Notification.objects.filter(pk=row.pk).update(
                status=Notification.Status.OUTDATED, next_attempt_at=None
            )
            return False
        if (moment is not None and row.kind in TURN_KINDS and moment.turn_is_over) or (
            at_the_game(row)
        ):
            Notification.objects.filter(pk=row.pk).update(
                status=Notification.Status.OUTDATED, next_attempt_at=None
            )
            logger.info("e-mail not needed %s", fields(id=row.pk, kind=row.kind))
            return False
        build_message(row, moment).send()
    except DatabaseError:
        raise  # not the e-mail's fault: the claim runs out and the sweep tries again
    except Exception as error:
        attempt_failed([row], error, retry_as=Notification.Status.PENDING)
        return False
    Notification.objects.filter(pk=row.pk).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), next_attempt_at=None
    )
    return True


def queue_due(now: datetime, batch: int) -> dict[str, int]:
    """The minute sweep's part for the outbox (``games.sweep``): the e-mails whose next
    attempt is due (never sent, back-off over, or a claim whose lease ran out), and the
    digests whose last attempt failed (a digest's first is the daily run), queued."""
    due_rows = Notification.objects.filter(
        Q(status__in=[Notification.Status.PENDING, Notification.Status.SENDING])
        | Q(status=Notification.Status.DIGEST, attempts__gt=0, user__isnull=False),
        next_attempt_at__lte=now,
    ).values_list("pk", "status", "user_id")[:batch]
    emails, digests = [], set()
    for pk, status, user_id in due_rows:
        if status == Notification.Status.DIGEST:
            digests.add(user_id)
        else:
            emails.append(pk)
    resent = sum(dispatch(SEND_NOTIFICATION, pk) for pk in emails)
    digests_resent = sum(dispatch(SEND_DIGEST, user_id) for user_id in digests)
    return {
        "resent": resent,
        "digests_resent": digests_resent,
        # The broker is down: next minute, again.
        "unqueued": len(emails) - resent + len(digests) - digests_resent,
    }
