"""The computer players, through the services: anyone challenges them, they accept at
once, play their turns in a task when their turn comes, answer stalemate offers, call
Stop! in classic games, and are woken again if their task was lost."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.bots import BOT_PLAYERS, bot_player
from games.models import Game, Notification, StopMode
from games.play.dealing import announce, start_game
from games.play.stalemate import offer_stalemate
from games.sweep import sweep
from tests.stop_scenes import deal_with

from .conftest import client_for, whole_turn

pytestmark = pytest.mark.django_db


def human_turn(game: Game, human: User) -> None:
    from games.play.services import play_moves

    game.refresh_from_db()
    play_moves(game_id=game.pk, user=human, moves=whole_turn(game))


def test_a_challenge_to_the_computer_is_accepted_and_its_turns_are_played(
    alice: User, run: Callable[..., Any]
) -> None:
    response = run(
        client_for(alice).post,
        "/api/v1/challenges/",
        {"opponent": "computer-medium", "rules": "pagat"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "accepted"
    game = Game.objects.get()
    bot = bot_player("medium")
    assert game.players == [alice, bot]
    for _ in range(6):
        game.refresh_from_db()
        if game.status != "playing":
            break
        assert game.user_at(game.letters.index(game.to_move)) == alice  # the bot has played
        run(human_turn, game, alice)
    game.refresh_from_db()
    assert game.ply > 6
    assert not Notification.objects.filter(user=bot).exists()  # it has no mailbox


def test_a_bot_that_moves_first_plays_at_once(alice: User, run: Callable[..., Any]) -> None:
    bot = bot_player("strong")
    for seed in range(1, 50):
        game = run(lambda s=seed: _dealt(bot, alice, s))
        if game.starter == 0:
            break
    game.refresh_from_db()
    assert game.ply > 0 and game.to_move == "B"


def _dealt(first: User, second: User, seed: int) -> Game:
    from django.db import transaction

    with transaction.atomic():
        game = start_game(first, second, seed=seed)
        announce(game)
    return game


def test_three_players_two_of_them_computers(alice: User, run: Callable[..., Any]) -> None:
    response = run(
        client_for(alice).post,
        "/api/v1/challenges/",
        {
            "rules": "three-player",
            "opponent": "computer-easy",
            "second_opponent": "computer-strong",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    game = Game.objects.get()
    for _ in range(4):
        game.refresh_from_db()
        if game.status != "playing":
            break
        assert game.to_move == "A"  # both bots have played
        run(human_turn, game, alice)


@pytest.mark.parametrize("level", sorted(BOT_PLAYERS))
def test_a_bot_answers_a_stalemate_offer_by_the_count(
    alice: User, run: Callable[..., Any], level: str
) -> None:
    bot = bot_player(level)
    game = run(_dealt, alice, bot, 11)
    game.refresh_from_db()
    if game.to_move != "A":
        run(human_turn, game, alice)
    run(offer_stalemate, game_id=game.pk, user=alice)
    game.refresh_from_db()
    # The count of a fresh game is even, so the bot does not lose by it: it accepts.
    assert (game.status, game.ending) == ("stalemate", "agreed")


def test_the_strong_bot_calls_stop_on_a_slip(alice: User, run: Callable[..., Any]) -> None:
    seed, moves = deal_with([None, "S3", None])
    bot = bot_player("strong")
    for first, second in ((alice, bot), (bot, alice)):
        game = start_game(first, second, seed=seed, stop_mode=StopMode.CLASSIC)
        if game.user_at(game.letters.index(game.to_move)) == alice:
            break
        game.delete()
    from games.play.services import play_moves

    run(play_moves, game_id=game.pk, user=alice, moves=moves)
    game.refresh_from_db()
    last_logged = [row["entry"] for row in _log(game)]
    assert any(" stop 2 S3" in entry for entry in last_logged), last_logged


def _log(game: Game) -> list[dict[str, Any]]:
    from games.play.selectors import move_log
    from games.play.store import engine_game

    return move_log(engine_game(game))


def test_the_sweep_wakes_a_bot_whose_task_was_lost(
    alice: User, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = bot_player("easy")
    monkeypatch.setattr("games.computer.bot_wake.dispatch", lambda *args, **kwargs: False)  # lost
    game = run(_dealt, alice, bot, 11)
    game.refresh_from_db()
    if game.to_move == "A":
        run(human_turn, game, alice)
    game.refresh_from_db()
    assert game.to_move == "B"  # the bot's turn, and no task to play it
    monkeypatch.undo()  # the broker takes tasks again: the sweep's are not lost
    assert run(sweep)["bots_woken"] == 0  # too soon to call it lost
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=3))
    assert run(sweep)["bots_woken"] == 1
    game.refresh_from_db()
    assert game.to_move == "A"


def test_a_task_delivered_twice_plays_once(alice: User, run: Callable[..., Any]) -> None:
    from games.computer.bots import play_turn

    bot = bot_player("medium")
    game = run(_dealt, alice, bot, 11)
    game.refresh_from_db()
    ply, version = game.ply, game.version
    assert play_turn(game.pk, version - 1) == ""  # an old cue: nothing
    game.refresh_from_db()
    assert (game.ply, game.version) == (ply, version)
