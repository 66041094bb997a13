"""The bot kit (examples/bot.py) plays a whole game against the computer, through a
real web process: its event stream, and a move per request; and stops when its token
is revoked."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from accounts.bots import bot_player
from accounts.services import create_token, revoke_token
from games.engine import BY_CARDS, BY_STALEMATE, BY_TURN_LIMIT
from games.lobby.challenges import create_challenge
from games.models import Game

from .web import Web, web_server

BOT = Path(__file__).resolve().parents[2] / "examples" / "bot.py"

pytestmark = [pytest.mark.process, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def web(django_db_setup: None) -> Iterator[Web]:
    """One web process for both tests (each empties the test database as it ends)."""
    with web_server() as server:
        yield server


def test_the_example_bot_plays_a_whole_game(web: Web, alice: User) -> None:
    bot_player("easy")
    _, key = create_token(alice, "bot")
    # The bot accepts the challenge it gets, then plays until the game has ended.
    run = subprocess.Popen(
        [
            sys.executable,
            str(BOT),
            "--server",
            web.url,
            "--token",
            key,
            "--accept",
            "--games",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    create_challenge(bot_player("easy"), opponent="alice")
    try:
        out, _ = run.communicate(timeout=900)
    finally:
        run.kill()
    assert run.returncode == 0, out[-3000:]
    game = Game.objects.get()
    # Played out by the rules: nobody resigned or ran out of time.
    assert game.ending in (BY_CARDS, BY_STALEMATE, BY_TURN_LIMIT), game.ending
    assert f"game {game.pk} over" in out
    # It took the challenge up with a contribution of its own (docs/fair-deal.md).
    assert [c["by"] for c in game.contributions] == ["server", "player"]


def test_the_example_bot_stops_once_its_token_is_revoked(web: Web, alice: User) -> None:
    token, key = create_token(alice, "bot")
    run = subprocess.Popen(
        [sys.executable, str(BOT), "--server", web.url, "--token", key],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            run.communicate(timeout=3)  # it follows its stream
        revoke_token(alice, token.pk)
        out, _ = run.communicate(timeout=30)
    finally:
        run.kill()
    assert run.returncode == 1
    assert "the server refuses the token: invalid or revoked token" in out
