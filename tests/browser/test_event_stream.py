"""The game page served as in production (uvicorn, ASGI) follows the player's event
stream: the opponent's turn appears at once, not at the next 20-second poll.

The browser suite's smoke test on PostgreSQL and Redis (marker ``postgres``): a page,
a web process and the stream between them, through Redis when the suite has it."""

from __future__ import annotations

import json
import urllib.request

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from accounts.services import create_token
from games.play.dealing import start_game
from tests.service.conftest import mover_and_other, whole_turn
from tests.service.web import web_server

from .conftest import Console, sign_in

pytestmark = [pytest.mark.postgres, pytest.mark.process]


def test_the_opponents_turn_appears_as_soon_as_it_is_played(
    browser: Browser, players: tuple[User, User], console: Console
) -> None:
    alice, bob = players
    game = start_game(alice, bob, seed=5)
    mover, waiting = mover_and_other(game, alice, bob)
    _, key = create_token(mover, "client")
    with web_server() as web:
        context = browser.new_context(base_url=web.url, viewport={"width": 360, "height": 800})
        context.set_default_timeout(15_000)
        page = console.watch(context.new_page())
        sign_in(page, waiting.get_username())
        # The page opens its stream: the server has answered its headers, so it holds it.
        with page.expect_response(lambda r: "/api/v1/stream/events/" in r.url) as opened:
            page.goto(f"/games/{game.pk}/")
        assert opened.value.status == 200
        expect(page.locator(".status")).not_to_contain_text("Your turn")
        # The opponent plays on the site (its page, its client): a whole turn.
        moves = json.dumps({"moves": whole_turn(game)}).encode()
        posted = urllib.request.Request(
            f"{web.url}/api/v1/games/{game.pk}/moves/",
            data=moves,
            headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
        )
        urllib.request.urlopen(posted, timeout=10).read()
        game.refresh_from_db()
        # Well inside the 20 s between polls: only the stream can have told the page.
        expect(page.locator("#game-state")).to_have_attribute(
            "data-version", str(game.version), timeout=10_000
        )
        expect(page.locator(".status")).to_contain_text("Your turn")
        context.close()
    assert console.errors == []
