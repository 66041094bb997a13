"""The competitions' pages: the list, a competition's page (standings, crosstable,
pairings with links to their games), entering and withdrawing, the form that makes
one; a private competition hidden from strangers, a public one shown to spectators."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from competitions.models import Competition
from competitions.services.entering import Terms, create_competition
from games.play.dealing import start_game

from .entrants import filled, lose, open_games, players

pytestmark = pytest.mark.django_db


def browser(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_list_shows_open_running_and_finished_competitions_to_anyone() -> None:
    running = filled(2, format="round_robin", name="Running cup")
    maker = User.objects.get(username="organiser")
    create_competition(maker, Terms(name="Open cup", rounds=3))
    create_competition(maker, Terms(name="Secret cup", rounds=3, public=False))
    page = browser(None).get("/competitions/")
    assert page.status_code == 200
    assert b"Open cup" in page.content and b"Secret cup" not in page.content
    assert b"Running cup" in browser(None).get("/competitions/?status=running").content
    assert b"Secret cup" in browser(maker).get("/competitions/").content
    for game in open_games(running):
        lose(game)
    assert b"Running cup" in browser(None).get("/competitions/?status=finished").content
    assert b'href="/competitions/"' in browser(None).get("/").content  # the header's link


def test_a_competition_page_shows_standings_crosstable_and_games_to_a_spectator() -> None:
    event = filled(4, format="round_robin", name="Club round robin")
    game = open_games(event)[0]
    lose(game)
    page = browser(None).get(f"/competitions/{event.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert '<caption class="sr-only">Standings</caption>' in text
    assert "<caption>Crosstable</caption>" in text
    assert "Sonneborn-Berger" in text and "Direct encounter" in text
    assert f'href="/games/{game.pk}/"' in text
    assert 'scope="col"' in text and 'scope="row"' in text


def test_entering_and_withdrawing_from_the_page() -> None:
    maker, player = players(2, "w")
    event = create_competition(maker, Terms(name="Page cup", rounds=2, max_players=4))
    client = browser(player)
    page = client.get(f"/competitions/{event.pk}/")
    assert b">Enter</button>" in page.content
    answer = client.post(f"/competitions/{event.pk}/enter/", follow=True)
    assert b"You have entered." in answer.content and b">Withdraw</button>" in answer.content
    again = client.post(f"/competitions/{event.pk}/enter/", follow=True)
    assert b"you have entered this competition" in again.content
    left = client.post(f"/competitions/{event.pk}/withdraw/", follow=True)
    assert b"You have withdrawn." in left.content
    assert not event.entries.exists()


def test_a_private_competition_is_404_to_strangers_but_open_to_its_link() -> None:
    maker, stranger = players(2, "s")
    private = create_competition(maker, Terms(name="Friends", rounds=2, public=False))
    assert browser(stranger).get(f"/competitions/{private.pk}/").status_code == 404
    assert browser(None).get(f"/competitions/{private.pk}/").status_code == 404
    linked = browser(stranger).get(f"/competitions/{private.pk}/?token={private.token}")
    assert linked.status_code == 200
    browser(stranger).post(f"/competitions/{private.pk}/enter/", {"token": private.token})
    assert private.entries.filter(player=stranger).exists()
    owner_page = browser(maker).get(f"/competitions/{private.pk}/").content.decode()
    assert f"?token={private.token}" in owner_page


def test_the_form_makes_a_competition_and_says_what_is_wrong() -> None:
    (maker,) = players(1, "f")
    client = browser(maker)
    assert client.get("/competitions/new/").status_code == 200
    assert browser(None).get("/competitions/new/").status_code == 302  # log in first
    form = {
        "name": "Made by form",
        "format": "swiss",
        "rules": "pagat",
        "stop_mode": "referee",
        "control": "per_turn",
        "days_per_turn": "3",
        "bank_initial_days": "7",
        "bank_increment_days": "1",
        "weekend_pause": "on",
        "opt_reserve_size": "12",
        "rounds": "4",
        "division_size": "8",
        "promoted": "2",
        "reach": "3",
        "max_players": "16",
        "min_players": "2",
        "rated": "on",
        "public": "on",
    }
    made = client.post("/competitions/new/", form)
    assert made.status_code == 302
    competition = Competition.objects.get(name="Made by form")
    assert competition.rounds == 4 and competition.creator == maker
    # The rules' options and the whole clock, as the lobby's new game takes them.
    assert competition.rule_options == {"reserve_size": 12} and competition.weekend_pause
    refused = client.post("/competitions/new/", {**form, "rules": "three-player"})
    assert refused.status_code == 400 and b"two-player rules" in refused.content
    swissless = client.post("/competitions/new/", {**form, "rounds": ""})
    assert swissless.status_code == 400 and b"rounds" in swissless.content


def test_a_ladder_page_offers_challenges_up_the_ladder() -> None:
    event = filled(3, format="ladder", reach=2)
    bottom = event.entries.order_by("-position").first()
    assert bottom is not None and bottom.player is not None
    page = browser(bottom.player).get(f"/competitions/{event.pk}/").content.decode()
    assert page.count("Challenge ") >= 2
    target = event.entries.get(position=1)
    answer = browser(bottom.player).post(
        f"/competitions/{event.pk}/challenge/", {"target": target.name}
    )
    assert answer.status_code == 302 and answer["Location"].startswith("/games/")


def test_its_maker_adds_a_computer_player_from_the_page() -> None:
    maker, stranger = players(2, "k")
    event = create_competition(maker, Terms(name="With a computer", rounds=2))
    page = browser(maker).get(f"/competitions/{event.pk}/").content.decode()
    assert "Add a computer player" in page
    added = browser(maker).post(
        f"/competitions/{event.pk}/enter/", {"computer": "easy"}, follow=True
    )
    assert b"computer-easy has entered." in added.content
    refused = browser(stranger).post(
        f"/competitions/{event.pk}/enter/", {"computer": "strong"}, follow=True
    )
    assert b"only its maker enters computer players" in refused.content
    assert [e.name for e in event.entries.all()] == ["computer-easy"]


def test_a_swiss_page_has_its_results_by_round() -> None:
    event = filled(3, format="swiss", rounds=2)
    lose(open_games(event)[0])
    text = browser(None).get(f"/competitions/{event.pk}/").content.decode()
    assert "<caption>Results by round</caption>" in text
    assert "against #" in text and ">bye<" in text and "Buchholz" in text


def test_its_maker_starts_it_from_the_page() -> None:
    maker, first, second = players(3, "t")
    event = create_competition(maker, Terms(name="Early start", rounds=2, max_players=8))
    assert "Start now" not in browser(first).get(f"/competitions/{event.pk}/").content.decode()
    for player in (first, second):
        browser(player).post(f"/competitions/{event.pk}/enter/")
    page = browser(maker).get(f"/competitions/{event.pk}/").content.decode()
    assert "Start now" in page
    started = browser(maker).post(f"/competitions/{event.pk}/start/", follow=True)
    assert b"The competition has started." in started.content
    event.refresh_from_db()
    assert event.status == Competition.Status.RUNNING


def test_a_competition_game_names_its_competition_and_round() -> None:
    swiss = filled(4, format="swiss", rounds=2, prefix="o")
    game = open_games(swiss)[0]
    player = game.user_at(0)
    page = browser(player).get(f"/games/{game.pk}/").content.decode()
    link = f'<a href="/competitions/{swiss.pk}/">Autumn cup, round 1</a>'
    assert link in page
    assert link in browser(None).get(f"/games/{game.pk}/").content.decode()  # spectators
    lone = start_game(*players(2, "lone"))
    assert 'class="occasion"' not in browser(lone.user_at(0)).get(f"/games/{lone.pk}/").text
