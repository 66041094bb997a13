"""Acting on a stored message, once: a worker claims its row as any outbox row
(``lib.outbox``), and marks it done in the very transaction that plays its moves and
writes its answer.

Trust nothing in an e-mail (docs/play-by-mail.md): machines' messages are recorded
and never answered; a bounce marks the address failing; the address it was sent to
must be one of ours with its signature; a DKIM signature must prove its From
(``mailplay.authentication``, unless MAIL_AUTHENTICATE_SENDER is off); the sender must
be the seat's player's verified address; the reply acts only on the version of the
game it answers. Then the command is
carried out by the same services as the pages and the API, and the answer e-mail
(what was played, the board, the moves now or whose turn it is) goes through the
outbox.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError, transaction
from django.utils import timezone, translation

from accounts.services import language_of, mail_bounced, verified_address
from games.models import SEATS, Game, Notification
from games.notify.mail_play import BounceAddress, ReplyAddress, address_label, read_address
from games.notify.notifications import notify, send
from games.play import services, stalemate, stops
from lib import outbox
from lib.errors import ServiceError
from lib.logs import fields

from . import authentication
from .commands import Command, Moves, Stop, Unreadable, Word, read_command
from .models import InboundMail
from .reading import Letter, Malformed, own_text, parsed, read
from .receiving import HANDLE_INBOUND

logger = logging.getLogger(__name__)

Outcome = InboundMail.Outcome

#: After a failed attempt, the next one comes this much later (a bug mended, a DNS
#: that answers again).
RETRY_AFTER = timedelta(minutes=1)
#: A stranger who writes to a play address with a valid signature (the player's
#: e-mail forwarded, say) is told once a day at most why nothing happened.
STRANGER_ANSWER_EVERY = timedelta(days=1)
#: A reply under the player's address that fails authentication is answered, at the
#: account's address, once an hour at most for a game: a forger cannot flood them.
UNAUTHENTICATED_ANSWER_EVERY = timedelta(hours=1)
#: Unreadable replies answered at most, from one sender to one reply address (whose
#: answers carry the same address again): a person's second and third tries are
#: answered, an auto-responder that adds no header gets no endless conversation.
UNREADABLE_ANSWERS = 3


@dataclass
class Result:
    outcome: str
    detail: str = ""
    user: User | None = None
    game: Game | None = None
    answer: dict[str, Any] = field(default_factory=dict)
    answered: bool = False  # an e-mail answered the message
    #: The outbox row of the answer to the player's reply, sent by the handling itself.
    answer_id: int | None = None


def handle(inbound_id: int) -> str:
    """Act on a stored message if it is still to be handled; its outcome, or ""."""
    claimed_at = outbox.claim(InboundMail.objects.filter(pk=inbound_id))
    if claimed_at is None:
        return ""
    try:
        # Read before the transaction: parsing is bounded (reading.TEXT_LIMIT), but no
        # lock need wait on it.
        row = InboundMail.objects.get(pk=inbound_id)
        reading = prepare(row)
        with transaction.atomic():
            this = outbox.held(InboundMail, claimed_at).filter(pk=inbound_id)
            held = this.select_for_update().first()
            if held is None:
                return ""  # the claim ran out and another worker has the row
            result = act_on(held, reading)
            outbox.finish(
                this,
                outcome=result.outcome,
                detail=result.detail[:500],
                user=result.user,
                game=result.game,
                answered=result.answered,
                text_digest=reading.digest,
                authentication=reading.verdict.result if reading.verdict else "",
                authentication_detail=reading.verdict.detail[:300] if reading.verdict else "",
                handled_at=timezone.now(),
            )
    except DatabaseError:
        raise  # not the message's fault: the claim runs out and the sweep tries again
    except Exception as error:
        logger.exception("mail handling failed %s", fields(id=inbound_id, error=repr(error)[:200]))
        # A bug, or a message that breaks a library: tried again later, then given up.
        rows = list(InboundMail.objects.filter(pk=inbound_id))
        outbox.attempt_failed(
            rows, claimed_at, repr(error), retry_in=lambda _: RETRY_AFTER, detail=repr(error)[:500]
        )
        return ""
    logger.info(
        "mail handled %s",
        fields(id=inbound_id, outcome=result.outcome, game=result.game.pk if result.game else "-"),
    )
    if result.answer_id is not None:
        # The answer is what the player waits for: sent now, by this worker, not queued
        # behind every other task (a burst of replies answered in order). Should this
        # worker die first, the minute sweep sends it.
        send(result.answer_id)
    return result.outcome


@dataclass(frozen=True)
class Reading:
    """A message as read: its headers, and its command when it may hold one."""

    letter: Letter | None  # None: the message cannot be read at all
    command: Command | None
    why: str = ""
    #: Whether the reply quoted anything (the e-mail it answers, lines marked ">"),
    #: which was not read: the answer to moves says so.
    quoted: bool = False
    digest: str = ""  # of the player's own text (InboundMail.text_digest)
    #: Whether a DKIM signature proves its From (None: not checked).
    verdict: authentication.Verdict | None = None


def prepare(row: InboundMail) -> Reading:
    """The message read, and its sender's verdict when a reply may play (DNS lookups,
    before any lock is taken; ``DnsUnavailable`` leaves it for a later attempt)."""
    raw = bytes(row.raw)
    try:
        message = parsed(raw)
        letter = read(message, row.envelope_from if row.source == "smtp" else None)
        if letter.bounce is not None or letter.automatic:
            return Reading(letter, None)
        text = own_text(message)
    except Malformed as error:
        return Reading(None, None, str(error))
    verdict = None
    if settings.MAIL_AUTHENTICATE_SENDER and isinstance(read_address(row.recipient), ReplyAddress):
        verdict = authentication.verify(raw, letter.sender)
    folded = " ".join(text.text.split()).casefold()
    digest = hashlib.sha256(folded.encode()).hexdigest()
    command = read_command(text.text)
    return Reading(letter, command, quoted=text.quoted, digest=digest, verdict=verdict)


def act_on(row: InboundMail, reading: Reading) -> Result:
    """Do what the message may do (inside the caller's transaction)."""
    letter, command = reading.letter, reading.command
    if letter is None:
        return Result(Outcome.MALFORMED, reading.why)
    addressed = read_address(row.recipient) if row.recipient else None
    if letter.bounce is not None:
        return _bounce(letter, addressed)
    if letter.automatic or command is None:
        return Result(Outcome.AUTOMATIC, letter.automatic)
    if addressed is None or isinstance(addressed, BounceAddress):
        return Result(Outcome.UNKNOWN, "not a reply address")
    if not isinstance(addressed, ReplyAddress):
        return Result(Outcome.TAMPERED, address_label(row.recipient))
    game = Game.objects.prefetch_related(SEATS).filter(pk=addressed.game_id).first()
    if game is None or addressed.seat not in game.letters:
        return Result(Outcome.UNKNOWN, f"no game {addressed.game_id} seat {addressed.seat}")
    player = game.user_at(game.letters.index(addressed.seat))
    players_own = player is not None and verified_address(player, letter.sender)
    if reading.verdict is not None and reading.verdict.result != authentication.PASS:
        # Nothing is played, and no forged sender is written to: only the player is
        # told, at their account's address, when the reply came under theirs.
        told = players_own and _tell_unauthenticated(player, game, letter)
        return Result(
            Outcome.UNAUTHENTICATED,
            reading.verdict.detail,
            player if players_own else None,
            game,
            answered=bool(told),
        )
    if player is None or not players_own:
        told = _answer_stranger(letter, game)
        why = f"{letter.sender} is not the player's"
        return Result(Outcome.WRONG_SENDER, why, game=game, answered=told)
    with translation.override(language_of(player)):  # refusals in the player's words
        result = carry_out(command, game, player, addressed.version)
    if isinstance(command, Moves):
        # What was read as the message and what was left out: the answer says both.
        result.answer.update(message=command.message, signature=command.signature)
        result.answer["quoted"] = reading.quoted
    if isinstance(command, Unreadable) and (unanswered := _not_again(row, reading.digest)):
        result.detail += f" ({unanswered})"
        return result
    answer = notify(
        "mail_answer",
        user=player,
        game=game,
        queue=False,
        subject=_reply_subject(letter.subject),
        in_reply_to=letter.message_id,
        email=letter.sender,
        reply_outcome=result.outcome,
        **result.answer,
    )
    result.answered = True
    result.answer_id = answer.pk if answer is not None else None
    return result


def _not_again(row: InboundMail, digest: str) -> str:
    """Why an unreadable reply gets no answer, or "" to answer it: the same text was
    answered before (a machine repeats itself), or UNREADABLE_ANSWERS were, from its
    sender to its reply address (an asked-for ``help`` has the detail "help")."""
    answered = (
        InboundMail.objects.filter(
            recipient=row.recipient, sender=row.sender, outcome=Outcome.HELP, answered=True
        )
        .exclude(pk=row.pk)
        .exclude(detail="help")
    )
    if answered.filter(text_digest=digest).exists():
        return "the same text was answered already"
    if answered.count() >= UNREADABLE_ANSWERS:
        return f"{UNREADABLE_ANSWERS} answered already"
    return ""


def carry_out(command: Command, game: Game, player: User, version: int) -> Result:
    """Do what ``command`` says through the services, at the game's ``version``."""
    line = str(command)
    answer: dict[str, Any] = {"line": line}
    at: dict[str, Any] = {"game_id": game.pk, "user": player, "expected_version": version}
    actions: dict[str, Callable[[], object]] = {
        "resign": lambda: services.resign(**at),
        "stalemate": lambda: stalemate.offer_stalemate(**at),
        "accept": lambda: stalemate.answer_stalemate(**at, accept=True),
        "decline": lambda: stalemate.answer_stalemate(**at, accept=False),
    }
    try:
        match command:
            case Moves(moves, message):
                answer["played"] = services.play_moves(
                    moves=list(moves), message=message or None, **at
                ).applied
                return Result(Outcome.PLAYED, line, player, game, answer)
            case Stop(number, choice):
                stopped = stops.call_stop_on(move_number=number, choice=choice, **at)
                answer["stop"] = {
                    "move_number": number,
                    "code": stopped.violation,
                    "correction": stopped.correction,
                }
                return Result(Outcome.ACTED, line, player, game, answer)
            case Word("help"):
                return Result(Outcome.HELP, "help", player, game, answer)
            case Word(word):
                actions[word]()
                answer["action"] = word
                return Result(Outcome.ACTED, word, player, game, answer)
            case Unreadable(why):
                # In English, and as marked for the answer to say it in the player's
                # language (games.notify.writing.email_context translates it).
                answer["why"] = why
                answer["why_message"] = command.message
                answer["why_params"] = command.params
                return Result(Outcome.HELP, why, player, game, answer)
    except ServiceError as refusal:
        answer["refusal"] = {"code": refusal.code, "message": refusal.message, **refusal.extra}
        stale = refusal.code == "STALE_VERSION"
        return Result(
            Outcome.STALE if stale else Outcome.REFUSED,
            f"{refusal.code}: {refusal.message}",
            player,
            game,
            answer,
        )
    raise AssertionError(f"unknown command {command!r}")


def _reply_subject(subject: str) -> str:
    """``Re: `` and the subject without the reply marks mail programs pile up."""
    subject = subject.strip()
    while subject[:3].lower() in ("re:", "aw:", "sv:") or subject[:4].lower() == "réf:":
        subject = subject.partition(":")[2].strip()
    return f"Re: {subject}" if subject else ""


def _answer_stranger(letter: Letter, game: Game) -> bool:
    """One short answer a day to a sender who is not the seat's player but has an
    account here (the player's friend, or the player from another of their addresses):
    nothing was played. An address nobody has verified gets nothing: a forged sender
    must not make this server write to its victims. Whether it was answered."""
    if (
        not letter.sender
        or not EmailAddress.objects.filter(email__iexact=letter.sender, verified=True).exists()
    ):
        return False
    since = timezone.now() - STRANGER_ANSWER_EVERY
    told = Notification.objects.filter(
        kind="mail_stranger", email__iexact=letter.sender, created_at__gte=since
    )
    if told.exists():
        return False
    notify("mail_stranger", email=letter.sender, game_number=game.pk, in_reply_to=letter.message_id)
    return True


def _tell_unauthenticated(player: User, game: Game, letter: Letter) -> bool:
    """Tell the player, at their account's address (never the message's From), that a
    reply under their address could not be proved theirs and played nothing: once an
    hour at most for a game. Whether they were told."""
    since = timezone.now() - UNAUTHENTICATED_ANSWER_EVERY
    told = Notification.objects.filter(
        kind="mail_unauthenticated", user=player, game=game, created_at__gte=since
    )
    if told.exists():
        return False
    notify("mail_unauthenticated", user=player, game=game, sender=letter.sender)
    return True


def _bounce(letter: Letter, addressed: object) -> Result:
    """A delivery report. Only one that comes to the signed bounce address of an
    e-mail we sent, about that e-mail's address, marks the address failing: anyone can
    write a delivery report about anyone."""
    bounce = letter.bounce
    assert bounce is not None
    sent = None
    if isinstance(addressed, BounceAddress):
        sent = Notification.objects.filter(pk=addressed.notification_id).first()
    if sent is None:
        return Result(Outcome.BOUNCE, f"not at a bounce address of ours: {bounce.reason}")
    if bounce.recipient and bounce.recipient != sent.email.lower():
        return Result(Outcome.BOUNCE, f"about {bounce.recipient}, not {sent.email}")
    if bounce.permanent:
        mail_bounced(sent.email, bounce.reason)
        logger.warning("mail bounced %s", fields(address=sent.email, reason=bounce.reason))
    permanence = "permanent" if bounce.permanent else "temporary"
    return Result(Outcome.BOUNCE, f"{sent.email} {permanence}: {bounce.reason}")


def sweep() -> int:
    """Queue the rows no worker took up (the broker was down, a worker died); how many."""
    due = InboundMail.objects.filter(outbox.due(InboundMail, timezone.now()))
    return sum(outbox.dispatch(HANDLE_INBOUND, pk) for pk in due.values_list("pk", flat=True)[:500])
