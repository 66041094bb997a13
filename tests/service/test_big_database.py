"""What bench/big_database.py found with 1,000,000 finished and 100,000 active games
(docs/big-database.md): each request's queries stay as many whatever the rows behind
them, and on PostgreSQL each is served by an index, not a scan of the table."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.bots import bot_player
from accounts.conduct import block, kept_apart
from accounts.services import profile_of
from games.models import Game, Rating, Seat
from games.pages import players
from games.play import selectors
from games.play.dealing import start_game
from games.play.services import resign
from games.play.stalemate import offer_stalemate
from games.sweep import sweep

from .conftest import browser
from .test_bots import human_turn

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


def plan_of(sql: str | QuerySet[Any]) -> str:
    """PostgreSQL's plan for ``sql`` (or a query set's) when it may use any index (on a
    test's few rows a scan of the table is cheaper, and says nothing of a million)."""
    sql, params = (sql, ()) if isinstance(sql, str) else sql.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("SET LOCAL enable_seqscan = on")
    return plan


def on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the plans are PostgreSQL's (the postgres pass runs this)")


def many(*, finished: int, against: User, active: int, people: tuple[User, User]) -> None:
    """Rows as a busy server holds them, for PostgreSQL's statistics (``ANALYZE``):
    ``finished`` games of ``people[0]`` against ``against``, and ``active`` games
    between ``people``, stalled; copies of a dealt game, written in bulk."""
    template = start_game(*people, seed=1)
    fields = {
        f.attname: getattr(template, f.attname)
        for f in Game._meta.concrete_fields
        if not f.primary_key
    }
    old = timezone.now() - timedelta(days=30)
    done = {**fields, "status": Game.Status.WON, "state": None, "deadline": None, "updated_at": old}
    games = Game.objects.bulk_create(
        [Game(**done) for _ in range(finished)] + [Game(**fields) for _ in range(active)]
    )
    Game.objects.filter(pk__in=[g.pk for g in games]).update(updated_at=old)
    seats = []
    for n, game in enumerate(games):
        users = (people[0], against) if n < finished else people
        score = 0 if n < finished else None
        seats += [
            Seat(game=game, letter=x, user=u, score=score) for x, u in zip("AB", users, strict=True)
        ]
    Seat.objects.bulk_create(seats)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def stalled(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=3))


def test_the_sweep_wakes_the_computers_turns_and_answers_from_their_seats_in_play(
    alice: User, bob: User, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer's turn and its answer to a stalemate offer, both lost, are queued
    again; a finished game against it is not looked at."""
    bot = bot_player("easy")
    monkeypatch.setattr("games.computer.bot_wake.dispatch", lambda *args, **kwargs: False)
    turn = run(start_game, alice, bot, seed=11)
    if turn.to_move == "A":
        run(human_turn, turn, alice)
    offer = next(g for n in range(11, 40) if (g := start_game(bob, bot, seed=n)).to_move == "A")
    run(offer_stalemate, game_id=offer.pk, user=bob)  # on bob's own turn
    over = run(start_game, alice, bot, seed=12)
    run(resign, game_id=over.pk, user=alice)
    monkeypatch.undo()
    for game in (turn, offer, over):
        stalled(game)
    assert Seat.objects.filter(game=over, score__isnull=True).count() == 0
    assert run(sweep)["bots_woken"] == 2
    turn.refresh_from_db()
    offer.refresh_from_db()
    assert turn.to_move == "A" and (offer.status, offer.ending) == ("stalemate", "agreed")
    assert run(sweep)["bots_woken"] == 0


def test_the_sweep_reads_the_computers_seats_in_play_by_their_index(
    alice: User, bob: User, run: Callable[..., Any]
) -> None:
    """Not every game being played: with 100,000 of them it read them all, 500 ms a
    minute (docs/big-database.md)."""
    on_postgresql()
    bot = bot_player("easy")
    run(start_game, alice, bot, seed=11)
    many(finished=2_000, against=bot, active=500, people=(alice, bob))
    with CaptureQueriesContext(connection) as captured:
        sweep()
    reads = [q["sql"] for q in captured.captured_queries if "bot_level" in q["sql"]]
    assert len(reads) == 2
    for sql in reads:
        plan = plan_of(sql)
        assert "seat_in_play" in plan or "seat_offering" in plan, plan


def test_the_public_list_counts_and_pages_through_its_limit_only(
    alice: User, bob: User, charlie: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``WATCH_LIMIT`` games the list says "more than" and pages through the newest
    ones: its count reads at most one row more than the limit (it counted every game
    being played: 765 ms with 100,000), and no page lies deeper."""
    monkeypatch.setattr(players, "WATCH_PAGE_SIZE", 1)
    monkeypatch.setattr(players, "WATCH_LIMIT", 2)
    games = [start_game(*pair, seed=n) for n, pair in enumerate([(alice, bob), (bob, charlie)])]
    page = browser(None).get("/watch/").text
    assert "2 games being played, newest move first." in page and "Page 1 of 2" in page
    games.append(start_game(alice, charlie, seed=3))
    with CaptureQueriesContext(connection) as captured:
        page = browser(None).get("/watch/").text
    assert "More than 2 games being played: the newest 2 are listed" in page
    assert "Page 1 of 2" in page and f'href="/games/{games[2].pk}/"' in page
    [count] = [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"]]
    assert "LIMIT 3" in count
    last = browser(None).get("/watch/", {"page": "3"}).text  # the nearest page: 2
    assert "Page 2 of 2" in last and f'href="/games/{games[1].pk}/"' in last


def test_the_public_list_reads_the_newest_games_from_their_index(
    alice: User, bob: User, charlie: User
) -> None:
    """A page of the list reads the partial index of public games being played in its
    order: no sort of every game being played (594 ms with 100,000); its count stops
    at the limit."""
    on_postgresql()
    many(finished=500, against=charlie, active=500, people=(alice, bob))
    page = selectors.public_games()[: players.WATCH_PAGE_SIZE]
    plan = plan_of(page)
    assert "game_public_newest" in plan and "Sort" not in plan, plan
    counted = selectors.public_games().order_by().values("pk")[: players.WATCH_LIMIT + 1]
    plan = plan_of(counted)
    assert plan.startswith("Limit") and "Sort" not in plan, plan


def test_a_player_is_found_by_name_in_any_case_from_an_index(alice: User) -> None:
    """The player's page and the list's player filter find a username in any case
    (``UPPER(username)`` to PostgreSQL) by an index on that expression, not by reading
    every player."""
    on_postgresql()
    User.objects.bulk_create([User(username=f"someone{n}") for n in range(2_000)])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE auth_user")
    with CaptureQueriesContext(connection) as captured:
        assert browser(None).get("/players/ALICE/").status_code == 200
    [page] = [q["sql"] for q in captured.captured_queries if "UPPER(" in q["sql"]]
    assert "auth_user_username_upper" in plan_of(page), plan_of(page)
    found = User.objects.filter(username__iexact="ALICE")
    assert list(found) == [alice]
    assert "auth_user_username_upper" in plan_of(found)
