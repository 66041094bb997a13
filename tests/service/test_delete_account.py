"""A player may delete their account: their games in play are resigned first, their
finished games stay with a deleted player's seat, their challenges go."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.lobby.challenges import create_challenge
from games.models import Challenge, Game
from games.play.dealing import start_game
from games.play.services import resign

from .conftest import browser

pytestmark = pytest.mark.django_db


def test_it_resigns_the_games_in_play_keeps_the_finished_ones_and_names_a_deleted_player(
    alice: User, bob: User, charlie: User
) -> None:
    playing = start_game(alice, bob, seed=1)
    finished = start_game(charlie, alice, seed=2)
    resign(game_id=finished.pk, user=charlie)
    create_challenge(alice, opponent="bob")
    page = browser(alice).get("/account/delete/")
    assert page.status_code == 200 and "You are playing 1 game" in page.text
    response = browser(alice).post("/account/delete/", {"password": "pw-alice-123"})
    assert response.status_code == 302 and not User.objects.filter(username="alice").exists()

    playing.refresh_from_db()
    assert playing.status == Game.Status.WON and playing.ending == "resigned"
    assert playing.winner == "B" and playing.names() == {"A": "deleted player", "B": "bob"}
    finished.refresh_from_db()
    assert finished.names() == {"A": "charlie", "B": "deleted player"}
    assert not Challenge.objects.exists()
    for user, game in ((bob, playing), (charlie, finished)):
        client = browser(user)
        assert "deleted player" in client.get(f"/games/{game.pk}/").text
        assert "deleted player" in client.get("/").text
        assert (
            "deleted player" in client.get(f"/api/v1/games/{game.pk}/").json()["players"].values()
        )
        assert client.get(f"/games/{game.pk}/export.txt").status_code == 200


def test_it_deletes_nothing_without_the_password(alice: User, bob: User) -> None:
    game = start_game(alice, bob, seed=1)
    response = browser(alice).post("/account/delete/", {"password": "wrong"})
    assert response.status_code == 400 and "That is not your password" in response.text
    game.refresh_from_db()
    assert User.objects.filter(username="alice").exists() and game.status == Game.Status.PLAYING
