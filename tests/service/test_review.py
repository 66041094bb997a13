"""The review of finished games (games/review): queued when a game ends, run by a real
worker on its own queue, never for a game in play, idempotent; the API and the command."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command

from config import settings as production
from config.celery import app
from games.engine import Game as EngineGame
from games.engine import get_rules
from games.models import Game, GameReview
from games.play.dealing import start_game
from games.play.services import resign
from games.review import services
from games.review.services import REVIEW_GAME
from games.tasks import review_game as review_game_task
from tests.review_scenes import reviewed_game

from .conftest import browser, client_for, make_broker_folders, play_turn, wait_until

Run = Callable[..., Any]
ROOT = Path(__file__).resolve().parents[2]


def finished(alice: User, bob: User, run: Run, *, public: bool = True) -> Game:
    """A game of a few turns that bob resigns (its review run at once: tasks are eager)."""
    game = start_game(alice, bob, seed=20261122, public=public)
    for _ in range(4):
        play_turn(game, alice, bob)
    run(resign, game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def test_a_game_that_ends_is_reviewed_and_a_game_in_play_never(
    alice: User, bob: User, run: Run
) -> None:
    game = start_game(alice, bob, seed=20261122)
    for _ in range(3):
        run(play_turn, game, alice, bob)
    assert services.review_game(game.pk) == ""  # asked directly while it is played
    assert not GameReview.objects.exists()
    run(resign, game_id=game.pk, user=alice)
    row = GameReview.objects.get(game=game)
    assert row.format == "rbank-review/1" and row.seconds >= 0
    document = row.document
    assert [turn["turn"] for turn in document["turns"]] == [1, 2, 3]
    assert set(document["players"]) == {"A", "B"}
    assert document["budget"] == {"decision_steps": 200, "samples": 1}


def test_the_review_is_done_once(alice: User, bob: User, run: Run) -> None:
    game = finished(alice, bob, run)
    first = GameReview.objects.get(game=game)
    assert services.review_game(game.pk) == ""  # delivered twice: nothing more
    assert GameReview.objects.get(game=game).created_at == first.created_at


def test_the_command_reviews_the_games_left_without_one(alice: User, bob: User, run: Run) -> None:
    game = finished(alice, bob, run)
    GameReview.objects.all().delete()  # as a game that ended before reviews existed
    playing = start_game(alice, bob, seed=7)
    assert services.unreviewed(10) == [game.pk]
    call_command("review_games", "--here", stdout=open(os.devnull, "w"))  # noqa: SIM115
    assert list(GameReview.objects.values_list("game_id", flat=True)) == [game.pk]
    GameReview.objects.all().delete()
    call_command("review_games", stdout=open(os.devnull, "w"))  # noqa: SIM115 (queued, eager)
    assert GameReview.objects.filter(game=game).exists()
    assert not GameReview.objects.filter(game=playing).exists()


def test_the_api_answers_409_while_played_or_pending_and_the_review_once_ready(
    alice: User, bob: User, charlie: User, run: Run
) -> None:
    game = start_game(alice, bob, seed=20261122)
    path = f"/api/v1/games/{game.pk}/review/"
    for reader in (alice, charlie, None):  # a player, a spectator, someone signed out
        answer = client_for(reader).get(path)
        assert answer.status_code == 409 and answer.json()["error"] == "GAME_NOT_OVER"
    game = finished(alice, bob, run)
    path = f"/api/v1/games/{game.pk}/review/"
    GameReview.objects.all().delete()
    answer = client_for(charlie).get(path)
    assert answer.status_code == 409 and answer.json()["error"] == "REVIEW_PENDING"
    services.review_game(game.pk)
    answer = client_for(charlie).get(path)  # a spectator of a public game
    assert answer.status_code == 200
    body = answer.json()
    assert body["id"] == game.pk and body["format"] == "rbank-review/1"
    assert body["turns"][0]["seat"] in "AB" and "accuracy" in body["players"]["A"]


def test_a_private_games_review_is_its_players_only(
    alice: User, bob: User, charlie: User, run: Run
) -> None:
    game = finished(alice, bob, run, public=False)
    path = f"/api/v1/games/{game.pk}/review/"
    assert client_for(charlie).get(path).status_code == 404
    assert client_for(bob).get(path).status_code == 200


def test_reviews_have_a_queue_of_their_own_and_a_worker_for_it() -> None:
    """The service's settings (the tests' own send reviews to each test worker's queue)."""
    assert production.CELERY_TASK_ROUTES == {REVIEW_GAME: {"queue": "review"}}
    assert production.REVIEW_SOFT_TIME_LIMIT < production.REVIEW_TIME_LIMIT
    compose = (ROOT / "docker" / "compose.yml").read_text()
    assert '"worker", "-Q", "review", "--concurrency", "1"' in compose
    assert '"-Q", "review", "-c", "1"' in (ROOT / "config" / "run.py").read_text()
    assert review_game_task.acks_late and review_game_task.time_limit == settings.REVIEW_TIME_LIMIT


@pytest.fixture
def worker(settings: Any) -> Iterator[str]:
    """A real worker taking this test process's queue (parallel test processes share
    the broker, not the database). The tests' settings route no task (a review goes to
    the default queue), and the default queue is read at each send, where the routes
    are read once per process: so this test's queue is made the default one."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    make_broker_folders()
    queue = f"tests-review-{os.getpid()}"
    default_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=False, shutdown_timeout=30, queues=[queue]
        ):
            yield queue
    finally:
        app.conf.task_default_queue = default_queue
        app.conf.task_always_eager = True


@pytest.mark.process
@pytest.mark.django_db(transaction=True)
def test_a_worker_reviews_the_game_after_it_ends(worker: str) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    game = start_game(alice, bob, seed=20261122)
    play_turn(game, alice, bob)
    assert not wait_until(lambda: GameReview.objects.exists(), seconds=1)
    resign(game_id=game.pk, user=alice)  # commits, then queues the review on its queue
    assert wait_until(lambda: GameReview.objects.filter(game=game).exists())
    assert GameReview.objects.get(game=game).document["turns"][0]["turn"] == 1


def test_the_replay_marks_the_turns_and_offers_the_better_line(alice: User, bob: User) -> None:
    game = reviewed_game(alice, bob)
    review = GameReview.objects.get(game=game).document
    first = review["turns"][0]
    assert first["marks"][:1] == ["compulsory"] and review["turns"][1]["marks"][:1] == ["stop"]
    html = browser(alice).get(f"/games/{game.pk}/replay/").content.decode()
    assert 'id="review-h"' in html and 'id="review-turn-1"' in html
    assert "compulsory move missed" in html and "Stop! not called" in html
    assert "Stop! could have been called on move 2 of the turn before (S2)." in html
    assert '<a class="review-marks" href="#review-turn-1">' in html  # the move list's marker
    assert "Show the better line" in html
    for decision in (d for d in first["decisions"] if d["loss"] > 0):
        assert all(f"<code>{move}</code>" in html for move in decision["better"])


def test_the_replay_says_when_the_review_is_not_ready(alice: User, bob: User) -> None:
    game = reviewed_game(alice, bob)
    GameReview.objects.all().delete()
    html = browser(bob).get(f"/games/{game.pk}/replay/").content.decode()
    assert 'id="review-pending"' in html and 'id="review-turn-1"' not in html
    playing = start_game(alice, bob, seed=3)
    html = browser(bob).get(f"/games/{playing.pk}/replay/").content.decode()
    assert 'id="review-h"' not in html


TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
TURN_LINE = re.compile(r"^\d+ ([A-C]): (.*)$")


def tags_of(lines: list[str]) -> list[tuple[str, str]]:
    return [(m[1], m[2]) for m in map(TAG.match, lines) if m]


def read_back(text: str) -> EngineGame:
    """An export read as the notation says (docs/notation.md): tag lines, turn lines,
    the final event; comment lines, in braces, skipped. The game played again."""
    tags = dict(tags_of(text.splitlines()))
    replayed = EngineGame(int(tags["Seed"]), get_rules(tags["Rules"]), stop_mode=tags["Stop"])
    for line in text.splitlines():
        if line.startswith("{"):
            assert line.endswith("}") and "\n" not in line  # a comment: one line in braces
            continue
        turn = TURN_LINE.match(line)
        if turn is not None:
            replayed.play("ABC".index(turn[1]), turn[2])
        elif line.endswith(" resigns"):
            replayed.resign("ABC".index(line[0]))
    return replayed


def test_the_export_carries_the_review_as_comments_and_still_reads_back(
    alice: User, bob: User
) -> None:
    game = reviewed_game(alice, bob)
    text = browser(alice).get(f"/games/{game.pk}/export.txt").content.decode()
    notes = [line for line in text.splitlines() if line.startswith("{review: ")]
    offender = game.letters[1 - game.letters.index(game.winner)]
    caller = game.winner
    assert notes[0].startswith(f"{{review: {offender}: C-W broke S2, required ")
    assert f"{{review: {caller}: Stop! not called on move 2 (S2)" in text
    assert notes[-1].startswith("{review: accuracy A ") and text.rstrip().endswith(notes[-1])
    lines = text.splitlines()
    assert (
        lines.index(notes[0])
        == next(i for i, line in enumerate(lines) if line.startswith("1 ")) + 1
    )
    replayed = read_back(text)
    assert replayed.is_over
    without = "\n".join(line for line in lines if not line.startswith("{")) + "\n"
    tags = tags_of(lines)
    keep = [(k, v) for k, v in tags if k in ("Game", "Rules", "A", "B")]
    assert replayed.export(keep, {}) == without
    api = client_for(bob).get(f"/api/v1/games/{game.pk}/export/").content.decode()
    assert notes[0] in api
