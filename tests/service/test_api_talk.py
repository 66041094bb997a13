"""Messages at a game through the API (docs/messages.md): ``GET`` and ``POST
/api/v1/games/{id}/messages/``, a message beside the moves, who reads what, and the
events that tell the others. The services' side is test_talk.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from accounts.conduct import block
from games import talk
from games.models import Event, Game, Message
from games.play.services import resign, write_message

from .conftest import client_for, mover_and_other, play_turn, whole_turn

pytestmark = pytest.mark.django_db

#: A message a hostile player could write: the API must give it back as it came.
HOSTILE = '<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)>'


def messages_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/messages/"


def write(user: User | None, game: Game, text: Any, **headers: Any) -> Any:
    return client_for(user).post(messages_url(game), {"text": text}, format="json", **headers)


def read(user: User | None, game: Game, **params: Any) -> Any:
    response = client_for(user).get(messages_url(game), params)
    assert response.status_code == 200, response.json()
    return response.json()


def texts(user: User | None, game: Game) -> list[str]:
    return [m["text"] for m in read(user, game)["results"]]


def play_with_message(game: Game, alice: User, bob: User, message: Any) -> Any:
    """The seat to move posts a whole turn with ``message``."""
    game.refresh_from_db()
    mover, _ = mover_and_other(game, alice, bob)
    return client_for(mover).post(
        f"/api/v1/games/{game.pk}/moves/",
        {"moves": whole_turn(game), "message": message},
        format="json",
    )


def test_a_player_writes_and_every_player_reads_it(game: Game, alice: User, bob: User) -> None:
    response = write(bob, game, "Good luck!")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == {"id", "seat", "author", "text", "ply", "created_at"}
    assert (body["seat"], body["author"], body["text"], body["ply"]) == (
        "B",
        "bob",
        "Good luck!",
        0,
    )
    assert body["id"] == Message.objects.get().pk
    for reader in (alice, bob):
        page = read(reader, game)
        assert page["count"] == 1 and page["results"] == [body]


def test_the_list_is_oldest_first_a_page_at_a_time(game: Game, alice: User, bob: User) -> None:
    for user, text in ((alice, "one"), (bob, "two"), (alice, "three")):
        assert write(user, game, text).status_code == 201
    assert texts(bob, game) == ["one", "two", "three"]
    first = read(bob, game, limit=2)
    assert first["count"] == 3 and [m["text"] for m in first["results"]] == ["one", "two"]
    assert [m["text"] for m in read(bob, game, limit=2, offset=2)["results"]] == ["three"]


def test_a_message_leaves_the_version_and_takes_no_if_match(
    game: Game, alice: User, bob: User
) -> None:
    before = client_for(alice).get(f"/api/v1/games/{game.pk}/")["ETag"]
    # A stale If-Match does not refuse a message: a message is no move.
    assert write(alice, game, "hello", HTTP_IF_MATCH='"99"').status_code == 201
    assert client_for(alice).get(f"/api/v1/games/{game.pk}/")["ETag"] == before
    assert write(alice, game, "hello", HTTP_IF_MATCH="junk").status_code == 400


def test_the_others_get_a_message_event_at_once(game: Game, alice: User, bob: User) -> None:
    body = write(bob, game, "Away until Monday").json()
    (event,) = Event.objects.filter(user=alice, kind="message")
    assert event.data["message"] == body and event.data["game"] == game.pk
    assert not Event.objects.filter(user=bob, kind="message").exists()


def test_a_message_with_the_moves_goes_with_the_turn(game: Game, alice: User, bob: User) -> None:
    mover, other = mover_and_other(game, alice, bob)
    response = play_with_message(game, alice, bob, "Nice reserve play!")
    assert response.status_code == 200, response.json()
    game.refresh_from_db()
    (message,) = read(other, game)["results"]
    assert message["text"] == "Nice reserve play!" and message["author"] == mover.username
    assert message["ply"] == response.json()["ply"] == game.ply  # after the turn's moves
    your_turn = Event.objects.filter(user=other, kind="your_turn").latest("pk")
    assert your_turn.data["messages"] == [message]


@pytest.mark.parametrize(
    ("message", "code"),
    [("  \t\r\n ", "EMPTY_MESSAGE"), ("", "EMPTY_MESSAGE"), ("x" * 501, "MESSAGE_TOO_LONG")],
)
def test_moves_whose_message_is_refused_are_not_played(
    game: Game, alice: User, bob: User, message: str, code: str
) -> None:
    response = play_with_message(game, alice, bob, message)
    assert response.status_code == 400 and response.json()["error"] == code
    game.refresh_from_db()
    assert (game.version, game.ply) == (1, 0)
    assert not Message.objects.exists()


def test_a_message_with_refused_moves_is_not_kept(game: Game, alice: User, bob: User) -> None:
    _, other = mover_and_other(game, alice, bob)
    response = client_for(other).post(
        f"/api/v1/games/{game.pk}/moves/", {"moves": ["T"], "message": "hi"}, format="json"
    )
    assert response.status_code == 409 and response.json()["error"] == "NOT_YOUR_TURN"
    assert not Message.objects.exists()


def test_moves_whose_message_is_over_the_rate_are_not_played(
    game: Game, alice: User, bob: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    for n in range(talk.PER_MINUTE):
        assert write(mover, game, f"note {n}").status_code == 201
    response = play_with_message(game, alice, bob, "one more")
    assert response.status_code == 429 and response.json()["error"] == "TOO_MANY_MESSAGES"
    game.refresh_from_db()
    assert game.ply == 0 and Message.objects.count() == talk.PER_MINUTE


@pytest.mark.parametrize("text", ["", " ", "\n\n\t", "\x00\x07", "\u202e\u2066", "\u3000\xa0"])
def test_an_empty_message_is_refused(game: Game, alice: User, text: str) -> None:
    response = write(alice, game, text)
    assert response.status_code == 400
    assert response.json() == {"error": "EMPTY_MESSAGE", "message": "the message is empty"}
    assert not Message.objects.exists()


def test_a_message_too_long_is_refused_whole(game: Game, alice: User) -> None:
    response = write(alice, game, "x" * (talk.MAX_LENGTH + 1))
    assert response.status_code == 400
    assert response.json()["error"] == "MESSAGE_TOO_LONG"
    assert response.json()["limit"] == talk.MAX_LENGTH
    assert not Message.objects.exists()
    assert write(alice, game, "x" * talk.MAX_LENGTH).status_code == 201


@pytest.mark.parametrize("text", [12, None, ["hi"], {"text": "hi"}, True])
def test_a_message_that_is_no_string_is_a_bad_request(game: Game, alice: User, text: Any) -> None:
    response = write(alice, game, text)
    assert response.status_code == 400 and response.json()["error"] == "BAD_REQUEST"
    assert "text" in response.json()["message"]


def test_control_characters_are_taken_out_not_refused(game: Game, alice: User) -> None:
    response = write(alice, game, "a\x00b\r\nsecond\u202e line\t ")
    assert response.status_code == 201, response.json()
    assert response.json()["text"] == "ab\nsecond line"


def test_markup_comes_back_verbatim_as_json_text(game: Game, alice: User, bob: User) -> None:
    response = write(alice, game, HOSTILE)
    assert response.status_code == 201 and response.json()["text"] == HOSTILE
    listed = client_for(bob).get(messages_url(game))
    assert listed["Content-Type"] == "application/json"
    assert listed.json()["results"][0]["text"] == HOSTILE
    export = client_for(bob).get(f"/api/v1/games/{game.pk}/export/")
    assert export["Content-Type"].startswith("text/plain")
    assert f"{{A: {HOSTILE}}}" in export.content.decode()


def test_at_most_five_messages_a_minute(game: Game, alice: User) -> None:
    for n in range(talk.PER_MINUTE):
        assert write(alice, game, f"message {n}").status_code == 201
    response = write(alice, game, "one too many")
    assert response.status_code == 429 and response.json()["error"] == "TOO_MANY_MESSAGES"
    assert Message.objects.count() == talk.PER_MINUTE


def test_a_retry_with_its_idempotency_key_writes_once(game: Game, alice: User) -> None:
    first = write(alice, game, "only once", HTTP_IDEMPOTENCY_KEY="k-1")
    again = write(alice, game, "only once", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Message.objects.count() == 1
    reused = write(alice, game, "another", HTTP_IDEMPOTENCY_KEY="k-1")
    assert reused.status_code == 409 and reused.json()["error"] == "IDEMPOTENCY_KEY_REUSED"


def test_a_player_may_write_after_the_game_is_over(game: Game, alice: User, bob: User) -> None:
    resign(game_id=game.pk, user=alice)
    assert write(alice, game, "Good game!").status_code == 201
    assert texts(bob, game) == ["Good game!"]


def test_a_non_player_cannot_write(game: Game, charlie: User) -> None:
    for public in (True, False):
        Game.objects.filter(pk=game.pk).update(public=public)
        response = write(charlie, game, "hello")
        assert response.status_code == 404 and response.json()["error"] == "NOT_FOUND"
    assert write(None, game, "hello").status_code in (401, 403)
    missing = client_for(charlie).post(
        "/api/v1/games/999999/messages/", {"text": "hello"}, format="json"
    )
    assert missing.status_code == 404
    assert not Message.objects.exists()


def test_spectators_read_no_message_while_playing_and_all_once_over(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    write(alice, game, "good luck")
    play_with_message(game, alice, bob, "with my turn")
    for spectator in (charlie, None):
        assert read(spectator, game) == {"count": 0, "next": None, "previous": None, "results": []}
        export = client_for(spectator).get(f"/api/v1/games/{game.pk}/export/").content.decode()
        assert "good luck" not in export and "with my turn" not in export
    resign(game_id=game.pk, user=bob)
    write(bob, game, "well played")
    for spectator in (charlie, None):
        assert texts(spectator, game) == ["good luck", "with my turn", "well played"]
        export = client_for(spectator).get(f"/api/v1/games/{game.pk}/export/").content.decode()
        assert "{A: good luck}" in export and "well played}" in export


def test_a_private_games_messages_are_404_to_a_stranger(
    game: Game, alice: User, charlie: User
) -> None:
    write(alice, game, "just us")
    Game.objects.filter(pk=game.pk).update(public=False)
    resign(game_id=game.pk, user=alice)  # over, and still private
    for stranger in (charlie, None):
        response = client_for(stranger).get(messages_url(game))
        assert response.status_code == 404 and response.json()["error"] == "NOT_FOUND"


def test_a_blocker_does_not_read_a_blocked_writers_messages(
    game: Game, alice: User, bob: User
) -> None:
    write(bob, game, "before the block")
    write(alice, game, "from alice")
    block(alice, "bob")
    # The blocked player's message is accepted as ever: nothing tells them.
    assert write(bob, game, "after the block").status_code == 201
    assert texts(alice, game) == ["from alice"]
    assert texts(bob, game) == ["before the block", "from alice", "after the block"]
    export = client_for(alice).get(f"/api/v1/games/{game.pk}/export/").content.decode()
    assert "block}" not in export and "{A: from alice}" in export
    # Only the message from before the block was told to her.
    (told,) = Event.objects.filter(user=alice, kind="message")
    assert told.data["message"]["text"] == "before the block"


def test_a_blocker_gets_no_blocked_writers_message_with_the_turn(
    game: Game, alice: User, bob: User
) -> None:
    mover, other = mover_and_other(game, alice, bob)
    block(other, mover.username)
    assert play_with_message(game, alice, bob, "with the turn").status_code == 200
    your_turn = Event.objects.filter(user=other, kind="your_turn").latest("pk")
    assert your_turn.data["messages"] == []
    assert texts(other, game) == []


def test_the_messages_are_listed_as_the_writes_answered(game: Game, alice: User, bob: User) -> None:
    written = [write(alice, game, "first").json()]
    play_turn(game, alice, bob)
    written.append(write(bob, game, "second").json())
    assert read(alice, game)["results"] == written
    assert written[1]["ply"] == game.ply > written[0]["ply"] == 0
    assert [m.pk for m in Message.objects.order_by("pk")] == [m["id"] for m in written]


def test_the_service_and_the_api_write_the_same_message(game: Game, alice: User, bob: User) -> None:
    message = write_message(game_id=game.pk, user=alice, text="by the service")
    (listed,) = read(bob, game)["results"]
    assert listed == talk.as_data(message, game)
