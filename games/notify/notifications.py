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
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.db import DatabaseError, transaction
from django.db.models import Case, F, Q, Value, When
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from accounts.bots import level_of
from accounts.conduct import accounts_at, refuses_invitations
from accounts.models import NOTIFICATION_EVENTS, Profile
from accounts.services import (
    bouncing,
    language_of,
    no_invitations_token,
    profile_of,
    unsubscribe_token,
    verified_address,
)
from games import talk
from games.engine import BY_RESIGNATION, BY_TIMEOUT, STALEMATE, Position, view
from games.engine import Game as EngineGame
from games.models import Challenge, Game, Message, Notification
from games.notify.board_text import board_text, mail_table
from games.notify.mail_play import BounceAddress, menu, plays_by_mail
from games.play import presence
from games.play.results import agreement_terms, stalemate_how, stalemate_scorer
from games.play.store import engine_game
from lib.logs import fields
from lib.naming import site_name

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


def game_link(game_id: int) -> str:
    """The game's page: where a player lands from any e-mail about the game."""
    return settings.SITE_URL + reverse("game", args=[game_id])


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
    """Queue an e-mail about ``kind`` (see accounts.models.NOTIFICATION_EVENTS). In a
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


#: E-mails that tell their recipient it is their turn: not sent once that turn is over.
TURN_KINDS = frozenset({"your_turn", "reminder"})


@dataclass(frozen=True)
class Moment:
    """The game at an e-mail's event (``then``) and as it stands (``now``)."""

    then: Position
    now: Position
    engine: EngineGame  # the game as it stands

    @property
    def turn_is_over(self) -> bool:
        return self.now.is_over or self.now.turns != self.then.turns


def moment_of(row: Notification) -> Moment | None:
    """The game as it was at the row's event: the stored snapshot while nothing has
    been logged since, else rebuilt from the deal seed and the log up to the event."""
    game = row.game
    if game is None:
        return None
    engine = engine_game(game)
    now = engine.position
    if row.ply is None or row.ply == engine.entry_count:
        return Moment(now, now, engine)
    return Moment(engine.position_at(row.ply), now, engine)


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
        if row.kind == "message" and row.game is not None and not _talk(row, row.game):
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


def deadline_words(when: datetime) -> str:
    """A deadline as e-mails write it, in the active language's format
    (``config/formats/``) and ``when``'s zone: "Saturday 28 November 2026, 09:00
    CET", German "Samstag, 28. November 2026, 09:00 CET"."""
    return f"{date_format(when, 'DATETIME_FORMAT')} {when.tzname()}"


def recipient_language(row: Notification) -> str:
    """The language of an e-mail: its recipient's (``language_of``), whoever caused it.
    An invitee with no account yet reads the inviter's, the best guess there is."""
    if row.user is not None:
        return language_of(row.user)
    if row.challenge is not None:
        return language_of(row.challenge.challenger)
    return str(settings.LANGUAGE_CODE)


def build_message(row: Notification, moment: Moment | None = None) -> EmailMultiAlternatives:
    language = recipient_language(row)
    with translation.override(language):
        message = _build_message(row, moment)
    message.extra_headers["Content-Language"] = language
    return message


def _build_message(row: Notification, moment: Moment | None) -> EmailMultiAlternatives:
    context = email_context(row, moment)
    subject = render_to_string(f"emails/{row.kind}-subject.txt", context).strip()
    message = EmailMultiAlternatives(
        subject, render_to_string(f"emails/{row.kind}-body.txt", context), to=[row.email]
    )
    message.attach_alternative(
        render_to_string(f"emails/{row.kind}-body.html", context), "text/html"
    )
    _mail_headers(message, row.pk, context)
    if "unsubscribe_link" in context:
        _unsubscribe_headers(message, context["unsubscribe_link"])
    return message


def _mail_headers(message: EmailMultiAlternatives, row_id: int, context: dict[str, Any]) -> None:
    """Who answers what: the play-by-mail reply address, the bounce address as the
    envelope sender (the From header stays the site's), a machine's mark (RFC 3834:
    auto-responders do not answer it), and the thread of the reply it answers."""
    if settings.MAIL_BOUNCE_ADDRESSES:
        message.extra_headers["From"] = message.from_email
        message.from_email = str(BounceAddress(row_id))
    replied = context.get("in_reply_to")
    message.extra_headers["Auto-Submitted"] = "auto-replied" if replied else "auto-generated"
    if replied:
        message.extra_headers["In-Reply-To"] = f"<{replied}>"
        message.extra_headers["References"] = f"<{replied}>"
    if "mail_play" in context:
        message.reply_to = [context["mail_play"]["reply_to"]]


def _unsubscribe_headers(message: EmailMultiAlternatives, link: str) -> None:
    """RFC 2369 and RFC 8058: mail clients show an unsubscribe button that POSTs here."""
    message.extra_headers["List-Unsubscribe"] = f"<{link}>"
    message.extra_headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"


def email_context(row: Notification, moment: Moment | None = None) -> dict[str, Any]:
    """What the templates may show. The table is drawn as it was at the event, from the
    recipient's view only (never from the full position)."""
    context: dict[str, Any] = {
        "site_name": site_name(),
        "site_url": settings.SITE_URL,
        **row.context,
    }
    if context.get("why_message"):
        # Why a reply could not be read (mailplay.commands.Unreadable): kept in the row
        # as its message and values, and said in the language the e-mail is written in.
        context["why"] = _(context["why_message"]) % context.get("why_params", {})
    user = row.user
    profile = profile_of(user) if user is not None else None  # read once for the e-mail
    if user is not None and profile is not None:
        context["player"] = profile.display_name or user.get_username()
    if user is not None and row.kind in NOTIFICATION_EVENTS:
        # The answer to a player's own reply is no news to unsubscribe from.
        token = unsubscribe_token(user, row.kind)
        context["unsubscribe_link"] = f"{settings.SITE_URL}/unsubscribe/{token}/"
    elif row.kind == "invitation" and not accounts_at(row.email):
        # A stranger invited: one click asks never to be invited again.
        token = no_invitations_token(row.email)
        context["unsubscribe_link"] = f"{settings.SITE_URL}/unsubscribe/{token}/"
        context["stranger"] = True
    game = row.game
    if game is not None:
        seat = game.seat_of(user.pk if user else None)
        moment = moment or moment_of(row)
        assert moment is not None
        position = moment.then
        if seat is not None and _plays_this_by_mail(row, game, seat, profile):
            # The moves menu and its reply address are for the game as it stands, so
            # the table shown is the one a reply plays on.
            position = moment.now
            context["mail_play"] = menu(game, moment.engine, seat)
        context["game"] = game
        context["talk"] = _talk(row, game)
        context["game_link"] = game_link(game.pk)
        context["replay_link"] = settings.SITE_URL + reverse("game-replay", args=[game.pk])
        seen = view(position, seat)
        if row.kind == "stalemate_offer" and seat is not None:
            # What agreeing would score, as the page shows it before one answers.
            counts = [seen[letter]["count"] for letter in game.letters]
            context["agreement"] = agreement_terms(game, seat, counts, position.stalemate_score())
        context["board"] = board_text(seen)
        context["table"] = mail_table(seen)
        context["opponent"] = (
            _and([name for other, name in enumerate(game.names().values()) if other != seat])
            if seat is not None
            else ""
        )
        if game.deadline is not None and profile is not None:
            zone = ZoneInfo(profile.time_zone)
            context["deadline"] = deadline_words(game.deadline.astimezone(zone))
        if position.score is not None and seat is not None:
            context["my_score"] = position.score[seat]
            context["others_scores"] = _and(
                [
                    _("%(name)s scores %(points)s") % {"name": name, "points": points}
                    for other, (name, points) in enumerate(
                        zip(game.names().values(), position.score, strict=True)
                    )
                    if other != seat
                ]
            )
            context.update(_result(game, position, seat))
    if row.challenge is not None:
        context["challenge"] = row.challenge
        context["challenger"] = row.challenge.challenger.get_username()
        context["mine"] = row.user_id == row.challenge.challenger_id
        context["link"] = f"{settings.SITE_URL}/invitations/{row.challenge.token}/"
        context["lobby_link"] = settings.SITE_URL + reverse("lobby")
    return context


def _talk(row: Notification, game: Game) -> list[dict[str, str]]:
    """The players' messages the e-mail carries (``games.talk``), as its recipient may
    read them when it is sent: none from a writer they have blocked since."""
    ids = row.context.get("message_ids") or []
    if not ids:
        return []
    written = Message.objects.filter(game=game, pk__in=ids).order_by("pk")
    return [
        {"author": game.names().get(message.seat, ""), "text": message.text}
        for message in talk.for_reader(written, row.user)
    ]


#: E-mails that carry the moves menu and a reply address to a player who plays by mail.
MENU_KINDS = frozenset(
    {"your_turn", "reminder", "stalemate_offer", "stalemate_declined", "mail_answer"}
)


def _plays_this_by_mail(row: Notification, game: Game, seat: int, profile: Profile | None) -> bool:
    """Whether the row's e-mail offers play by mail: a kind that carries the menu, to a
    player who plays this game by mail, at a verified address (only such an address's
    replies are read). The answer to a reply always does."""
    if row.kind not in MENU_KINDS or row.user is None:
        return False
    wanted = row.kind == "mail_answer" or plays_by_mail(game, seat, profile)
    return wanted and verified_address(row.user, row.email)


def _and(names: list[str]) -> str:
    """``names`` as a sentence lists them: "bob", "bob and carol"."""
    words = names[0] if names else ""
    for name in names[1:]:
        # Translators: two names, or a list of them and one more: "bob and carol".
        words = _("%(earlier)s and %(later)s") % {"earlier": words, "later": name}
    return words


def _result(game: Game, position: Position, seat: int) -> dict[str, str]:
    """How the game ended, from ``seat``'s side, for the result e-mails' subjects:
    ``outcome`` (who resigned or ran out of time, who won) and ``scores`` (every seat,
    the recipient first). The pages word results with games/play/results.py."""
    names = list(game.names().values())

    def said(other: int, yours: str, theirs: str) -> str:
        """``yours`` when ``other`` is the recipient, else ``theirs`` with their name."""
        return yours if other == seat else theirs % {"name": names[other]}

    # The result's parts follow "Game 12 against bob has ended: ..." in the e-mails.
    words = []
    if position.ending in (BY_RESIGNATION, BY_TIMEOUT):
        # The forfeit is the record's last entry, by the seat that forfeited.
        forfeited = game.letters.index(game.forfeiter)
        if position.ending == BY_RESIGNATION:
            yours = pgettext("game over e-mail", "you resigned")
            theirs = pgettext("game over e-mail", "%(name)s resigned")
        else:
            yours = pgettext("game over e-mail", "you ran out of time")
            theirs = pgettext("game over e-mail", "%(name)s ran out of time")
        words.append(said(forfeited, yours, theirs))
    assert position.score is not None
    score = position.score
    winner = position.winner
    if position.status == STALEMATE:
        # Scored by the counts, worded as the pages word it (games/play/results.py): a win
        # or a loss unless nobody scored.
        points = dict(zip(game.letters, score, strict=True))
        words.append(stalemate_how(position.ending or "", game.names(), points, game.letters[seat]))
        scorer = stalemate_scorer(points)
        if scorer is None:
            words.append(pgettext("game over e-mail", "a draw"))
        winner = None if scorer is None else game.letters.index(scorer)
    if winner is not None:
        yours = pgettext("game over e-mail", "you won")
        theirs = pgettext("game over e-mail", "%(name)s won")
        words.append(said(winner, yours, theirs))

    def scored(other: int) -> str:
        if other == seat:
            return pgettext("score", "you %(points)s") % {"points": score[other]}
        return pgettext("score", "%(name)s %(points)s") % {
            "name": names[other],
            "points": score[other],
        }

    order = [seat, *(other for other in range(len(names)) if other != seat)]
    return {"outcome": ", ".join(words), "scores": ", ".join(scored(other) for other in order)}


#: What a digest's line says happened (translated as the digest is written).
DIGEST_LABELS = {
    "invitation": pgettext_lazy("digest", "an invitation"),
    "challenge_declined": pgettext_lazy("digest", "a challenge was declined"),
    "your_turn": pgettext_lazy("digest", "your turn"),
    "reminder": pgettext_lazy("digest", "a deadline is near"),
    "timeout": pgettext_lazy("digest", "a game ended on time"),
    "game_over": pgettext_lazy("digest", "a game is over"),
    "stalemate_offer": pgettext_lazy("digest", "a stalemate offer"),
    "stalemate_declined": pgettext_lazy("digest", "a stalemate offer was declined"),
    "stop_called": pgettext_lazy("digest", "Stop! was called"),
    "vacation": pgettext_lazy("digest", "an opponent went on vacation"),
    "message": pgettext_lazy("digest", "a player wrote to you"),
}


def _digest_link(row: Notification) -> str:
    """Where a digest line leads: the game, an invitation, or the lobby."""
    if row.game_id is not None:
        return game_link(row.game_id)
    if row.kind == "invitation" and row.challenge is not None:
        return f"{settings.SITE_URL}/invitations/{row.challenge.token}/"
    return settings.SITE_URL + reverse("lobby")


def send_digest(user_id: int) -> int:
    """One e-mail listing the user's digest notifications; returns how many it covered.

    A failed attempt puts the rows back in the digest, for the sweep to send once
    their back-off is over (or for the next day's digest, whichever comes first)."""
    now = timezone.now()
    waiting = Notification.objects.filter(user_id=user_id, status=Notification.Status.DIGEST)
    waiting.filter(attempts__gte=settings.EMAIL_MAX_ATTEMPTS).update(
        status=Notification.Status.FAILED, next_attempt_at=None
    )  # only when EMAIL_MAX_ATTEMPTS was lowered: attempt_failed keeps the bound
    ids = list(waiting.order_by("created_at").values_list("pk", flat=True))
    claimed = Notification.objects.filter(pk__in=ids, status=Notification.Status.DIGEST).update(
        status=Notification.Status.SENDING,
        claimed_at=now,
        next_attempt_at=now + lease(),
        attempts=F("attempts") + 1,
    )
    if not claimed:
        return 0
    rows = list(
        Notification.objects.filter(pk__in=ids, status=Notification.Status.SENDING, claimed_at=now)
        .select_related("user", "game", "challenge")
        .order_by("created_at")
    )
    try:
        digest_message(rows).send()
    except DatabaseError:
        raise
    except Exception as error:
        attempt_failed(rows, error, retry_as=Notification.Status.DIGEST)
        return 0
    Notification.objects.filter(pk__in=[r.pk for r in rows]).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), next_attempt_at=None
    )
    return len(rows)


def digest_message(rows: list[Notification]) -> EmailMultiAlternatives:
    user = rows[0].user
    assert user is not None
    language = language_of(user)
    with translation.override(language):
        message = _digest_message(user, rows)
    message.extra_headers["Content-Language"] = language
    return message


def _digest_message(user: User, rows: list[Notification]) -> EmailMultiAlternatives:
    items = [
        {
            "label": DIGEST_LABELS.get(row.kind, row.kind),
            "game": row.game_id,
            "link": _digest_link(row),
            "when": row.created_at,
        }
        for row in rows
    ]
    unsubscribe_link = f"{settings.SITE_URL}/unsubscribe/{unsubscribe_token(user, 'digest')}/"
    context: dict[str, Any] = {
        "site_name": site_name(),
        "player": profile_of(user).display_name or user.get_username(),
        "items": items,
        "unsubscribe_link": unsubscribe_link,
    }
    message = EmailMultiAlternatives(
        render_to_string("emails/digest-subject.txt", context).strip(),
        render_to_string("emails/digest-body.txt", context),
        to=[user.email],
    )
    message.attach_alternative(render_to_string("emails/digest-body.html", context), "text/html")
    _unsubscribe_headers(message, unsubscribe_link)
    return message
