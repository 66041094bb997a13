"""Writing an e-mail of the outbox: its words in the recipient's language, the game
as it was when the e-mail's event happened, its headers (threading, unsubscribing)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts import notices
from accounts.conduct import accounts_at
from accounts.models import Profile
from accounts.services import (
    language_of,
    no_invitations_token,
    profile_of,
    unsubscribe_token,
    verified_address,
)
from games import talk
from games.engine import Game as EngineGame
from games.engine import Position, view
from games.models import Game, Message, Notification
from games.notify.board_text import board_text, mail_table
from games.notify.mail_play import BounceAddress, menu, plays_by_mail
from games.play.store import engine_game
from games.words.results import agreement_terms, result_of, scores_line
from lib.naming import site_name


def game_link(game_id: int) -> str:
    """The game's page: where a player lands from any e-mail about the game."""
    return settings.SITE_URL + reverse("game", args=[game_id])


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


#: Kinds written with another kind's templates: a game lost on time ends as any other
#: (its own kind lets a player turn its e-mails off apart).
WRITTEN_AS = {"timeout": "game_over"}


def _build_message(row: Notification, moment: Moment | None) -> EmailMultiAlternatives:
    context = email_context(row, moment)
    name = "emails/" + WRITTEN_AS.get(row.kind, row.kind)
    subject = render_to_string(f"{name}-subject.txt", context).strip()
    message = EmailMultiAlternatives(
        subject, render_to_string(f"{name}-body.txt", context), to=[row.email]
    )
    message.attach_alternative(render_to_string(f"{name}-body.html", context), "text/html")
    _mail_headers(message, row.pk, context)
    if "unsubscribe_link" in context:
        unsubscribe_headers(message, context["unsubscribe_link"])
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


def unsubscribe_headers(message: EmailMultiAlternatives, link: str) -> None:
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
    if user is not None and row.kind in notices.kinds():
        # Every kind a player sets a preference for: the games' and the apps' above.
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
        if seat is not None and row.kind in TURN_KINDS:
            # R7.4, as the engine decides it: a turn's e-mail is sent while that turn is
            # not over, so the game as it stands says whether Stop! may be called.
            context["stop_window"] = moment.engine.can_call_stop(seat)
        context["talk"] = talk_of(row, game)
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
            result = result_of(game, seat)
            if result is not None:  # the game as stored: over, as the position is
                context["outcome"] = result.clause
                context["scores"] = scores_line(game, seat)
    if row.challenge is not None:
        context["challenge"] = row.challenge
        context["challenger"] = row.challenge.challenger.get_username()
        context["mine"] = row.user_id == row.challenge.challenger_id
        context["link"] = f"{settings.SITE_URL}/invitations/{row.challenge.token}/"
        context["lobby_link"] = settings.SITE_URL + reverse("lobby")
    return context


def talk_of(row: Notification, game: Game) -> list[dict[str, str]]:
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
