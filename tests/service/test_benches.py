"""The benches time what they say: real long games with turns that end, and e-mail
latency from the commit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client, override_settings
from rest_framework.test import APIClient

from accounts.models import ApiToken
from bench import api
from bench.email_latency import CommitClock
from bench.harness import ends_turn, long_random_game, play_to, random_game
from games.engine import deal
from games.models import Game, Notification
from games.play.dealing import start_game


def test_it_plays_the_selfplay_policy_to_the_end() -> None:
    moves = random_game(3)
    position = deal(3)
    for move in moves:
        position.play(move)
    assert position.is_over
    assert moves.count("T") > 50 and moves.count("C-W") > 50


def test_the_long_game_has_turns_that_end_past_move_2000() -> None:
    """The old policy never turned, discarded or ended a turn: its "move 2,000" was a
    6-turn game with a 411-move turn."""
    seed, moves = long_random_game(2_000 + 220)
    assert len(moves) > 2_220
    assert any(ends_turn(move) for move in moves[2_000:2_220])
    assert random_game(seed) == moves  # the same game every run


@pytest.mark.django_db
def test_the_api_bench_times_moves_that_end_turns(alice: User, bob: User) -> None:
    seed, moves = long_random_game(300)
    game = start_game(alice, bob, seed=seed)
    play_to(game, moves, 10)
    assert game.ply == 10
    clients = {}
    for seat, user in (("A", alice), ("B", bob)):
        clients[seat] = APIClient()
        clients[seat].credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user, 'b')[1]}")
    with override_settings(ROOT_URLCONF="bench.api"):
        timings = api.time_moves(game, moves, clients, 60)
    game.refresh_from_db()
    assert game.ply == 70 and timings.first_ply == 10
    assert len(timings.moves) == len(timings.floor) == 60
    assert len(timings.turn_ends) == sum(ends_turn(m) for m in moves[10:70]) > 0


@pytest.mark.django_db(transaction=True)
def test_the_email_clock_starts_at_the_commit(alice: User, bob: User) -> None:
    clock = CommitClock()
    game: Game = start_game(alice, bob, seed=1)
    clock.commits.clear()
    with transaction.atomic():
        Notification.objects.create(user=alice, email=alice.email, kind="your_turn", game=game)
        time.sleep(0.05)
        assert clock.commits == []  # written, not committed
        before_commit = time.perf_counter()
    assert len(clock.commits) == 1 and clock.commits[0] >= before_commit


def test_the_stream_bench_runs_and_prints_its_figures(tmp_path: Path) -> None:
    """bench/stream.py, small: its own database (SQLite, under a folder of its own) and
    its own web process."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["RBANK_VAR_DIR"] = str(tmp_path)
    run = subprocess.run(
        [sys.executable, "bench/stream.py", "--streams", "20", "--moves", "10"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    last = run.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"20 streams: \d+ MB; event p50 [\d.]+ ms, p99 [\d.]+ ms", last), last


def test_the_big_database_bench_copies_games_the_service_reads() -> None:
    """bench/big_database.py's templates are stored by the service's own ``keep``: a
    finished one replays from its record, an active one resumes from its snapshot; and
    its COPY text escapes what COPY would read as a separator."""
    before = os.environ.get("DATABASE_URL")
    from bench.big_database import Table, copy_text, play_template
    from games.play.store import engine_game

    assert os.environ.get("DATABASE_URL") == before  # imported, it points nowhere else

    finished, seats = play_template(3, finished=True)
    assert finished.status != Game.Status.PLAYING and finished.state is None
    assert engine_game(finished).is_over and all(seat.score is not None for seat in seats)
    active, seats = play_template(4, finished=False)
    assert active.status == Game.Status.PLAYING and active.record is None
    assert not engine_game(active).is_over and all(seat.score is None for seat in seats)
    row = Table(Game).template(finished)
    assert len(row) == len(Game._meta.concrete_fields) and all("\t" not in v for v in row)
    text = Game._meta.get_field("seed")
    assert copy_text("a\tb\nc\\", text) == "a\\tb\\nc\\\\" and copy_text(None, text) == "\\N"
    assert copy_text(b"\x01\xff", Game._meta.get_field("record")) == "\\\\x01ff"


@pytest.mark.django_db
def test_the_export_bench_reads_every_game_of_the_stream_once(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bench import export

    monkeypatch.setattr(export, "GAMES", 250)
    monkeypatch.setattr(export, "TEMPLATES", 3)
    monkeypatch.setattr(export, "LIMIT", 100)
    export.fill(alice, bob)
    client = Client()
    client.force_login(alice)
    client.get("/api/v1/players/alice/games/export/?limit=1")
    pages = export.read_stream(client)
    ids = [game for page in pages for game in page[2]]
    assert len(ids) == len(set(ids)) == 250 and len(pages) == 3
    assert len({page[1] for page in pages}) == 1  # the same queries a page
    assert [page[3] is not None for page in pages] == [True, False, True]  # floors timed
    assert Game.objects.values("record").distinct().count() == 3
