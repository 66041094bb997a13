"""What players hear of a competition: e-mails in their own language that honour their
preferences, events for API clients, round deadlines in their calendar feed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from accounts.services import profile_of
from competitions.models import Competition
from competitions.services.entering import Terms, create_competition, enter
from games.models import Event, Notification
from games.notify.writing import build_message
from games.pages.calendar import deadlines_calendar

from .entrants import play_out, players

pytestmark = pytest.mark.django_db


def swiss_of(people: list[User]) -> Competition:
    host = User.objects.create_user("host", "host@example.com", "pw-host-123")
    event = create_competition(host, Terms(name="Coupe", rounds=2, max_players=len(people)))
    for person in people:
        enter(event.pk, person)
    event.refresh_from_db()
    return event


def test_each_player_hears_in_their_language_as_their_preferences_say() -> None:
    french, german, quiet = players(3, "t")
    for person, language in ((french, "fr"), (german, "de")):
        profile = profile_of(person)
        profile.language = language
        profile.save()
    profile = profile_of(quiet)
    profile.notifications = {**profile.notifications, "competition_round": "never"}
    profile.save()
    event = swiss_of([french, german, quiet])
    started = Notification.objects.get(kind="competition_started", user=french)
    message = build_message(started)
    assert message.subject == "Coupe a commencé"
    assert f"/competitions/{event.pk}/" in message.body and "/unsubscribe/" in message.body
    paired = build_message(Notification.objects.get(kind="competition_round", user=german))
    assert paired.subject.startswith("Coupe, Runde 1: Sie ")
    assert not Notification.objects.filter(kind="competition_round", user=quiet).exists()
    play_out(event)
    over = Notification.objects.filter(kind="competition_finished", user=french).get()
    assert "Coupe est terminée : vous êtes" in build_message(over).subject


def test_events_tell_api_clients_and_webhooks() -> None:
    people = players(3, "v")
    event = swiss_of(people)
    started = Event.objects.filter(kind="tournament_started")
    assert started.count() == 3 and started[0].data["competition"] == event.pk
    rounds = Event.objects.filter(kind="round_started")
    assert rounds.count() == 3  # one each: two at a game, one with the bye
    assert sum(1 for e in rounds if e.data["bye"]) == 1
    assert all(e.game_id for e in rounds if not e.data["bye"])
    play_out(event)
    finished = Event.objects.filter(kind="tournament_finished")
    assert sorted(e.data["place"] for e in finished) == [1, 2, 3]


def test_a_round_deadline_is_in_the_calendar_of_its_players() -> None:
    people = players(2, "c")
    event = swiss_of(people)
    feed = deadlines_calendar(people[0]).decode()
    assert f"competition-{event.pk}-round-1" in feed
    assert "round 1 of Coupe is due to end" in feed.replace("\r\n ", "")
