"""The calendar of deadlines: a player's secret ICS feed (``/calendar/<token>.ics``).

One event for each game waiting for the player's move that has a deadline, at the
deadline, with an alarm at each of the player's reminder hours and the game's link.
It is read by calendar programs that subscribe to it, which fetch it again now and
then: when the player moves, the game leaves their feed and enters the opponent's.

It says who the player plays, when their move is due and where the game is; never a
card. The player's secret is kept on their profile (``accounts.services``). It is
written in the player's language (a calendar program sends no Accept-Language worth
following: the profile's, as e-mails are).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe
from icalendar import TRANSP, Alarm, Calendar, Event, vDuration

from accounts.services import calendar_owner, language_of, profile_of
from games.models import Game
from games.notify.writing import game_link
from games.play import selectors
from lib.deadlines import deadlines_for

#: How often a calendar program should fetch the feed again (REFRESH-INTERVAL, and
#: Outlook's X-PUBLISHED-TTL).
REFRESH = timedelta(hours=1)
#: The alarm before a deadline when the player has no reminder hours of their own.
DEFAULT_ALARM_HOURS = 12
PRODID = "-//Russian Bank by mail//Deadlines//EN"


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def _opponents(game: Game, seat: int) -> str:
    names = [row.name for index, row in enumerate(game.seat_rows) if index != seat]
    return _(" and ").join(names)


def _hours(hours: int) -> str:
    return ngettext("%(hours)d hour", "%(hours)d hours", hours) % {"hours": hours}


def deadline_event(game: Game, seat: int, alarm_hours: list[int]) -> Event:
    """The game's deadline as the player to move sees it. Its UID names the game and
    the deadline: a new turn, or a vacation that moves the clock, is a new event, and
    the calendar drops the old one when the feed no longer has it."""
    assert game.deadline is not None
    # A calendar counts in whole seconds: the second the deadline falls in.
    due = game.deadline.astimezone(UTC).replace(microsecond=0)
    link = game_link(game.pk)
    against = _opponents(game, seat)
    event = Event.new(
        uid=f"game-{game.pk}-due-{due:%Y%m%dT%H%M%SZ}@{_host()}",
        stamp=game.updated_at,
        last_modified=game.updated_at,
        start=due,
        end=due,  # a deadline is an instant
        summary=_("Russian Bank: your move against %(against)s (game %(game)s)")
        % {"against": against, "game": game.pk},
        description=_(
            "It is your turn in game %(game)s against %(against)s. Play before this "
            "deadline, or the game is lost on time: %(link)s"
        )
        % {"game": game.pk, "against": against, "link": link},
        url=link,
        transparency=TRANSP.TRANSPARENT,  # a deadline does not make the player busy
    )
    for hours in alarm_hours:
        event.add_component(
            Alarm.new_display(
                description=_("Russian Bank: your move in game %(game)s is due in %(due)s")
                % {"game": game.pk, "due": _hours(hours)},
                trigger=timedelta(hours=-hours),
            )
        )
    return event


def deadlines_calendar(user: User) -> bytes:
    """The player's feed: the games waiting for their move, soonest deadline first."""
    with translation.override(language_of(user)):
        return _feed(user)


def _feed(user: User) -> bytes:
    profile = profile_of(user)
    alarm_hours = sorted(set(profile.reminder_hours), reverse=True) or [DEFAULT_ALARM_HOURS]
    calendar = Calendar.new(
        prodid=PRODID,
        name=_("Russian Bank: %(name)s's deadlines") % {"name": user.get_username()},
        description=_("The deadlines of your Russian Bank games waiting for your move."),
        uid=f"deadlines-{user.pk}@{_host()}",
        url=settings.SITE_URL + "/",
    )
    calendar.add("REFRESH-INTERVAL", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("X-PUBLISHED-TTL", vDuration(REFRESH))
    for game in selectors.my_games(user, filter_="my_turn"):
        seat = game.seat_of(user.pk)
        if game.deadline is None or seat is None:
            continue
        calendar.add_component(deadline_event(game, seat, alarm_hours))
    for other in deadlines_for(user):  # the apps built on top: a competition's rounds
        due = other.at.astimezone(UTC).replace(microsecond=0)
        calendar.add_component(
            Event.new(
                uid=f"{other.uid}-{due:%Y%m%dT%H%M%SZ}@{_host()}",
                start=due,
                end=due,
                summary=other.summary,
                description=other.description,
                url=other.url,
                transparency=TRANSP.TRANSPARENT,
            )
        )
    return bytes(calendar.to_ical())


@require_safe
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """A player's calendar of deadlines (above), for calendar programs:
    no sign-in, the secret in the address is the credential; an unknown or stopped
    one is 404. Nothing here reads the session, so the answer sets no cookie."""
    user = calendar_owner(token)
    if user is None:
        raise Http404("no such calendar")
    body = deadlines_calendar(user)
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    unchanged = get_conditional_response(request, etag=etag)
    response = unchanged or HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "private, max-age=300"
    return response
