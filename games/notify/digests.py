"""Daily digests: a player's notices of the day gathered in one e-mail."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.db import DatabaseError
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import pgettext_lazy

from accounts.services import (
    language_of,
    profile_of,
    unsubscribe_token,
)
from games.models import Notification
from games.notify.notifications import attempt_failed
from games.notify.writing import game_link, unsubscribe_headers
from lib import outbox
from lib.naming import site_name

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
    "competition_started": pgettext_lazy("digest", "a competition started"),
    "competition_round": pgettext_lazy("digest", "a competition's new round is paired"),
    "competition_finished": pgettext_lazy("digest", "a competition ended"),
}


def _digest_link(row: Notification) -> str:
    """Where a digest line leads: the game, an invitation, or the lobby."""
    if row.game_id is not None:
        return game_link(row.game_id)
    if row.kind == "invitation" and row.challenge is not None:
        return f"{settings.SITE_URL}/invitations/{row.challenge.token}/"
    if row.context.get("competition_link"):  # a competition's e-mails (competitions app)
        return str(row.context["competition_link"])
    return settings.SITE_URL + reverse("lobby")


def send_digest(user_id: int) -> int:
    """One e-mail listing the user's digest notifications; returns how many it covered.

    A failed attempt puts the rows back in the digest, for the sweep to send once
    their back-off is over (or for the next day's digest, whichever comes first)."""
    digest = Notification.Status.DIGEST
    claimed_at = outbox.claim(
        Notification.objects.filter(user_id=user_id, status=digest), waiting=digest
    )
    if claimed_at is None:
        return 0
    rows = list(
        outbox.held(Notification, claimed_at)
        .filter(user_id=user_id)
        .select_related("user", "game", "challenge")
        .order_by("created_at")
    )
    try:
        digest_message(rows).send()
    except DatabaseError:
        raise
    except Exception as error:
        attempt_failed(rows, claimed_at, error, retry_as=digest)
        return 0
    outbox.finish(Notification.objects.filter(pk__in=[r.pk for r in rows]), sent_at=timezone.now())
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
    unsubscribe_headers(message, unsubscribe_link)
    return message
