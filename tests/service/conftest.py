from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Game
from games.services import start_game


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


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def mover_and_other(game: Game, alice: User, bob: User) -> tuple[User, User]:
    return (alice, bob) if game.to_move == "A" else (bob, alice)
