"""The game page's poll: nothing new costs no query; anything new is seen at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.play.stalemate import offer_stalemate
from games.play.sweep import timeout_game

from .conftest import browser, mover_and_other, play_turn

pytestmark = pytest.mark.django_db


def opened(game: Game, player: User) -> Client:
    """The player's browser, with the game page open."""
    client = browser(player)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    return client


def poll(client: Client, game: Game, version: int) -> Any:
    return client.get(f"/games/{game.pk}/table/", {"version": version})


def test_an_idle_poll_makes_no_query(
    game: Game, alice: User, bob: User, django_assert_num_queries: Any
) -> None:
    for player in (alice, bob):
        client = opened(game, player)
        with django_assert_num_queries(0):
            assert poll(client, game, game.version).status_code == 204


def test_a_move_by_the_other_player_is_seen_at_the_next_poll(
    game: Game, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    _, waiting = mover_and_other(game, alice, bob)
    client = opened(game, waiting)
    shown = game.version
    with django_capture_on_commit_callbacks(execute=True):
        moves = play_turn(game, alice, bob)
    response = poll(client, game, shown)
    assert response.status_code == 200 and moves[-1] in response.text
    game.refresh_from_db()
    assert poll(client, game, game.version).status_code == 204


def test_a_page_told_by_an_event_reads_the_game_not_the_cache(
    game: Game, alice: User, bob: User
) -> None:
    """The stream's event can come before the commit's callback writes the cache: a
    ``fresh`` poll is answered from the game itself."""
    _, waiting = mover_and_other(game, alice, bob)
    client = opened(game, waiting)
    shown = game.version
    moves = play_turn(game, alice, bob)  # committed, its callbacks (the cache) not run
    assert poll(client, game, shown).status_code == 204  # the cache's word, stale
    response = client.get(f"/games/{game.pk}/table/", {"version": str(shown), "fresh": "1"})
    assert response.status_code == 200 and moves[-1] in response.text


def test_a_stalemate_offer_is_seen_at_the_next_poll(
    game: Game, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    client = opened(game, alice)
    shown = game.version
    with django_capture_on_commit_callbacks(execute=True):
        offer_stalemate(game_id=game.pk, user=bob)
    response = poll(client, game, shown)
    assert response.status_code == 200 and "offers to end the game" in response.text


def test_a_timeout_by_the_sweep_is_seen_at_the_next_poll(
    game: Game, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    _, waiting = mover_and_other(game, alice, bob)
    client = opened(game, waiting)
    shown = game.version
    with django_capture_on_commit_callbacks(execute=True):
        assert timeout_game(game.pk, now=timezone.now() + timedelta(days=30))
    response = poll(client, game, shown)
    assert response.status_code == 200 and "You won" in response.text


def made_private(game: Game) -> Game:
    """A game its players alone may see (a public one is anyone's to watch and poll:
    tests/service/test_spectators_pages.py)."""
    Game.objects.filter(pk=game.pk).update(public=False)
    game.refresh_from_db()
    return game


def test_a_stranger_with_a_session_gets_no_answer_from_the_cache(
    game: Game, alice: User, charlie: User
) -> None:
    made_private(game)
    opened(game, alice)  # the game's version and players are in the cache
    stranger = browser(charlie)
    stranger.get("/")
    assert poll(stranger, game, game.version).status_code == 404


def test_a_signed_out_browser_is_sent_to_log_in(game: Game, alice: User) -> None:
    made_private(game)
    client = opened(game, alice)
    client.logout()
    response = poll(client, game, game.version)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_with_the_cache_down_a_poll_still_answers(
    game: Game, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = opened(game, alice)

    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the cache is down")

    from django.core.cache import cache

    monkeypatch.setattr(cache, "get_many", down)
    monkeypatch.setattr(cache, "add", down)
    monkeypatch.setattr(cache, "set", down)
    assert poll(client, game, game.version).status_code == 204  # the normal way
    assert poll(client, game, game.version - 1).status_code == 200
