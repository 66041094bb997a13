"""The three-player game (G3) in a real browser: both opponents on the table, a load
onto the seat after next by clicking, and the phone width."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.engine import to_document
from games.models import Game
from games.play.dealing import start_game
from tests.engine.test_three_player import numbered, three
from tests.stored import last_turn_of, place

from .conftest import Console, assert_fits, player, screenshot, sign_in


def three_player_game(players: tuple[User, User]) -> Game:
    """alice (A) to move: her 9♣ fits both opponents' reserves (B's 8♣, C's 10♣)."""
    carol = player("carol")
    game = start_game(*players, carol, rules="three-player", seed=1)
    table = three(
        H=numbered("KS KH KD KC KS KH KD KC QD"),
        A={"reserve": "4D 9C", "hand": "2H 5S"},
        B={"reserve": "8C", "hand": "3S"},
        C={"reserve": "TC", "hand": "6H"},
    )
    place(game, to_document(table))
    return game


def test_G3_loading_the_seat_after_next_by_clicking(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    game = three_player_game(players)
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("section.seat")).to_have_count(3)
    expect(page.locator("#pile-H9")).to_be_visible()
    screenshot(page, "three-player-1280")
    page.click("#pile-RA")
    expect(page.locator("#pile-RC")).to_have_attribute("data-name", "OR2")
    page.click("#pile-RC")
    expect(page.locator("#pile-RC [data-card='9C']")).to_be_visible()
    page.get_by_role("button", name="Turn a card").click()
    page.get_by_role("button", name="Discard to my waste").click()
    expect(page.locator(".status")).to_contain_text("Waiting for bob")
    game.refresh_from_db()
    assert game.to_move == "B" and last_turn_of(game)["moves"] == ["R-OR2", "T", "C-W"]
    assert console.errors == []


def test_G3_the_table_for_three_fits_a_phone(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    game = three_player_game(players)
    page = new_page(360, 780)
    sign_in(page, "carol")
    page.goto(f"/games/{game.pk}/")
    assert_fits(page)
    screenshot(page, "three-player-360")
    assert console.errors == []
