"""The calendar of deadlines: a player's secret ICS feed, made and stopped on the
account page, linked from the lobby, read by calendar programs without signing in."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from icalendar import Calendar, Component

from accounts.services import (
    calendar_address,
    make_calendar_link,
    profile_of,
    start_vacation,
    stop_calendar_link,
)
from games.models import Game
from games.notify.writing import game_link
from games.pages.calendar import DEFAULT_ALARM_HOURS
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from tests.hidden_cards import CARD_NAME

from .conftest import browser, mover_and_other, play_turn, whole_turn

pytestmark = pytest.mark.django_db


def feed_url(token: str) -> str:
    return reverse("calendar-feed", args=[token])


def read_feed(user: User) -> Calendar:
    """The player's feed as a calendar program reads it: signed out, by its address."""
    token = profile_of(user).calendar_token or make_calendar_link(user)
    response = Client().get(feed_url(token))
    assert response.status_code == 200
    return Calendar.from_ical(response.content)


def events(calendar: Calendar) -> dict[str, Component]:
    """The feed's events by the game's link."""
    return {str(event["URL"]): event for event in calendar.walk("VEVENT")}


def due(game: Game) -> datetime:
    """The game's deadline as a calendar writes it, in whole seconds."""
    assert game.deadline is not None
    return game.deadline.replace(microsecond=0)


def game_to_move(first: User, second: User, mover: User) -> Game:
    """A game between ``first`` and ``second`` where ``mover`` is to move."""
    return start_game(first, second, starter=0 if mover == first else 1)


def test_the_feed_has_one_event_for_each_game_waiting_for_the_player(
    alice: User, bob: User, charlie: User
) -> None:
    waiting = [game_to_move(alice, bob, alice), game_to_move(charlie, alice, alice)]
    theirs = game_to_move(alice, bob, bob)  # bob is to move
    ended = game_to_move(alice, charlie, alice)
    resign(game_id=ended.pk, user=charlie)
    game_to_move(bob, charlie, bob)  # not alice's game

    found = events(read_feed(alice))

    assert sorted(found) == sorted(game_link(game.pk) for game in waiting)
    assert game_link(theirs.pk) in events(read_feed(bob))
    assert events(read_feed(charlie)) == {}


def test_an_event_is_the_deadline_with_the_reminders_and_the_link(alice: User, bob: User) -> None:
    game = game_to_move(alice, bob, alice)
    assert game.deadline is not None

    calendar = read_feed(alice)
    (event,) = calendar.walk("VEVENT")

    assert event.decoded("DTSTART") == due(game)
    assert event.decoded("DTEND") == due(game)
    assert str(event["URL"]) == game_link(game.pk)
    assert game_link(game.pk) in str(event["DESCRIPTION"])
    assert str(event["SUMMARY"]) == f"Russian Bank: your move against bob (game {game.pk})"
    assert str(event["UID"]).startswith(f"game-{game.pk}-due-")
    assert str(event["TRANSP"]) == "TRANSPARENT"
    assert "DTSTAMP" in event
    # One alarm at each of the player's reminder hours (24 h and 2 h by default).
    triggers = [alarm.decoded("TRIGGER") for alarm in event.walk("VALARM")]
    assert triggers == [timedelta(hours=-24), timedelta(hours=-2)]
    assert {str(alarm["ACTION"]) for alarm in event.walk("VALARM")} == {"DISPLAY"}
    # The calendar itself: what it is, and how often to fetch it again.
    assert str(calendar["VERSION"]) == "2.0"
    assert "Russian Bank" in str(calendar["PRODID"])
    assert str(calendar["X-WR-CALNAME"]) == "Russian Bank: alice's deadlines"
    assert calendar.decoded("REFRESH-INTERVAL") == timedelta(hours=1)
    assert str(calendar["REFRESH-INTERVAL"].params["VALUE"]) == "DURATION"
    assert "X-PUBLISHED-TTL" in calendar


@pytest.mark.parametrize(
    ("hours", "triggers"),
    [([6], [-6]), ([], [-DEFAULT_ALARM_HOURS]), ([1, 48], [-48, -1])],
)
def test_the_alarms_follow_the_player_s_reminder_hours(
    alice: User, bob: User, hours: list[int], triggers: list[int]
) -> None:
    profile = profile_of(alice)
    profile.reminder_hours = hours
    profile.save()
    game_to_move(alice, bob, alice)
    (event,) = read_feed(alice).walk("VEVENT")
    found = [alarm.decoded("TRIGGER") for alarm in event.walk("VALARM")]
    assert found == [timedelta(hours=h) for h in triggers]


def test_after_a_turn_the_event_moves_to_the_opponent_s_feed(
    game: Game, alice: User, bob: User
) -> None:
    mover, other = mover_and_other(game, alice, bob)
    link = game_link(game.pk)
    assert link in events(read_feed(mover)) and link not in events(read_feed(other))

    play_turn(game, alice, bob)

    assert link not in events(read_feed(mover))
    (event,) = read_feed(other).walk("VEVENT")
    assert str(event["URL"]) == link and event.decoded("DTSTART") == due(game)


def test_a_turn_played_a_move_at_a_time_keeps_its_event(game: Game, alice: User, bob: User) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    moves = whole_turn(game)
    assert len(moves) > 1
    (before,) = read_feed(mover).walk("VEVENT")
    play_moves(game_id=game.pk, user=mover, moves=moves[:1])
    (after,) = read_feed(mover).walk("VEVENT")
    assert str(after["UID"]) == str(before["UID"])


def test_a_vacation_moves_the_event_with_the_deadline(alice: User, bob: User) -> None:
    game = game_to_move(alice, bob, alice)
    before = read_feed(alice).walk("VEVENT")[0]
    start_vacation(alice, 3)
    game.refresh_from_db()
    (after,) = read_feed(alice).walk("VEVENT")
    assert after.decoded("DTSTART") == due(game) == before.decoded("DTSTART") + timedelta(days=3)
    assert str(after["UID"]) != str(before["UID"])  # a new deadline is a new event


def test_three_players_name_both_opponents(alice: User, bob: User, charlie: User) -> None:
    game = start_game(alice, bob, charlie, rules="three-player", starter=1)
    (event,) = read_feed(bob).walk("VEVENT")
    assert str(event["SUMMARY"]).endswith(f"against alice and charlie (game {game.pk})")


def test_the_feed_shows_no_card(game: Game, alice: User, bob: User) -> None:
    """Nothing of the table is in it: no word of the feed is a card's name, turn after
    turn (the deadline, the names and the link only)."""
    tokens = [make_calendar_link(alice), make_calendar_link(bob)]
    for _ in range(6):
        feeds = [Client().get(feed_url(token)).content.decode() for token in tokens]
        assert sum(text.count("BEGIN:VEVENT") for text in feeds) == 1  # the mover's
        for text in feeds:
            words = re.findall(r"[A-Za-z0-9]+", text)
            assert not [w for w in words if CARD_NAME.match(w)], words
        play_turn(game, alice, bob)


def test_it_answers_calendar_programs_without_a_session(alice: User, bob: User) -> None:
    game_to_move(alice, bob, alice)
    token = make_calendar_link(alice)

    response = Client().get(feed_url(token))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Cache-Control"] == "private, max-age=300"
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")
    # Signed in as someone else, the address is still alice's calendar: the secret in
    # it is the credential, whoever holds it.
    other = browser(bob).get(feed_url(token))
    assert other.content == response.content and not other.cookies
    # A calendar program that has it already is told so.
    again = Client().get(feed_url(token), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    assert Client().head(feed_url(token)).status_code == 200
    assert Client().post(feed_url(token)).status_code == 405


@pytest.mark.parametrize("token", ["nope", "x" * 200, "-", "A" * 43])
def test_an_unknown_address_is_404(alice: User, token: str) -> None:
    make_calendar_link(alice)
    assert Client().get(feed_url(token)).status_code == 404


@pytest.mark.parametrize("path", ["/calendar/.ics", "/calendar/a%00b.ics", "/calendar/a.b.ics"])
def test_a_malformed_address_is_404(path: str) -> None:
    assert Client().get(path).status_code == 404


def test_a_new_link_replaces_the_old_and_a_stopped_one_is_404(alice: User) -> None:
    old = make_calendar_link(alice)
    new = make_calendar_link(alice)
    assert new != old
    assert Client().get(feed_url(old)).status_code == 404
    assert Client().get(feed_url(new)).status_code == 200
    stop_calendar_link(alice)
    assert Client().get(feed_url(new)).status_code == 404
    assert profile_of(alice).calendar_token is None


def test_the_account_page_makes_replaces_and_stops_the_link(alice: User) -> None:
    client = browser(alice)
    page = client.get(reverse("profile")).content.decode()
    assert "Calendar of deadlines" in page and "Make a calendar link" in page
    assert ".ics" not in page

    made = client.post(reverse("calendar-make"))
    assert made.status_code == 302 and made["Location"] == "/account/#calendar"
    token = profile_of(alice).calendar_token
    assert token
    response = client.get(reverse("profile"))
    page = response.content.decode()
    assert calendar_address(token) in page
    assert calendar_address(token, scheme="webcal").startswith("webcal://")
    assert f'href="{calendar_address(token, scheme="webcal")}"' in page
    assert "Your calendar link is below" in page
    assert "no-store" in response["Cache-Control"]

    client.post(reverse("calendar-make"))
    new = profile_of(alice).calendar_token
    assert new and new != token
    page = client.get(reverse("profile")).content.decode()
    assert calendar_address(new) in page and calendar_address(token) not in page
    assert Client().get(feed_url(token)).status_code == 404

    stopped = client.post(reverse("calendar-stop"))
    assert stopped.status_code == 302 and stopped["Location"] == "/account/#calendar"
    assert profile_of(alice).calendar_token is None
    assert Client().get(feed_url(new)).status_code == 404
    assert "Make a calendar link" in client.get(reverse("profile")).content.decode()


def test_the_account_page_s_forms_need_a_post_a_session_and_the_csrf_token(alice: User) -> None:
    assert browser(alice).get(reverse("calendar-make")).status_code == 405
    signed_out = Client().post(reverse("calendar-make"))
    assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(reverse("calendar-make")).status_code == 403
    assert profile_of(alice).calendar_token is None


def test_the_lobby_links_to_the_calendar(alice: User) -> None:
    client = browser(alice)
    page = client.get(reverse("lobby")).content.decode()
    assert '<a href="/account/#calendar" id="add-to-calendar">Add to calendar</a>' in page

    token = make_calendar_link(alice)
    page = client.get(reverse("lobby")).content.decode()
    webcal = calendar_address(token, scheme="webcal")
    assert f'<a href="{webcal}" id="add-to-calendar">Add to calendar</a>' in page


def test_the_admin_does_not_show_the_secret(alice: User) -> None:
    token = make_calendar_link(alice)
    root = User.objects.create_superuser("root", "root@example.com", "pw-root-123")
    client = browser(root)
    profile = profile_of(alice)
    for url in (
        reverse("admin:accounts_profile_change", args=[profile.pk]),
        reverse("admin:auth_user_change", args=[alice.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200 and token not in response.content.decode()
