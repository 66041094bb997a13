"""The outbox: e-mails written in the event's transaction, sent after it commits.

``notify`` is called inside a service's transaction. It honours the player's
preference for that kind of event (immediately, in the daily digest, or never),
writes a ``Notification`` row and, for "immediately", dispatches the sending task
once the transaction commits. The row is claimed, retried and given up by the one
outbox mechanism (``lib.outbox``): a task delivered twice, or a row re-dispatched by
the sweep, sends one e-mail, and a task the broker cannot take is left to the sweep.

What is the e-mail's own: which failures are permanent (a 5xx refusal, a template
that does not render: ``is_permanent``), the back-off (``EMAIL_RETRY_BACKOFF``,
doubling), the rows that need no e-mail any more (``outdated``), and the log.
"""

from __future__ import annotations

import logging
import smtplib
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError
from django.db.models import Q
from django.utils import timezone

from accounts.bots import level_of
from accounts.conduct import refuses_invitations
from accounts.notices import PUSH_MODES
from accounts.services import (
    bouncing,
    profile_of,
)
from games.models import Challenge, Game, Notification
from games.notify import channels
from games.notify.mail_play import plays_by_mail
from games.notify.writing import TURN_KINDS, build_message, moment_of, talk_of
from games.play import presence
from lib import outbox
from lib.logs import fields

logger = logging.getLogger(__name__)


#: The tasks that send the outbox's e-mails (``games.tasks``), named: the outbox queues
#: them without importing them, for the tasks call it.
SEND_NOTIFICATION = "games.tasks.send_notification"
SEND_DIGEST = "games.tasks.send_digest"


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
    """Tell of ``kind`` (see games.notify.kinds) as the player's preference for it says:
    an e-mail (its outbox row, returned), a push to each of their devices
    (``channels.send_by_push``), both, a line in the daily digest, or nothing. In a game its
    player plays by mail, "your turn" is the game itself: e-mailed at once, whatever
    the preference for notices. Against the computer, which answers within seconds,
    "your turn" is sent only to a player who asks for it
    (``Profile.computer_turn_emails``; docs/notifications.md). A "push" notice to a
    player with no device goes by e-mail; a "your turn" by push and e-mail waits
    ``Profile.email_after_push_minutes`` for the game to be opened (``after_push``).
    ``queue=False``: no task is queued, the caller sends the row itself once committed
    (``send``), or else the minute sweep does."""
    profile = profile_of(user) if user else None
    mode = profile.notifications.get(kind, "immediately") if profile else "immediately"
    by_mail = False
    if kind == "your_turn" and user is not None and game is not None:
        seat = game.seat_of(user.pk)
        if seat is not None and plays_by_mail(game, seat, profile):
            by_mail = True
            mode = "push_and_email" if mode in PUSH_MODES else "immediately"
        elif against_computer(game) and not (profile and profile.computer_turn_emails):
            mode = "never"
    pushed = False
    if mode in PUSH_MODES and user is not None:
        notice = channels.Notice(kind, user, game, challenge, dict(context))
        pushed = channels.send_by_push(notice)
        if pushed and mode == "push":
            return None
    address = email or (user.email if user else "")
    if mode == "never" or not address:
        return None
    later = None
    if pushed and kind == "your_turn" and game is not None and not by_mail and profile:
        minutes = profile.email_after_push_minutes
        if minutes:
            later = timezone.now() + timedelta(minutes=minutes)
            context["after_push"] = time.time()
    digest = mode == "daily_digest"
    # A digest's row waits for its day; an e-mail after a push, for its time to come.
    waits = {"next_attempt_at": None} if digest else {"next_attempt_at": later} if later else {}
    row = Notification.objects.create(
        user=user,
        email=address,
        kind=kind,
        game=game,
        challenge=challenge,
        context=context,
        ply=None if game is None else game.ply,
        status=Notification.Status.DIGEST if digest else Notification.Status.PENDING,
        **waits,
    )
    # An e-mail after a push is queued by the minute sweep, once its time has come.
    if queue and row.status == Notification.Status.PENDING and later is None:
        outbox.dispatch_on_commit(SEND_NOTIFICATION, row.pk)
    return row


def opened_since_push(row: Notification) -> bool:
    """Whether the row is an e-mail following a push (``after_push``) whose game its
    player has opened since the push: the push did its work."""
    pushed_at = row.context.get("after_push")
    if not isinstance(pushed_at, int | float) or row.user_id is None or row.game_id is None:
        return False
    return presence.seen_since(row.user_id, row.game_id, pushed_at)


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


def retry_delay(attempts: int) -> timedelta:
    """The back-off after the ``attempts``-th failed attempt: doubling, capped."""
    return outbox.backoff(attempts, settings.EMAIL_RETRY_BACKOFF, settings.EMAIL_RETRY_BACKOFF_MAX)


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


def attempt_failed(
    rows: Sequence[Notification], claimed_at: datetime, error: Exception, *, retry_as: str
) -> None:
    """One attempt at the e-mail of ``rows`` (one row, or a digest's), claimed at
    ``claimed_at``, failed with ``error``: each row either waits for its next attempt,
    in status ``retry_as``, or ends failed (a permanent error, or its attempts spent)."""
    reason = describe(error)
    permanent = is_permanent(error)
    failed = outbox.attempt_failed(
        rows, claimed_at, reason, retry_in=retry_delay, permanent=permanent, waiting=retry_as
    )
    ids = ",".join(str(r.pk) for r in rows)
    if spent := failed.spent:
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
    if failed.again and failed.retry_at is not None:
        attempts = max(r.attempts for r in failed.again)
        logger.warning(
            "e-mail failed %s",
            fields(
                id=ids,
                kind=rows[0].kind,
                attempt=attempts,
                error=reason,
                next=failed.retry_at.isoformat(),
            ),
        )


def send(notification_id: int) -> bool:
    """One attempt at a claimable notification; True when this call sent it."""
    claimed_at = outbox.claim(Notification.objects.filter(pk=notification_id))
    if claimed_at is None:
        return False
    row = Notification.objects.select_related("user", "game", "challenge").get(pk=notification_id)
    this = Notification.objects.filter(pk=row.pk)
    if row.user is not None and bouncing(profile_of(row.user), row.email):
        outbox.finish(
            this,
            Notification.Status.FAILED,
            last_error="not sent: e-mails to this address bounce (the account page says so)",
        )
        return False
    if row.user is None and row.kind == "invitation" and refuses_invitations(row.email):
        outbox.finish(
            this,
            Notification.Status.OUTDATED,
            last_error="not sent: the address asked never to be invited",
        )
        return False
    try:
        moment = moment_of(row)
        if row.kind == "message" and row.game is not None and not talk_of(row, row.game):
            # Its writer was blocked since: the recipient reads nothing from them.
            outbox.finish(this, Notification.Status.OUTDATED)
            return False
        if (
            (moment is not None and row.kind in TURN_KINDS and moment.turn_is_over)
            or at_the_game(row)
            or opened_since_push(row)
        ):
            outbox.finish(this, Notification.Status.OUTDATED)
            logger.info("e-mail not needed %s", fields(id=row.pk, kind=row.kind))
            return False
        build_message(row, moment).send()
    except DatabaseError:
        raise  # not the e-mail's fault: the claim runs out and the sweep tries again
    except Exception as error:
        attempt_failed([row], claimed_at, error, retry_as=Notification.Status.PENDING)
        return False
    outbox.finish(this, sent_at=timezone.now())
    return True


def queue_due(now: datetime, batch: int) -> dict[str, int]:
    """The minute sweep's part for the outbox (``games.sweep``): the e-mails whose next
    attempt is due (never sent, back-off over, or a claim whose lease ran out), and the
    digests whose last attempt failed (a digest's first is the daily run), queued."""
    due_rows = Notification.objects.filter(
        outbox.due(Notification, now)
        | Q(
            status=Notification.Status.DIGEST,
            attempts__gt=0,
            user__isnull=False,
            next_attempt_at__lte=now,
        )
    ).values_list("pk", "status", "user_id")[:batch]
    emails, digests = [], set()
    for pk, status, user_id in due_rows:
        if status == Notification.Status.DIGEST:
            digests.add(user_id)
        else:
            emails.append(pk)
    resent = sum(outbox.dispatch(SEND_NOTIFICATION, pk) for pk in emails)
    digests_resent = sum(outbox.dispatch(SEND_DIGEST, user_id) for user_id in digests)
    return {
        "resent": resent,
        "digests_resent": digests_resent,
        # The broker is down: next minute, again.
        "unqueued": len(emails) - resent + len(digests) - digests_resent,
    }
