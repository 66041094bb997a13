"""Ratings (games/lobby/ratings.py): Glicko-2 per family of rules, moved in the transaction
that ends a rated game; the ladder, the players' pages and API, rating ranges."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.bots import bot_player
from games.engine import Game as EngineGame
from games.lobby import glicko2
from games.lobby.challenges import accept_challenge, create_challenge
from games.lobby.ratings import BOT_RATINGS, outcome, standing
from games.models import Game, Rating
from games.play.dealing import start_game
from games.play.services import resign
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.sweep import sweep

from .conftest import browser, client_for

pytestmark = pytest.mark.django_db


def test_it_computes_glickmans_worked_example() -> None:
    """Glickman's paper: 1500/200 (volatility 0.06) beats 1400/30 and loses to 1550/100
    and 1700/300; tau 0.5. The paper prints 1464.06 and 151.52, rounding each of its
    steps; computed without rounding the rating is 1464.05."""
    after = glicko2.update(
        glicko2.Rating(1500, 200, 0.06),
        [
            glicko2.Result(glicko2.Rating(1400, 30), 1),
            glicko2.Result(glicko2.Rating(1550, 100), 0),
            glicko2.Result(glicko2.Rating(1700, 300), 0),
        ],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_an_idle_rating_grows_less_certain_up_to_the_starting_deviation() -> None:
    rating = glicko2.Rating(1600, 60, 0.06)
    assert glicko2.idle(rating, 10).deviation > 60
    assert glicko2.idle(rating, 10**6).deviation == 350


def rated_game(alice: User, bob: User, **options: object) -> Game:
    challenge = create_challenge(alice, opponent=bob.username, **options)  # type: ignore[arg-type]
    accepted = accept_challenge(challenge.pk, bob)
    assert accepted.game is not None
    return accepted.game


def rating(user: User, family: str = "standard") -> Rating:
    return Rating.objects.get(user=user, family=family)


def test_a_rated_game_moves_both_ratings_when_it_ends(alice: User, bob: User) -> None:
    game = rated_game(alice, bob)
    assert game.rated and not Rating.objects.exists()
    resign(game_id=game.pk, user=bob)  # a resignation is a loss
    winner, loser = rating(alice), rating(bob)
    assert winner.rating > 1500 > loser.rating
    assert (winner.wins, winner.losses, loser.wins, loser.losses) == (1, 0, 0, 1)
    assert winner.deviation < 350 and winner.games == loser.games == 1


def test_a_timeout_is_a_loss(alice: User, bob: User) -> None:
    game = rated_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    sweep()
    game.refresh_from_db()
    late = game.user_at(game.letters.index(game.forfeiter))
    assert rating(late).losses == 1 and rating(late).rating < 1500


def test_an_agreed_stalemate_with_equal_points_is_a_draw(alice: User, bob: User) -> None:
    game = rated_game(alice, bob)
    offer_stalemate(game_id=game.pk, user=alice)
    answer_stalemate(game_id=game.pk, user=bob, accept=True)
    game.refresh_from_db()
    assert game.score == {"A": 0, "B": 0}
    assert rating(alice).draws == rating(bob).draws == 1
    assert rating(alice).rating == pytest.approx(1500)


def test_an_unrated_game_moves_nothing(alice: User, bob: User) -> None:
    game = rated_game(alice, bob, rated=False)
    resign(game_id=game.pk, user=bob)
    assert not Rating.objects.exists()


def test_a_game_against_the_computer_is_rated_for_the_person_only(alice: User) -> None:
    bot = bot_player("strong")
    game = start_game(alice, bot, seed=4, rated=True)
    resign(game_id=game.pk, user=alice)
    assert rating(alice).rating < 1500
    assert not Rating.objects.filter(user=bot).exists()
    assert standing(None, bot).rating == BOT_RATINGS["strong"]


def test_families_are_rated_apart(alice: User, bob: User) -> None:
    game = rated_game(alice, bob, rules="one-pack")
    resign(game_id=game.pk, user=alice)
    assert rating(bob, "one-pack").wins == 1
    assert not Rating.objects.filter(family="standard").exists()


def test_three_players_are_rated_pairwise(alice: User, bob: User, charlie: User) -> None:
    game = start_game(alice, bob, charlie, rules="three-player", seed=2, rated=True)
    resign(game_id=game.pk, user=bob)  # the game ends: bob loses to each of the others
    game.refresh_from_db()
    assert game.status != "playing" and game.score == {"A": 90, "B": 0, "C": 90}
    a, b, c = (rating(user, "three-player") for user in (alice, bob, charlie))
    assert (b.losses, b.games) == (1, 1) and b.rating < 1500
    # alice and charlie each beat bob and drew with the other (equal points).
    assert a.wins == c.wins == 1 and a.rating == pytest.approx(c.rating) and a.rating > 1500


def test_outcomes_between_seats() -> None:
    engine = EngineGame(5)
    engine.resign(1)
    assert outcome(engine, 0, 1) == 1.0 and outcome(engine, 1, 0) == 0.0


def test_the_leaderboard_lists_players_with_enough_games_best_first(
    alice: User, bob: User, charlie: User
) -> None:
    for _ in range(5):
        resign(game_id=rated_game(alice, bob).pk, user=bob)
    resign(game_id=rated_game(alice, charlie).pk, user=charlie)
    rows = client_for(None).get("/api/v1/leaderboard/").json()["results"]
    assert [row["username"] for row in rows] == ["alice", "bob"]  # charlie: one game
    assert rows[0]["rating"] > rows[1]["rating"] and rows[0]["wins"] == 6
    assert all(isinstance(row["provisional"], bool) for row in rows)
    assert client_for(None).get("/api/v1/leaderboard/?family=chess").status_code == 400
    page = browser(None).get("/leaderboard/").content.decode()
    assert "alice" in page and "charlie" not in page


def test_the_players_api_shows_ratings_and_the_computer_players(alice: User, bob: User) -> None:
    resign(game_id=rated_game(alice, bob).pk, user=bob)
    api = client_for(alice)
    found = {p["username"]: p for p in api.get("/api/v1/players/?search=").json()["results"]}
    assert found["alice"]["ratings"]["standard"]["games"] == 1
    assert found["computer-strong"]["computer"] == "strong" or "computer-strong" not in found
    profile = api.get("/api/v1/players/bob/").json()
    assert profile["records"][0]["losses"] == 1 and profile["ratings"]["standard"]["rating"] < 1500
    assert api.get("/api/v1/players/nobody/").status_code == 404
    assert "Standard" in browser(alice).get("/players/bob/").content.decode()


def test_an_open_challenge_with_a_rating_range_is_for_players_within_it(
    alice: User, bob: User, charlie: User
) -> None:
    Rating.objects.create(user=bob, family="standard", rating=1800, deviation=80)
    challenge = create_challenge(alice, is_open=True, min_rating=1700, max_rating=2000)
    seen_by = {
        user.username: [
            c["id"] for c in client_for(user).get("/api/v1/challenges/").json()["results"]
        ]
        for user in (bob, charlie)
    }
    assert seen_by == {"bob": [challenge.pk], "charlie": []}
    refused = client_for(charlie).post(f"/api/v1/challenges/{challenge.pk}/accept/", format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "RATING_OUT_OF_RANGE"
    accepted = client_for(bob).post(f"/api/v1/challenges/{challenge.pk}/accept/", format="json")
    assert accepted.status_code == 200
    with pytest.raises(Exception, match="only an open challenge"):
        create_challenge(alice, opponent="bob", min_rating=1000)
