"""Watching a game in a real browser (docs/spectators.md): the list of games being
played, a spectator's table at 360 px and 1280 px (only the cards face up for everyone,
no form), brought up to date by its poll."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.models import Game
from games.play.dealing import start_game
from tests.hidden_cards import assert_hides
from tests.service.conftest import play_turn
from tests.stored import position_of

from .conftest import Console, assert_fits, screenshot


def drawn_cards(page: Page) -> list[str]:
    codes: list[str] = page.locator("#game [data-card]").evaluate_all(
        "cards => cards.map(card => card.dataset.card)"
    )
    return codes


def test_a_spectators_table_at_360_and_1280(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    for _ in range(4):
        play_turn(game, alice, bob)
    private = start_game(bob, alice, seed=3)
    Game.objects.filter(pk=private.pk).update(public=False)

    for width, height in ((360, 780), (1280, 900)):
        page = new_page(width, height)
        # The table as it stands, not the last turn being played out on it.
        page.emulate_media(reduced_motion="reduce")
        page.goto("/watch/")
        expect(page.get_by_role("heading", name="Games being played")).to_be_visible()
        expect(page.locator(".watch-list li")).to_have_count(1)  # not the private one
        if width == 360:
            assert_fits(page, "the list of games being played")
            screenshot(page, "watch-list-360")
        page.get_by_role("link", name="alice v bob").click()
        page.wait_for_url(f"**/games/{game.pk}/")
        expect(page.locator(".status")).to_contain_text("to move, by")
        expect(page.locator("#talk")).to_contain_text("shown once the game is over")
        # Nothing to act with; the last turn's playback controls act on the page only.
        assert (
            page.locator("#game form, #game button:not(#playback *), #game textarea").count() == 0
        )
        assert_hides(drawn_cards(page), position_of(game))
        assert page.locator(".seat.mine").count() == 0  # nobody's seat is the viewer's
        if width == 360:
            assert_fits(page, "the spectator's table")
        screenshot(page, f"watch-{width}")
    assert console.errors == []


def test_a_spectators_page_follows_the_game_by_its_poll(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    page = new_page(1280)
    page.clock.install()  # the poll's 20 s pass when the test says so
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game-state")).to_have_attribute("data-version", str(game.version))
    moves = play_turn(game, alice, bob)
    page.clock.fast_forward(21_000)
    expect(page.locator("#game-state")).to_have_attribute("data-version", str(game.version))
    expect(page.locator(".last-turn code")).to_have_text(moves)
    assert_hides(drawn_cards(page), position_of(game))
    assert re.search(r"bob to move", page.locator(".status").inner_text())
    assert console.errors == []
