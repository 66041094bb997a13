"""What a push says, in its player's language: the title is the subject of the e-mail
of the same kind (one wording for both channels, every kind included, its
translations with it), a short line under it, and the page a click opens."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.services import language_of
from games.models import Notification, PushMessage
from games.notify.writing import WRITTEN_AS, Moment, email_context
from lib.naming import site_name

#: The longest line under the title (push services take about 4 KB, encrypted).
MAX_BODY = 240


def as_notification(row: PushMessage) -> Notification:
    """The e-mail the push stands for, unsaved: what ``games.notify.writing`` reads."""
    return Notification(
        user=row.user,
        email=row.user.email,
        kind=row.kind,
        game=row.game,
        challenge=row.challenge,
        context=row.context,
        ply=row.ply,
    )


def link(row: PushMessage) -> str:
    """The page the notification opens, as a path of the site: the game, else the page
    the e-mail would link to (a competition's round, the competition), else the lobby
    (where challenges wait)."""
    if row.game_id is not None:
        return reverse("game", args=[row.game_id])
    for key in ("game_link", "competition_link"):
        linked = row.context.get(key)
        if isinstance(linked, str) and linked.startswith(settings.SITE_URL + "/"):
            return linked.removeprefix(settings.SITE_URL)
    return reverse("lobby")


def _line(row: PushMessage, context: dict[str, Any]) -> str:
    talk = context.get("talk") or []
    if talk:
        first = talk[0]
        return f"{first['author']}: {first['text']}"
    if row.kind in ("your_turn", "reminder") and context.get("deadline"):
        return _("Play before %(deadline)s.") % {"deadline": context["deadline"]}
    if context.get("scores"):
        return str(context["scores"])
    return _("Open it on %(site)s.") % {"site": site_name()}


def payload(row: PushMessage, moment: Moment | None = None) -> dict[str, str]:
    """The notification as the service worker shows it (``sw.js``)."""
    language = language_of(row.user)
    with translation.override(language):
        context = email_context(as_notification(row), moment)
        name = "emails/" + WRITTEN_AS.get(row.kind, row.kind)
        title = " ".join(render_to_string(f"{name}-subject.txt", context).split())
        body = " ".join(_line(row, context).split())
    if len(body) > MAX_BODY:
        body = body[: MAX_BODY - 1] + "…"
    return {
        "title": title,
        "body": body,
        "url": link(row),
        # One notification a game: a newer one replaces the older on the device.
        "tag": f"game-{row.game_id}" if row.game_id else f"{row.kind}-{row.pk}",
        "lang": language,
        "icon": static("games/icon-192.png"),
    }
