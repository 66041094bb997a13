"""Foster's face-down stock (V14) in a real browser: a click on it turns its top card."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game
from games.play.dealing import start_game
from tests.stored import current_turn_of

from .conftest import Console, screenshot, sign_in


def test_V14_a_click_on_the_face_down_stock_turns_its_top_card(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    game = start_game(*players, rules="foster", seed=4)  # alice (A) starts
    assert game.to_move == "A"
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    stock = page.locator("#pile-RA")
    expect(stock.locator(".card.back")).to_have_count(1)  # twelve cards, all face down
    expect(stock.locator("[data-card]")).to_have_count(0)
    expect(page.get_by_role("button", name="Turn a stock card")).to_be_visible()
    stock.click()
    expect(stock.locator("[data-card]")).to_have_count(1)
    expect(page.get_by_role("button", name="Turn a stock card")).to_have_count(0)
    screenshot(page, "foster-stock-turned")
    game = Game.objects.get(pk=game.pk)
    assert current_turn_of(game) == ["TR"]
    assert console.errors == []


def test_V14_each_seat_shows_how_often_its_waste_became_a_hand(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    game = start_game(*players, rules="foster", seed=4)
    page = new_page(1280)
    sign_in(page, "bob")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("section.seat .who")).to_have_count(2)
    for who in page.locator("section.seat .who").all():
        expect(who).to_contain_text("waste turned into a hand 0 times")
    assert console.errors == []
