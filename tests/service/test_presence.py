"""Who is looking at a game, and the "your turn" e-mails it spares (docs/notifications.md):
a player whose page of the game was served, polled, or held its event stream open in
the last PRESENCE_SECONDS gets no "your turn" e-mail for it; a game against the computer
sends none unless the player asks for them."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from accounts.services import profile_of, update_profile
from games.api.stream import FORMATS, SSE, flow, watched_game
from games.feed.stream import Stream
from games.feed.stream_auth import Credential
from games.models import Game, Notification
from games.play import presence
from games.play.services import play_moves

from .conftest import browser, client_for, play_turn, whole_turn
from .smtp import Inbox, smtp_inbox

pytestmark = pytest.mark.django_db
__all__ = ["smtp_inbox"]


def your_turns(user: User) -> list[str]:
    """The statuses of ``user``'s "your turn" e-mails, oldest first."""
    rows = Notification.objects.filter(user=user, kind="your_turn").order_by("pk")
    return list(rows.values_list("status", flat=True))


@override_settings(PRESENCE_SECONDS=3)
def test_a_player_looking_at_the_game_gets_no_your_turn_email(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Any
) -> None:
    assert game.to_move == "A"
    assert browser(bob).get(f"/games/{game.pk}/").status_code == 200  # bob looks
    run(play_turn, game, alice, bob)
    assert your_turns(bob) == ["outdated"]  # he sees the turn come on the page
    assert smtp_inbox.to(bob.email) == []
    time.sleep(3.2)  # bob has gone: PRESENCE_SECONDS without a look
    run(play_turn, game, alice, bob)
    assert your_turns(alice) == ["sent"] and len(smtp_inbox.to(alice.email)) == 1
    run(play_turn, game, alice, bob)
    assert your_turns(bob) == ["outdated", "sent"] and len(smtp_inbox.to(bob.email)) == 1


@override_settings(PRESENCE_SECONDS=1)
def test_the_idle_poll_says_the_player_is_looking_without_a_query(
    game: Game, bob: User, django_assert_num_queries: Any
) -> None:
    client = browser(bob)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    time.sleep(1.2)
    assert not presence.is_present(bob.pk, game.pk)
    with django_assert_num_queries(0):
        stamp = {"version": game.version, "messages": game.message_count}  # a player's poll
        poll = client.get(f"/games/{game.pk}/table/", stamp)
        assert poll.status_code == 204
    assert presence.is_present(bob.pk, game.pk)


def test_a_player_who_plays_by_mail_gets_the_email_while_looking(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Any
) -> None:
    """For a player who plays by mail the e-mail is the game: it goes all the same."""
    update_profile(bob, {"play_by_mail": True})
    assert browser(bob).get(f"/games/{game.pk}/").status_code == 200
    run(play_turn, game, alice, bob)
    assert your_turns(bob) == ["sent"] and len(smtp_inbox.to(bob.email)) == 1


def test_a_stream_from_the_game_page_says_its_player_is_looking(game: Game, bob: User) -> None:
    """While the page's stream is open, its player stays present: marked at once, and
    again every third of PRESENCE_SECONDS."""

    async def read() -> tuple[bool, bool]:
        stream = Stream(Credential(bob.pk))
        events = flow(stream, None, FORMATS[SSE], looking=(bob.pk, game.pk))
        assert await anext(events) == FORMATS[SSE].preamble
        assert await anext(events) == FORMATS[SSE].heartbeat
        first = presence.is_present(bob.pk, game.pk)
        await asyncio.sleep(1.5)  # the mark (1.5 s) has lapsed; the stream marks again:
        assert await anext(events) == FORMATS[SSE].heartbeat
        again = presence.is_present(bob.pk, game.pk)
        await events.aclose()
        return first, again

    with override_settings(PRESENCE_SECONDS=1.5, STREAM_HEARTBEAT_SECONDS=0.05):
        assert not presence.is_present(bob.pk, game.pk)
        # A thread of its own: a browser test's event loop may hold this one.
        with ThreadPoolExecutor(1) as thread:
            assert thread.submit(asyncio.run, read()).result() == (True, True)


def test_the_game_page_opens_its_stream_for_its_game(rf: Any) -> None:
    assert watched_game(rf.get("/?game=12")) == 12
    assert watched_game(rf.get("/")) is None
    for wrong in ("x", "0", "-3", "9" * 30, "１２"):
        with pytest.raises(ValueError):
            watched_game(rf.get("/", {"game": wrong}))


def human_turn(game: Game, human: User) -> None:
    game.refresh_from_db()
    play_moves(game_id=game.pk, user=human, moves=whole_turn(game))


def turn_emails(inbox: Inbox, user: User) -> list[Any]:
    return [m for m in inbox.to(user.email) if str(m["Subject"]).startswith("Your turn")]


def test_a_game_against_the_computer_sends_no_your_turn_unless_asked(
    alice: User, smtp_inbox: Inbox, run: Any
) -> None:
    challenge = {"opponent": "computer-easy", "rules": "pagat"}
    response = run(client_for(alice).post, "/api/v1/challenges/", challenge, format="json")
    assert response.status_code == 201, response.json()
    game = Game.objects.get()
    for _ in range(3):  # the computer answers each turn at once (its task runs eagerly)
        run(human_turn, game, alice)
    game.refresh_from_db()
    assert game.status == "playing" and game.ply > 6
    assert your_turns(alice) == [] and turn_emails(smtp_inbox, alice) == []
    # Asked for on the account's API: each turn is e-mailed again (she is not looking).
    answer = client_for(alice).patch("/api/v1/me/", {"computer_turn_emails": True}, format="json")
    assert answer.status_code == 200 and answer.json()["computer_turn_emails"] is True
    assert profile_of(alice).computer_turn_emails
    run(human_turn, game, alice)
    assert your_turns(alice) == ["sent"] and len(turn_emails(smtp_inbox, alice)) == 1


def test_the_account_page_shows_and_saves_the_computer_preference(alice: User) -> None:
    client = browser(alice)
    page = client.get("/account/")
    assert 'name="computer_turn_emails"' in page.text
    form = page.context["form"]
    data = {name: value for name, value in form.initial.items() if value not in (None, False)}
    data |= {f"notify_{k}": v for k, v in profile_of(alice).notifications.items()}
    data |= {"reminder_hours": "24, 2", "computer_turn_emails": "on"}
    assert client.post("/account/", data).status_code == 302
    assert profile_of(alice).computer_turn_emails
    assert 'id="id_computer_turn_emails" checked>' in client.get("/account/").text
