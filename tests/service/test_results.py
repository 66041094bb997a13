"""A finished game's result in words (games.words.results), from each side, for every way a
game ends: who won, how, and the score with the reader's points first."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Game, Notification
from games.notify.writing import email_context
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.play.sweep import timeout_game
from games.words.results import result_line, result_of, scores_line
from tests.stored import UNEVEN_COUNTS, place, position_of

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


def test_an_agreed_stalemate_is_won_and_lost_by_the_counts(
    game: Game, alice: User, bob: User
) -> None:
    """R8.3: the lower count scores; the result says so from each side, never a draw
    (it read "Remis vereinbart · 0-4" to the player who had lost)."""
    place(game, UNEVEN_COUNTS)
    offer_stalemate(game_id=game.pk, user=alice)
    answer_stalemate(game_id=game.pk, user=bob, accept=True)
    assert points(game) == [0, 4]
    assert result_line(game, 0) == "You lost: stalemate agreed, bob had the lower count · 0-4"
    assert result_line(game, 1) == "You won: stalemate agreed, you had the lower count · 4-0"
    mine, theirs = result_of(game, 0), result_of(game, 1)
    assert mine is not None and mine.won is False and theirs is not None and theirs.won is True


def test_a_stalemate_is_a_draw_only_when_nobody_scores(game: Game, alice: User, bob: User) -> None:
    offer_stalemate(game_id=game.pk, user=alice)
    answer_stalemate(game_id=game.pk, user=bob, accept=True)  # the deal's counts: equal
    assert points(game) == [0, 0]
    assert result_line(game, 0) == "Draw: stalemate agreed · 0-0"
    result = result_of(game, 1)
    assert result is not None and result.won is None


def test_a_three_player_stalemate_names_the_lowest_count(
    alice: User, bob: User, charlie: User
) -> None:
    game = start_game(alice, bob, charlie, rules="three-player", seed=13)
    assert [seat.count for seat in position_of(game).seats] == [40, 40, 39]
    offer_stalemate(game_id=game.pk, user=alice)
    answer_stalemate(game_id=game.pk, user=bob, accept=True)
    answer_stalemate(game_id=game.pk, user=charlie, accept=True)
    assert points(game) == [0, 0, 2]
    lost = "You lost: stalemate agreed, charlie had the lowest count"
    assert result_line(game, 0) == f"{lost} · you 0, bob 0, charlie 2"
    assert result_line(game, 1) == f"{lost} · you 0, charlie 2, alice 0"
    assert result_line(game, 2) == (
        "You won: stalemate agreed, you had the lowest count · you 2, alice 0, bob 0"
    )


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


def test_the_e_mails_word_a_result_with_the_pages_words(alice: User, bob: User) -> None:
    """The result e-mails say what ``result_of`` says, in one clause: no second wording."""
    game = start_game(alice, bob, seed=7)
    place(game, UNEVEN_COUNTS)
    offer_stalemate(game_id=game.pk, user=alice)
    answer_stalemate(game_id=game.pk, user=bob, accept=True)
    game.refresh_from_db()
    for seat in (0, 1):
        row = Notification.objects.get(kind="game_over", user=game.user_at(seat))
        result = result_of(game, seat)
        assert result is not None
        context = email_context(row)
        assert context["outcome"] == result.clause == f"{result.how}, {result.verdict}"
        assert context["scores"] == scores_line(game, seat)


def test_only_the_results_module_words_a_result() -> None:
    """The e-mails' words for a winner live beside the pages' (their context is unique)."""
    root = Path(__file__).resolve().parents[2] / "games"
    wording = [
        path.relative_to(root).as_posix()
        for path in root.rglob("*.py")
        if '"game over e-mail"' in path.read_text(encoding="utf-8")
    ]
    assert wording == ["words/results.py"]
