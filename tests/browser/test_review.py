"""The review on the replay page, in the browser: a marker in words on the turns it
notes, the better line on request (a disclosure, by mouse or keyboard), axe-clean at
both widths in both themes."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.review_scenes import reviewed_game

from .conftest import Console, assert_fits, screenshot, sign_in
from .test_accessibility import violations


@pytest.mark.parametrize("width", [360, 1280])
def test_the_replay_shows_the_review_and_the_better_line_on_request(
    new_page: Any, console: Console, players: tuple[User, User], width: int
) -> None:
    game = reviewed_game(*players)
    page = new_page(width)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/replay/")
    review = page.locator("#review")
    expect(review.get_by_role("heading", name="Review")).to_be_visible()
    expect(review.locator(".review-players li")).to_have_count(2)
    expect(review.locator(".review-players")).to_contain_text("accuracy")
    first = page.locator("#review-turn-1")
    expect(first).to_contain_text("compulsory move missed")  # words, not a colour alone
    expect(page.locator("#review-turn-2")).to_contain_text("Stop! not called")
    marker = page.locator(".movelist a.review-marks").first
    expect(marker).to_contain_text("compulsory move missed")
    marker.click()
    assert page.url.endswith("#review-turn-1")
    line = first.locator("details.review-line")
    expect(line.locator("ul")).to_be_hidden()
    summary = line.get_by_text("Show the better line")
    summary.focus()
    page.keyboard.press("Enter")  # a disclosure opens by keyboard
    expect(line.locator("ul")).to_be_visible()
    expect(line.locator("ul")).to_contain_text("the strong player")
    assert_fits(page, "the replay with its review", width if width == 360 else 1280)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert violations(page) == [], scheme
    screenshot(page, f"replay-review-{width}")
    assert console.errors == []
