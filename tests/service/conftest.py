from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game
from games.play.dealing import start_game
from games.play.services import play_moves
from tests.stored import position_of


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", "alice@example.com", "pw-alice-123")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", "bob@example.com", "pw-bob-123")


@pytest.fixture
def charlie(db: None) -> User:
    """Charlie plays in no game of alice's and must never see one."""
    return User.objects.create_user("charlie", "charlie@example.com", "pw-charlie-123")


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    return start_game(alice, bob, seed=20261122)


#: The lobby's new-game form, filled in as a browser sends it.
NEW_GAME_FORM = {
    "opponent": "bob",
    "rules": "pagat",
    "control": "per_turn",
    "days_per_turn": "3",
    "bank_initial_days": "7",
    "bank_increment_days": "1",
    "match_target": "",
}


def browser(user: User | None) -> Client:
    """A browser signed in as ``user`` (a session, as the pages use), or signed out."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def mover_and_other(game: Game, alice: User, bob: User) -> tuple[User, User]:
    return (alice, bob) if game.to_move == "A" else (bob, alice)


def play_turn(game: Game, alice: User, bob: User) -> list[str]:
    """The seat to move plays a whole turn through the service: what the rules force
    first, then turn and discard. Returns the moves."""
    game.refresh_from_db()
    mover, _ = mover_and_other(game, alice, bob)
    moves = whole_turn(game)
    play_moves(game_id=game.pk, user=mover, moves=moves)
    game.refresh_from_db()
    return moves


def whole_turn(game: Game) -> list[str]:
    """A whole turn for the seat to move: the first legal move each time, unless it can
    discard, end or turn (so the turn ends soon)."""
    position = position_of(game)
    moves: list[str] = []
    start = position.turns
    while position.turns == start and not position.is_over:
        legal = [str(m) for m in position.legal_moves()]
        move = next((m for m in ("C-W", "E", "T") if m in legal), legal[0])
        position.play(move)
        moves.append(move)
    return moves


def make_broker_folders() -> None:
    """The filesystem broker's folders (nothing to do with Redis)."""
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    for key in ("data_folder_in", "processed_folder", "control_folder"):
        if key in options:
            Path(str(options[key])).mkdir(parents=True, exist_ok=True)


def wait_until(condition: Callable[[], object], seconds: float = 60) -> bool:
    """Poll ``condition`` until it holds (work done by another thread or process)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def run(django_capture_on_commit_callbacks: Any) -> Iterator[Callable[..., Any]]:
    """Call a function and run what it queues after its commit (tasks run eagerly)."""

    def call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    yield call
