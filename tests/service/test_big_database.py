"""What bench/big_database.py found with 1,000,000 finished and 100,000 active games
(docs/big-database.md): each request's queries stay as many whatever the rows behind
them, and on PostgreSQL each is served by an index, not a scan of the table."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.conduct import block, kept_apart
from accounts.services import profile_of
from games.models import Rating

from .conftest import browser

pytestmark = pytest.mark.django_db


def rated_players(count: int, first: int = 0) -> list[User]:
    """``count`` players on the ladder (enough rated games, a profile each)."""
    users = []
    for n in range(first, first + count):
        user = User.objects.create_user(f"ladder{n}")
        profile_of(user)
        Rating.objects.create(user=user, family="standard", rating=1500 + n, games=10, wins=10)
        users.append(user)
    return users


def queries_of(url: str, **params: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = browser(None).get(url, params)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_the_leaderboard_reads_its_rows_in_the_same_queries_however_many() -> None:
    """Each row shows the player's display name: their profile comes with the ratings
    in one query, not one query per row (it was 100 more for a full ladder)."""
    rated_players(2)
    few = queries_of("/leaderboard/")
    rated_players(8, first=2)
    assert queries_of("/leaderboard/") == few
    page = browser(None).get("/leaderboard/").text
    assert all(f"ladder{n}" in page for n in range(10))


def test_who_is_kept_apart_is_read_from_the_blocks_alone(
    alice: User, bob: User, charlie: User
) -> None:
    """The lobby and the challenges leave out players kept apart: read from the blocks'
    indexes in one query, not by a filter on the users, which made PostgreSQL pass over
    every player (60,000 of them: 64 ms of a lobby)."""
    block(alice, "bob")
    block(charlie, "alice")
    with CaptureQueriesContext(connection) as captured:
        assert kept_apart(alice) == {bob.pk, charlie.pk}
    [query] = captured.captured_queries
    assert "auth_user" not in query["sql"]
    assert kept_apart(bob) == {alice.pk} and kept_apart(User.objects.create_user("dora")) == set()
