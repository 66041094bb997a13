"""The event stream: which events each action writes, and the stream itself, served by
a real uvicorn process on the test's database (events reach it through Redis when the
suite runs with REDIS_URL, else through its read of the events table)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.bots import bot_player
from accounts.models import ApiToken
from accounts.services import create_token, delete_account, revoke_token
from games import retention
from games.api.stream import negotiate, resume_from
from games.engine import BY_RESIGNATION
from games.feed.stream import PAGE_SIZE
from games.lobby.challenges import (
    accept_challenge,
    cancel_challenge,
    create_challenge,
    decline_challenge,
)
from games.models import Event, Game
from games.play.dealing import start_game
from games.play.services import resign
from games.play.stalemate import offer_stalemate
from tests.hidden_cards import assert_hides
from tests.stored import position_of

from .conftest import browser, play_turn
from .web import Stream, Web, web_server

pytestmark = [pytest.mark.process, pytest.mark.django_db(transaction=True)]


def kinds(user: User) -> list[str]:
    return list(Event.objects.filter(user=user).order_by("pk").values_list("kind", flat=True))


def token(user: User) -> dict[str, str]:
    return {"Authorization": f"Token {create_token(user, 'stream')[1]}"}


NDJSON = {"Accept": "application/x-ndjson"}


# What each action tells, and whom.


def test_a_challenge_and_its_game_tell_each_player_what_concerns_them(
    alice: User, bob: User
) -> None:
    challenge = create_challenge(alice, opponent="bob")
    assert kinds(bob) == ["challenge"] and kinds(alice) == []
    accept_challenge(challenge.pk, bob)
    game = Game.objects.get()
    first = ["your_turn"] if game.to_move == "A" else []  # the seat to move hears of it
    assert kinds(alice) == ["challenge_answered", "game_started", *first]
    assert kinds(bob) == ["challenge", "game_started", *(["your_turn"] if not first else [])]
    answered = Event.objects.get(kind="challenge_answered")
    assert answered.data == {
        "challenge": challenge.pk,
        "game": game.pk,
        "version": 1,
        "accepted": True,
        "by": "bob",
    }
    started = Event.objects.filter(kind="game_started").first()
    assert started is not None and started.data["players"] == {"A": "alice", "B": "bob"}


def test_a_declined_and_a_cancelled_challenge(alice: User, bob: User, charlie: User) -> None:
    declined = create_challenge(alice, opponent="bob")
    decline_challenge(declined.pk, bob)
    cancelled = create_challenge(alice, opponent="charlie")
    cancel_challenge(cancelled.pk, alice)
    assert kinds(alice) == ["challenge_answered"]
    assert Event.objects.get(user=alice).data["accepted"] is False
    assert kinds(charlie) == ["challenge", "challenge_cancelled"]


def test_each_turn_tells_both_players_with_the_new_version(
    game: Game, alice: User, bob: User
) -> None:
    seat = game.to_move
    moves = play_turn(game, alice, bob)
    mover, other = (alice, bob) if seat == "A" else (bob, alice)
    move = Event.objects.get(user=other, kind="move")
    assert move.data == {"game": game.pk, "version": game.version, "seat": seat, "moves": moves}
    turn = Event.objects.get(user=other, kind="your_turn")
    assert turn.data["version"] == game.version and turn.data["last_turn"] == moves
    assert turn.data["seat"] == game.to_move and turn.data["deadline"] is not None
    assert kinds(mover) == ["move"]  # its own moves (the game was dealt, not announced)


def test_a_stalemate_offer_and_a_resignation(game: Game, alice: User, bob: User) -> None:
    play_turn(game, alice, bob)
    offer_stalemate(game_id=game.pk, user=bob)
    resign(game_id=game.pk, user=alice)
    offer = Event.objects.get(user=alice, kind="stalemate_offered")
    assert offer.data["by"] == "B"
    over = Event.objects.get(user=bob, kind="game_over")
    assert over.data["ending"] == BY_RESIGNATION and over.data["winner"] == "B"
    assert set(over.data["score"]) == {"A", "B"}


def test_computer_players_get_no_events(alice: User) -> None:
    computer = bot_player("easy")
    game = start_game(alice, computer, seed=3)
    play_turn(game, alice, computer)
    assert not Event.objects.filter(user=computer).exists()


def test_no_event_holds_a_hidden_card(game: Game, alice: User, bob: User) -> None:
    for _ in range(6):
        play_turn(game, alice, bob)
    position = position_of(game)
    events = list(Event.objects.all())
    assert events  # six turns tell the players: a loop over none would check nothing
    for event in events:
        assert_hides(event.as_json(), position)  # no card name at all, in fact


# The request: formats and the id to resume from.


@pytest.mark.parametrize(
    ("accept", "served"),
    [
        ("", "text/event-stream"),
        ("text/event-stream", "text/event-stream"),
        ("*/*", "text/event-stream"),
        ("application/x-ndjson", "application/x-ndjson"),
        ("application/json, application/x-ndjson;q=0.9", "application/x-ndjson"),
        ("application/json", None),
    ],
)
def test_the_format_follows_accept(accept: str, served: str | None) -> None:
    form = negotiate(accept)
    assert (form and form.content_type) == served


def test_a_stream_needs_an_asgi_server_and_says_so(alice: User) -> None:
    # The test client calls the async view through async_to_sync, which a thread with
    # an event loop (a browser test's, earlier in this process) cannot: another thread.
    with ThreadPoolExecutor(1) as thread:
        signed_in = thread.submit(browser(alice).get, "/api/v1/stream/events/").result()
        signed_out = thread.submit(browser(None).get, "/api/v1/stream/events/").result()
    assert signed_in.status_code == 503 and signed_in.json()["error"] == "STREAM_UNAVAILABLE"
    assert signed_out.status_code == 401


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
def test_it_answers_a_write_to_the_stream_with_a_json_405(alice: User, method: str) -> None:
    # A signed-in browser without the CSRF token: the stream takes no write, and says so
    # in the API's shape, never with Django's CSRF page.
    client = browser(alice)
    client.handler.enforce_csrf_checks = True
    with ThreadPoolExecutor(1) as thread:
        response = thread.submit(getattr(client, method), "/api/v1/stream/events/").result()
    assert response.status_code == 405
    assert response.json()["error"] == "METHOD_NOT_ALLOWED"
    assert response["Allow"] == "GET, HEAD"


def test_resume_reads_last_event_id_then_since(rf: Any) -> None:
    assert resume_from(rf.get("/", HTTP_LAST_EVENT_ID="42")) == 42
    assert resume_from(rf.get("/?since=7")) == 7
    assert resume_from(rf.get("/")) is None
    for wrong in ("-1", "x", "9" * 30):
        with pytest.raises(ValueError):
            resume_from(rf.get("/", HTTP_LAST_EVENT_ID=wrong))


# The stream, from a real web process.


@pytest.fixture(scope="module")
def web(django_db_setup: None) -> Iterator[Web]:
    """One web process for the module's tests: each test's rows are its own (every test
    here empties the test database as it ends, which the process reads)."""
    with web_server(STREAM_HEARTBEAT_SECONDS="1", STREAM_MAX_PER_USER="2") as server:
        yield server


def test_a_move_reaches_the_other_players_stream_as_sse(
    web: Web, game: Game, alice: User, bob: User
) -> None:
    stream = web.stream(token(bob))
    assert stream.status == 200
    assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
    moves = play_turn(game, alice, bob)
    move, turn = stream.sse(2)
    assert (move["event"], turn["event"]) == ("move", "your_turn")
    assert int(move["id"]) < int(turn["id"])
    data = json.loads(turn["data"])
    assert data["id"] == int(turn["id"]) and data["game"] == game.pk
    assert data["version"] == game.version and data["last_turn"] == moves
    stream.close()


def test_ndjson_and_resuming_after_the_last_event_id(
    web: Web, game: Game, alice: User, bob: User
) -> None:
    headers = token(bob)
    play_turn(game, alice, bob)
    play_turn(game, alice, bob)
    first = Event.objects.filter(user=bob).order_by("pk").first()
    assert first is not None
    stream = web.stream({**headers, **NDJSON, "Last-Event-ID": str(first.pk)})
    assert stream.response.getheader("Content-Type") == "application/x-ndjson"
    stored = list(Event.objects.filter(user=bob, pk__gt=first.pk).order_by("pk"))
    missed = stream.ndjson(len(stored))
    assert [e["id"] for e in missed] == [e.pk for e in stored]  # in order, none twice
    play_turn(game, alice, bob)
    live = stream.ndjson(1)[0]
    assert live["kind"] == "move" and live["version"] == Game.objects.get().version
    stream.close()


def test_it_sends_every_missed_event_however_many_then_goes_live(
    web: Web, game: Game, alice: User, bob: User
) -> None:
    # More than two pages of the catch-up (1,000 each), most of them from an hour ago and
    # the last ones just now: each is sent, in order, none twice.
    data = {"game": game.pk, "version": 1, "by": "A"}
    an_hour_ago = timezone.now() - timedelta(hours=1)
    Event.objects.bulk_create(
        Event(user=bob, kind="stalemate_offered", game=game, data=data, created_at=an_hour_ago)
        for _ in range(2 * PAGE_SIZE)
    )
    Event.objects.bulk_create(
        Event(user=bob, kind="stalemate_offered", game=game, data=data) for _ in range(500)
    )
    stored = list(Event.objects.filter(user=bob).order_by("pk").values_list("pk", flat=True))
    stream = web.stream({**token(bob), **NDJSON, "Last-Event-ID": "0"})
    assert [e["id"] for e in stream.ndjson(len(stored), seconds=60)] == stored
    play_turn(game, alice, bob)
    assert [e["kind"] for e in stream.ndjson(2)] == ["move", "your_turn"]
    stream.close()


def test_an_idle_stream_has_a_heartbeat(web: Web, bob: User) -> None:
    stream = web.stream(token(bob))
    assert stream.readline() == "retry: 3000\n"
    assert stream.readline() == ": connected\n"
    assert stream.readline() == "\n"
    assert stream.readline() == ": heartbeat\n"  # a second later, nothing else to say
    stream.close()


def test_a_signed_in_browser_uses_its_session(web: Web, game: Game, alice: User, bob: User) -> None:
    play_turn(game, alice, bob)
    client = browser(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    stream = web.stream({"Cookie": cookie, **NDJSON, "Last-Event-ID": "0"})
    assert stream.status == 200
    assert stream.ndjson(1)[0]["kind"] == "move"  # stored, and replayed from the start
    stream.close()


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({}, 401, "NOT_AUTHENTICATED"),
        ({"Authorization": "Token nope"}, 401, "NOT_AUTHENTICATED"),
        ({"Accept": "application/json"}, 406, "NOT_ACCEPTABLE"),
        ({"Last-Event-ID": "yesterday"}, 400, "BAD_REQUEST"),
    ],
)
def test_a_bad_request_gets_a_clear_error(
    web: Web, bob: User, headers: dict[str, str], status: int, code: str
) -> None:
    sent = {**token(bob), **headers} if "Authorization" not in headers and headers else headers
    stream = web.stream(sent)
    assert (stream.status, stream.body()["error"]) == (status, code)


def test_a_player_holds_a_bounded_number_of_streams(web: Web, bob: User) -> None:
    headers = token(bob)
    first, second = web.stream(headers), web.stream(headers)
    third = web.stream(headers)
    assert (first.status, second.status, third.status) == (200, 200, 429)
    assert third.body()["error"] == "TOO_MANY_STREAMS"
    first.close()  # a client that goes frees its place
    for _ in range(50):
        again = web.stream(headers)
        if again.status == 200:
            break
        again.conn.close()
    assert again.status == 200
    second.close()
    again.close()


def test_every_web_process_passes_the_event_on(
    web: Web, game: Game, alice: User, bob: User
) -> None:
    with web_server() as other:
        here, there = web.stream({**token(bob), **NDJSON}), other.stream({**token(bob), **NDJSON})
        play_turn(game, alice, bob)
        assert [e["kind"] for e in here.ndjson(2)] == ["move", "your_turn"]
        assert [e["kind"] for e in there.ndjson(2)] == ["move", "your_turn"]
        here.close()
        there.close()


@dataclass
class Signed:
    """Bob's stream signed in by a token, and one signed in by his browser's session."""

    by_token: Stream
    by_session: Stream
    token: ApiToken
    key: str
    session: Client


def bobs_streams(web: Web, bob: User) -> Signed:
    token, key = create_token(bob, "bot")
    session = browser(bob)
    cookie = f"sessionid={session.cookies['sessionid'].value}"
    by_token = web.stream({"Authorization": f"Token {key}", **NDJSON})
    by_session = web.stream({"Cookie": cookie, **NDJSON})
    assert (by_token.status, by_session.status) == (200, 200)
    return Signed(by_token, by_session, token, key, session)


#: How soon a stream must end once what signed it in no longer holds.
SECONDS = 6.0


def test_it_ends_a_stream_whose_token_is_revoked_and_no_other(web: Web, bob: User) -> None:
    signed = bobs_streams(web, bob)
    revoke_token(bob, signed.token.pk)  # in this process, not the one holding the stream
    assert signed.by_token.ends_within(SECONDS) < SECONDS
    with pytest.raises(TimeoutError):
        signed.by_session.ends_within(2)  # the session still holds: its stream goes on
    again = web.stream({"Authorization": f"Token {signed.key}", **NDJSON})
    assert (again.status, again.body()["error"]) == (401, "NOT_AUTHENTICATED")
    signed.by_session.close()


@pytest.mark.parametrize("how", ["logged out", "new password", "session deleted"])
def test_it_ends_a_stream_whose_session_ends(web: Web, bob: User, how: str) -> None:
    signed = bobs_streams(web, bob)
    if how == "logged out":
        signed.session.logout()
    elif how == "new password":
        bob.set_password("a-new-password-123")
        bob.save()
    else:  # the admin, or clearsessions: nobody is told, the periodic check finds it
        Session.objects.filter(session_key=signed.session.session.session_key).delete()
    assert signed.by_session.ends_within(SECONDS) < SECONDS
    with pytest.raises(TimeoutError):
        signed.by_token.ends_within(2)  # a token is no session: its stream goes on
    signed.by_token.close()


@pytest.mark.parametrize("how", ["deleted", "turned off"])
def test_it_ends_every_stream_of_an_account_deleted_or_turned_off(
    web: Web, game: Game, bob: User, how: str
) -> None:
    signed = bobs_streams(web, bob)
    if how == "deleted":
        delete_account(bob)
    else:
        User.objects.filter(pk=bob.pk).update(is_active=False)  # a bulk update: untold
    assert signed.by_token.ends_within(SECONDS) < SECONDS
    assert signed.by_session.ends_within(SECONDS) < SECONDS


def test_a_revocation_reaches_the_streams_at_once_through_redis(
    game: Game, bob: User, transactional_db: None
) -> None:
    # The periodic check set far away: what ends a stream at once is being told.
    slow_check = {"STREAM_CREDENTIAL_SECONDS": "60", "STREAM_HEARTBEAT_SECONDS": "1"}
    with web_server(**slow_check) as here, web_server(**slow_check) as there:
        token, key = create_token(bob, "bot")
        header = {"Authorization": f"Token {key}"}
        mine, theirs = here.stream({**header, **NDJSON}), there.stream({**header, **NDJSON})
        revoked = urllib.request.Request(
            f"{here.url}/api/v1/me/tokens/{token.pk}/", method="DELETE", headers=header
        )
        assert urllib.request.urlopen(revoked, timeout=15).status == 204
        assert mine.ends_within(3) < 3  # the process that served the revocation
        if settings.REDIS_URL:  # every other process, told through Redis
            assert theirs.ends_within(3) < 3
        else:  # without Redis, another process finds out by its periodic check
            with pytest.raises(TimeoutError):
                theirs.ends_within(3)
        theirs.close()


def test_events_are_kept_for_their_retention_period(
    game: Game, alice: User, bob: User, settings: Any
) -> None:
    play_turn(game, alice, bob)
    kept = Event.objects.count()
    assert kept and retention.prune()["events"] == 0
    later = timezone.now() + timedelta(days=settings.EVENT_RETENTION_DAYS, minutes=1)
    assert retention.prune(now=later)["events"] == kept
    assert not Event.objects.exists()
