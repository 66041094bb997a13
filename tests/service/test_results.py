"""A finished game's result in words (games.results), from each side, for every way a
game ends: who won, how, and the score with the reader's points first."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.dealing import start_game
from games.models import Game
from games.results import result_line, result_of
from games.services import play_moves, resign
from games.stalemate import answer_stalemate, offer_stalemate
from games.sweep import timeout_game
from tests.stored import place, position_of

pytestmark = pytest.mark.django_db

#: alice (A) to move with one card left, the ace of her reserve: R-F1 wins the game.
LAST_CARD: dict[str, Any] = {
    "format": "rbank-position/1",
    "rules": "pagat",
    "to_move": "A",
    "foundations": [[] for _ in range(8)],
    "houses": [["KS"], ["9D"], ["TS"], ["KH"], ["5S"], ["QC"], ["3D"], ["JH"]],
    "A": {"reserve": ["AH"], "hand": [], "waste": [], "turned": None},
    "B": {"reserve": ["6C", "KC"], "hand": ["9H"], "waste": ["3C"], "turned": None},
    "status": "playing",
    "winner": None,
    "score": None,
}


def points(game: Game) -> list[int]:
    game.refresh_from_db()
    score = position_of(game).score
    assert score is not None
    return score


def test_it_says_nothing_while_the_game_is_played(game: Game) -> None:
    assert result_of(game, 0) is None and result_line(game, 1) == ""


def test_it_names_who_resigned_and_who_won(game: Game, bob: User) -> None:
    resign(game_id=game.pk, user=bob)
    won, lost = points(game)
    assert lost == 0 and won > 50
    assert result_line(game, 0) == f"You won: bob resigned · {won}-0"
    assert result_line(game, 1) == f"You lost: you resigned · 0-{won}"
    assert result_line(game, None) == f"alice won: bob resigned · alice {won}, bob 0"
    mine, theirs = result_of(game, 0), result_of(game, 1)
    assert mine is not None and mine.won is True and theirs is not None and theirs.won is False


def test_it_says_whose_time_ran_out(game: Game) -> None:
    assert game.to_move == "A"  # alice's clock runs
    assert timeout_game(game.pk, now=timezone.now() + timedelta(days=30))
    lost, won = points(game)
    assert lost == 0
    assert result_line(game, 1) == f"You won: alice ran out of time · {won}-0"
    assert result_line(game, 0) == f"You lost: your time ran out · 0-{won}"


def test_it_words_an_agreed_stalemate_with_the_readers_points_first(
    game: Game, alice: User, bob: User
) -> None:
    offer_stalemate(game_id=game.pk, user=alice)
    answer_stalemate(game_id=game.pk, user=bob, accept=True)
    a, b = points(game)
    assert result_line(game, 0) == f"Stalemate agreed · {a}-{b}"
    assert result_line(game, 1) == f"Stalemate agreed · {b}-{a}"
    result = result_of(game, 0)
    assert result is not None and result.won is None


def test_it_says_the_winner_played_every_card(game: Game, alice: User) -> None:
    place(game, LAST_CARD)
    play_moves(game_id=game.pk, user=alice, moves=["R-F1"])
    won, lost = points(game)
    assert lost == 0 and won > 0
    assert result_line(game, 0) == f"You won: you played every card · {won}-0"
    assert result_line(game, 1) == f"You lost: alice played every card · 0-{won}"


def test_it_words_a_three_player_forfeit_for_every_seat(
    alice: User, bob: User, charlie: User
) -> None:
    game = start_game(alice, bob, charlie, rules="three-player", seed=1)
    resign(game_id=game.pk, user=charlie)
    a, b, c = points(game)
    assert c == 0 and a == b > 0  # charlie pays each of the others; nobody is the winner
    assert result_line(game, 0) == f"Game over: charlie resigned · you {a}, bob {b}, charlie 0"
    assert result_line(game, 1) == f"Game over: charlie resigned · you {b}, charlie 0, alice {a}"
    assert result_line(game, 2) == f"You lost: you resigned · you 0, alice {a}, bob {b}"
