"""Stop! in a real browser: the caller presses Stop! on a move of the opponent's turn."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.stop_scenes import classic_game
from tests.stored import last_turn_of

from .conftest import Console, screenshot, sign_in


def test_a_wrong_call_then_a_stop_by_clicking(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    game, _offender, caller, moves = classic_game(*players, [None, "S2"])
    page = new_page(360, 780)
    sign_in(page, caller.get_username())
    page.goto(f"/games/{game.pk}/")
    stop_buttons = page.locator("button.stop")
    expect(stop_buttons).to_have_count(len(moves))
    screenshot(page, "stop-360")

    page.get_by_role("button", name=f"Stop! on move 1, {moves[0]}").click()
    expect(page.locator("#refusal")).to_contain_text("broke no rule")
    expect(page.locator("#stop-help")).to_contain_text("you have made 1")

    page.get_by_role("button", name=f"Stop! on move 2, {moves[1]}").click()
    expect(page.locator("#stopped")).to_contain_text("Stop! was called on move 2")
    expect(page.locator("button.stop")).to_have_count(0)
    expect(page.locator(".status")).to_contain_text("Your turn")
    game.refresh_from_db()
    assert last_turn_of(game)["stopped"] == 2
    assert console.errors == []
