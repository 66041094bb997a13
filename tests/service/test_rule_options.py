"""Games made with a rule preset and options (RULES.md §9): chosen at the challenge,
kept for every game of a match, shown by the API, replayed from seed and log."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.engine import OPTIONS, PRESETS
from games.engine.rules import FACE_DOWN_ROWS
from games.lobby import rules_catalog
from games.lobby.matches import start_match
from games.models import Challenge, Game, Match
from games.play import selectors
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from tests.hidden_cards import turn_frames_of
from tests.stored import position_of, replays

from .conftest import NEW_GAME_FORM, browser, client_for
from .test_hidden_cards_api import a_random_turn, play_checking_every_response
from .test_hidden_cards_pages import leaks

pytestmark = pytest.mark.django_db


def challenge_and_accept(alice: User, bob: User, carol: User | None = None, **body: object) -> Game:
    """alice challenges bob (and carol, for a three-player game); each accepts."""
    if carol is not None:
        body["second_opponent"] = carol.username
    made = client_for(alice).post("/api/v1/challenges/", {"opponent": "bob", **body}, format="json")
    assert made.status_code == 201, made.json()
    for player in (bob, carol) if carol is not None else (bob,):
        accepted = client_for(player).post(f"/api/v1/challenges/{made.json()['id']}/accept/")
        assert accepted.status_code == 200, accepted.json()
    return Game.objects.get(pk=accepted.json()["game"])


def seated(preset: str, alice: User, bob: User) -> list[User]:
    """The players of a game under ``preset``: alice and bob, and carol for three seats."""
    players = [alice, bob]
    if PRESETS[preset].seats == 3:
        players.append(User.objects.create_user("carol", "carol@example.com"))
    return players


def test_the_rules_catalog_lists_presets_and_options_to_anyone() -> None:
    catalog = Client().get("/api/v1/rules/").json()
    assert next(p["name"] for p in catalog["presets"]) == "pagat"
    assert {p["name"] for p in catalog["presets"]} == set(PRESETS)
    assert all(p["description"] for p in catalog["presets"])
    options = {o["name"]: o for o in catalog["options"]}
    assert options["lenient_turn"]["values"] == [False, True]
    assert options["reserve_size"]["values"] == [11, 12, 13]
    assert options["reserve_size"]["default"] == 13
    assert catalog["stop_modes"] == ["referee", "classic"]


def test_a_challenge_with_options_deals_a_game_with_them(alice: User, bob: User) -> None:
    game = challenge_and_accept(
        alice, bob, rules="pagat", options={"reserve_size": 12, "lenient_turn": True}
    )
    assert game.rule_options == {"reserve_size": 12, "lenient_turn": True}
    rules = game.game_rules()
    assert rules.reserve_size == 12 and rules.lenient_turn
    state = client_for(alice).get(f"/api/v1/games/{game.pk}/").json()
    assert state["rule_options"] == {"reserve_size": 12, "lenient_turn": True}
    assert state["position"]["A"]["reserve"]["count"] == 12
    assert "Options" in selectors.export_game(game)
    assert rules_catalog.rules_label(game.rules, game.rule_options) == (
        "Standard (pagat.com) + Lenient turn, Reserve size 12"
    )


def test_options_equal_to_the_preset_are_not_stored(alice: User, bob: User) -> None:
    game = challenge_and_accept(alice, bob, options={"reserve_size": 13, "lenient_turn": False})
    assert game.rule_options == {}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "snap"}, '"snap" is not a valid choice'),
        ({"options": {"seats": 3}}, "unknown rule options seats"),
        ({"options": {"wild_jokers": True}}, "unknown rule options wild_jokers"),
        ({"options": {"reserve_size": 7}}, "reserve_size"),
        ({"options": {"lenient_turn": "yes"}}, "lenient_turn"),
        ({"options": {"starter": "youngest"}}, "starter"),
        ({"stop_mode": "lenient"}, "stop_mode"),
    ],
)
def test_bad_rules_are_refused_and_make_no_challenge(
    alice: User, bob: User, body: dict[str, object], message: str
) -> None:
    response = client_for(alice).post(
        "/api/v1/challenges/", {"opponent": "bob", **body}, format="json"
    )
    assert response.status_code == 400
    assert message in response.json()["message"]
    assert not Challenge.objects.exists()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_through_the_api_hiding_every_face_down_card(
    preset: str, alice: User, bob: User
) -> None:
    players = seated(preset, alice, bob)
    game = challenge_and_accept(*players, rules=preset)
    assert game.game_rules() == PRESETS[preset]
    charlie = User.objects.create_user("charlie")
    by_seat = dict(zip("ABC", players, strict=False))
    play_checking_every_response(game, by_seat, random.Random(preset), 40, charlie)
    game.refresh_from_db()
    assert replays(game)


def test_a_match_whose_seats_start_in_turn(alice: User, bob: User) -> None:
    match = start_match(alice, bob, target=1000, rule_options={"starter": "alternate"})
    first = match.games.get()
    assert first.starter in (0, 1)
    resign(game_id=first.pk, user=alice)
    second = Match.objects.get(pk=match.pk).games.exclude(pk=first.pk).get()
    assert second.rule_options == {"starter": "alternate"}
    assert second.starter == 1 - (first.starter or 0)
    assert second.to_move == "AB"[second.starter]
    assert replays(second)


def test_the_new_game_form_and_the_game_page_show_the_rules(alice: User, bob: User) -> None:
    browser = Client()
    browser.force_login(alice)
    lobby = browser.get(reverse("lobby")).content.decode()
    for name in PRESETS:
        assert f'value="{name}"' in lobby
    response = browser.post(
        reverse("challenge-new"),
        {**NEW_GAME_FORM, "rules": "wikipedia", "opt_lenient_turn": "on"},
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.rules, challenge.rule_options) == ("wikipedia", {"lenient_turn": True})
    accept = Client()
    accept.force_login(bob)
    accept.post(reverse("challenge-accept", args=[challenge.pk]))
    game_row = Game.objects.get()
    page = browser.get(reverse("game", args=[game_row.pk])).content.decode()
    assert "Wikipedia&#x27;s summary + Lenient turn" in page


def test_every_option_offers_its_values() -> None:
    """A new option must say what it may be set to, or no player could choose it."""
    for option in rules_catalog.options():
        assert option.default in option.values, option.name
        assert len(option.values) >= 2, option.name


def test_the_catalog_offers_the_values_the_engine_declares() -> None:
    """The engine's declaration (``option()``) is the one list of an option's values: V7's
    rows of face-down cards are ``FACE_DOWN_ROWS``, and every option's are its own."""
    values = {option.name: option.values for option in rules_catalog.options()}
    assert values == {spec.name: tuple(spec.allowed) for spec in OPTIONS}
    assert values["face_down_tableau"] == FACE_DOWN_ROWS


def test_a_face_down_reserve_is_drawn_as_a_back_and_never_named(alice: User, bob: User) -> None:
    """V9: the whole reserve starts face down; the pages show only its count."""
    game = start_game(alice, bob, rule_options={"reserve_face_down": True}, seed=31)
    position = position_of(game)
    assert any(seat.reserve_down for seat in position.seats)  # the mover may have turned up
    for seat, user in enumerate((alice, bob)):
        html = browser(user).get(reverse("game", args=[game.pk])).content.decode()
        assert leaks(html, position, seat) == []
        assert "reserve: 13 face-down cards" in html


def test_face_down_house_cards_are_drawn_as_backs_and_never_named(alice: User, bob: User) -> None:
    """V7: the pages show how many cards lie face down under each house, never which."""
    game = start_game(alice, bob, rules="pagat-face-down", seed=31)
    rng = random.Random(31)
    players = {"A": alice, "B": bob}
    assert all(position_of(game).houses_down)
    for _ in range(12):
        game.refresh_from_db()
        position = position_of(game)
        for seat, user in enumerate((alice, bob)):
            page = browser(user).get(reverse("game", args=[game.pk])).content.decode()
            html = turn_frames_of(page)[0]  # the table as it stands, not the last turn's
            assert leaks(html, position, seat) == []
            downs = sum(len(pile) for pile in position.houses_down)
            assert html.count("pack-n") == sum(1 for pile in position.houses_down if pile)
            assert (", over " in html) == (downs > 0)  # "House 3: 8♣, over 1 face-down card"
        if position.is_over:
            break
        moves = a_random_turn(position, rng)
        play_moves(game_id=game.pk, user=players[game.to_move], moves=moves)
    game.refresh_from_db()
    assert replays(game)
    resign(game_id=game.pk, user=alice)
    deal_page = browser(alice).get(reverse("game-replay", args=[game.pk]), {"step": "0"})
    assert "Under H1" in deal_page.content.decode()  # revealed once the game is over


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_presets_table_is_drawn_for_both_players_and_after_the_end(
    preset: str, alice: User, bob: User
) -> None:
    players = seated(preset, alice, bob)
    game = start_game(*players, rules=preset, seed=5)
    position = position_of(game)
    for seat, user in enumerate(players):
        page = browser(user).get(reverse("game", args=[game.pk]))
        assert page.status_code == 200
        assert leaks(page.content.decode(), position, seat) == []
        assert browser(user).get(reverse("game-replay", args=[game.pk])).status_code == 200
    resign(game_id=game.pk, user=alice)
    deal_page = browser(alice).get(reverse("game-replay", args=[game.pk]), {"step": "0"})
    drawn = deal_page.content.decode().count("data-card=")
    # Every card of the deal, face up (a reserve's top shows on the table and in its list).
    assert drawn == len(list(position.cards())) + sum(1 for s in position.seats if s.reserve)
