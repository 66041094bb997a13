"""A player's finished games as a stream (``GET /api/v1/players/{name}/games/export/``,
docs/open-database.md): NDJSON or the notation, filtered, paged by a keyset cursor,
only what the reader may see, a clear 400 for what it cannot read."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.play.dealing import start_game

from .archive import finished
from .conftest import client_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/players/alice/games/export/"


def day(n: int, month: int = 10) -> datetime:
    return datetime(2026, month, n, 12, tzinfo=UTC)


@pytest.fixture
def games(alice: User, bob: User, charlie: User) -> dict[str, Game]:
    """Alice's finished games, and a few that are not hers or not over."""
    made = {
        "won": finished(bob, alice, day(1), seed=1),
        "lost": finished(alice, bob, day(2), seed=2, rules="foster"),
        "private_with_bob": finished(alice, bob, day(3), public=False, seed=3),
        "won_late": finished(charlie, alice, day(5, 11), seed=4),
    }
    finished(bob, charlie, day(4), seed=5)  # not alice's
    start_game(alice, bob, seed=6)  # alice's, not over
    return made


def lines(response: Any) -> list[dict[str, Any]]:
    body = response.getvalue().decode()
    return [json.loads(line) for line in body.splitlines()]


def ids(response: Any) -> list[int]:
    return [line["id"] for line in lines(response)]


def test_a_player_gets_all_their_finished_games_in_the_order_they_ended(
    alice: User, games: dict[str, Game]
) -> None:
    response = client_for(alice).get(URL)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert "Link" not in response
    found = lines(response)
    order = ("won", "lost", "private_with_bob", "won_late")
    assert [line["id"] for line in found] == [games[name].pk for name in order]
    first = found[0]
    game = games["won"]
    assert first["seat"] == "B" and first["result"] == "won" and first["winner"] == "B"
    assert first["seed"] == game.seed and first["seed_hash"] == game.seed_hash
    assert first["ended_at"] == "2026-10-01T12:00:00Z"
    assert first["players"] == {"A": "bob", "B": "alice"}
    assert first["notation"].startswith(f'[Game "{game.pk}"]\n')
    assert f'[Seed "{game.seed}"]' in first["notation"]
    assert found[1]["result"] == "lost" and found[1]["rules"] == "foster"


def test_others_get_the_public_games_and_those_they_played(
    bob: User, charlie: User, games: dict[str, Game]
) -> None:
    public = [games[name].pk for name in ("won", "lost", "won_late")]
    assert ids(client_for(None).get(URL)) == public
    assert ids(client_for(charlie).get(URL)) == public
    # Bob played the private game with alice: he sees it in her stream too.
    assert ids(client_for(bob).get(URL)) == sorted([*public, games["private_with_bob"].pk])


def test_it_filters_by_date_rules_and_result(alice: User, games: dict[str, Game]) -> None:
    client = client_for(alice)

    def found(**params: str) -> list[int]:
        response = client.get(URL, params)
        assert response.status_code == 200, response.content
        return ids(response)

    assert found(since="2026-10-02") == [
        games[n].pk for n in ("lost", "private_with_bob", "won_late")
    ]
    assert found(until="2026-10-03") == [games[n].pk for n in ("won", "lost")]
    assert found(since="2026-10-02", until="2026-10-03") == [games["lost"].pk]
    assert found(rules="foster") == [games["lost"].pk]
    assert found(result="won") == [games[n].pk for n in ("won", "won_late")]
    assert found(result="lost") == [games[n].pk for n in ("lost", "private_with_bob")]
    assert found(result="drawn") == []
    assert found(since="2027-01-01") == []


def test_the_notation_format_writes_the_games_as_the_database_does(
    alice: User, games: dict[str, Game]
) -> None:
    response = client_for(alice).get(URL, {"format": "notation", "limit": "2"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.getvalue().decode()
    parts = re.split(r"\n(?=\[Game )", text)
    assert [re.match(r'\[Game "(\d+)"\]', part)[1] for part in parts] == [  # type: ignore[index]
        str(games["won"].pk),
        str(games["lost"].pk),
    ]
    assert all('[Ended "2026-10-0' in part and "[Seed " in part for part in parts)
    assert "format=notation" in response["Link"]


def test_the_cursor_walks_every_page_once(alice: User, games: dict[str, Game]) -> None:
    client = client_for(alice)
    url: str | None = f"{URL}?limit=1&result=won"
    seen = []
    pages = 0
    while url is not None:
        response = client.get(url)
        assert response.status_code == 200
        seen += ids(response)
        pages += 1
        link = response.get("Link")
        if link is None:
            assert "X-Next-Cursor" not in response
            url = None
            continue
        (url,) = re.findall(r'^<([^>]+)>; rel="next"$', link)
        assert f"cursor={response['X-Next-Cursor']}" in url and "result=won" in url
    assert seen == [games["won"].pk, games["won_late"].pk] and pages == 2


def test_a_game_ending_at_the_same_moment_is_neither_lost_nor_repeated(
    alice: User, bob: User
) -> None:
    same = [finished(alice, bob, day(7), seed=40 + n).pk for n in range(5)]
    client = client_for(alice)
    seen, cursor = [], None
    while True:
        params: dict[str, str | int] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        response = client.get(URL, params)
        seen += ids(response)
        cursor = response.get("X-Next-Cursor")
        if cursor is None:
            break
    assert seen == sorted(same)


def test_a_page_costs_the_same_queries_however_long(alice: User, bob: User) -> None:
    for n in range(30):
        finished(alice if n % 2 else bob, bob if n % 2 else alice, day(1 + n % 28), seed=100 + n)
    client = client_for(alice)
    client.get(URL, {"limit": 1})  # the session's first request may write its own rows

    def queries(**params: Any) -> int:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(URL, params)
            body = response.getvalue()
        assert response.status_code == 200 and body
        return len(captured.captured_queries)

    first = queries(limit=2)
    assert queries(limit=25) == first
    cursor = client.get(URL, {"limit": 20})["X-Next-Cursor"]
    assert queries(limit=5, cursor=cursor) == first
    # The player, the page of seats with their games, the games' seats and players.
    assert first == 3


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"format": "pgn"}, "format"),
        ({"since": "yesterday"}, "since"),
        ({"until": "2026-02-30"}, "until"),
        ({"rules": "chess"}, "rules"),
        ({"result": "win"}, "result"),
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"limit": "many"}, "limit"),
        ({"cursor": "abc"}, "cursor: not a cursor"),
        ({"cursor": "99999999999999999999-1"}, "cursor"),
    ],
)
def test_bad_input_is_a_clear_400(
    alice: User, games: dict[str, Game], params: dict[str, str], words: str
) -> None:
    response = client_for(alice).get(URL, params)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "BAD_REQUEST" and body["message"].startswith(words), body


def test_an_unknown_player_is_404(alice: User) -> None:
    response = client_for(None).get("/api/v1/players/nobody/games/export/")
    assert response.status_code == 404 and response.json()["error"] == "NO_SUCH_PLAYER"


def test_a_player_with_no_finished_game_gets_an_empty_stream(alice: User, bob: User) -> None:
    start_game(alice, bob)
    response = client_for(bob).get(URL)
    assert response.status_code == 200 and lines(response) == []
