"""A competition in a real browser: made from the form, entered by two players, its page
(standings, the round's pairing with a link to its game) at 360 px and 1280 px."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from .conftest import Console, assert_fits, screenshot, sign_in


def test_a_competition_made_entered_and_started_in_the_browser(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    page = new_page(1280, 900)
    sign_in(page, alice.get_username())
    page.get_by_role("link", name="Competitions").first.click()
    page.get_by_role("link", name="Make a competition").click()
    # Only the chosen format's part of the form shows.
    expect(page.get_by_label("Rounds (Swiss)")).to_be_visible()
    expect(page.get_by_label("League: players per division")).to_be_hidden()
    page.get_by_label("Format").select_option("league")
    expect(page.get_by_label("League: players per division")).to_be_visible()
    expect(page.get_by_label("Rounds (Swiss)")).to_be_hidden()
    page.get_by_label("Format").select_option("swiss")
    page.get_by_label("Name").fill("Browser Swiss")
    page.get_by_label("Rounds (Swiss)").fill("2")
    page.get_by_label("Most players").fill("2")
    page.get_by_role("button", name="Open it for entry").click()
    expect(page.get_by_role("heading", name="Browser Swiss")).to_be_visible()
    page.get_by_role("button", name="Enter").click()
    expect(page.get_by_text("You have entered.")).to_be_visible()
    url = page.url

    other = new_page(360, 780)
    sign_in(other, bob.get_username())
    other.goto(url)
    other.get_by_role("button", name="Enter").click()
    expect(other.get_by_role("table", name="Standings")).to_be_visible()
    expect(other.get_by_role("heading", name="Round 1")).to_be_visible()
    assert_fits(other, "a competition's page")
    screenshot(other, "competition-360")
    other.locator("table.pairings a").first.click()
    other.wait_for_url("**/games/*/")
    page.goto(url)
    screenshot(page, "competition-1280")
    assert console.errors == []
