"""The lobby and the account pages in a real browser: challenge, accept, play."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.lobby import rules_catalog
from games.models import Challenge, Game
from games.play.dealing import start_game
from games.play.services import resign

from .conftest import Console, assert_fits, screenshot, sign_in


def open_new_game(page: Page) -> None:
    """The new game is a folded dialog under the games that wait for the player."""
    page.locator("summary", has_text="New game").click()
    expect(page.locator("form.new-game")).to_be_visible()


def test_a_challenge_from_the_lobby_is_accepted_and_opens_the_game(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice_page = new_page(1280)
    sign_in(alice_page, "alice")
    open_new_game(alice_page)
    form = alice_page.locator("form.new-game")
    form.get_by_label("Opponent", exact=True).fill("bob")
    form.get_by_label("Days per turn").fill("2")
    form.get_by_text("More choices").click()  # folded: most challenges need none
    form.get_by_label("Match to (points)").fill("100")
    form.get_by_role("button", name="Send the challenge").click()
    expect(alice_page.locator(".message")).to_contain_text("Challenge sent to bob")
    expect(alice_page.locator("#pending-h")).to_be_visible()

    bob_page = new_page(360, 780)
    sign_in(bob_page, "bob")
    received = bob_page.locator("section[aria-labelledby=received-h]")
    expect(received).to_contain_text("alice invites you to a match to 100 points")
    expect(received).to_contain_text("2 days a turn")
    assert_fits(bob_page, "the lobby")
    screenshot(bob_page, "lobby-360")
    received.get_by_role("button", name="Accept").click()
    bob_page.wait_for_url("**/games/*/")
    expect(bob_page.locator(".table-wrap")).to_be_visible()

    game = Game.objects.get()
    assert Challenge.objects.get().game_id == game.pk
    assert game.days_per_turn == 2 and game.match_id is not None
    # Alice's lobby now lists the game, under her turn or under waiting.
    alice_page.goto("/")
    expect(alice_page.get_by_role("link", name="bob")).to_be_visible()
    screenshot(alice_page, "lobby-1280")
    assert console.errors == []


def test_a_refused_challenge_keeps_what_was_typed(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    page = new_page(1280)
    sign_in(page, "alice")
    open_new_game(page)
    form = page.locator("form.new-game")
    form.get_by_label("Opponent", exact=True).fill("nobody-by-that-name")
    form.get_by_label("Days per turn").fill("5")
    with page.expect_response("**/challenges/new/") as answer:
        form.get_by_role("button", name="Send the challenge").click()
    assert answer.value.status == 400  # the form again, not a 404 page
    expect(page.locator("form.new-game .error")).to_contain_text("no player called")
    screenshot(page, "new-game-refused-1280")
    expect(form.get_by_label("Opponent", exact=True)).to_have_value("nobody-by-that-name")
    expect(form.get_by_label("Days per turn")).to_have_value("5")
    assert not Challenge.objects.exists()
    # The form came back with 400 on purpose: that is the only console line.
    assert all("status of 400" in error for error in console.errors), console.errors


def test_the_account_pages_at_phone_width(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    page = new_page(360, 780)
    sign_in(page, "alice")
    page.get_by_role("link", name="alice").click()
    page.get_by_label("It is my turn").select_option("daily_digest")
    page.get_by_label("Time zone").select_option("Europe/Paris")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".message")).to_contain_text("saved")
    screenshot(page, "account-360")
    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name").fill("my bot")
    page.get_by_role("button", name="Make the token").click()
    expect(page.locator("#token-key")).to_contain_text("rb_")
    for path in ("/account/", "/account/tokens/", "/account/vacation/"):
        page.goto(path)
        assert_fits(page, path)
    alice = players[0]
    alice.profile.refresh_from_db()
    assert alice.profile.notifications["your_turn"] == "daily_digest"
    assert alice.profile.time_zone == "Europe/Paris"
    assert console.errors == []


def test_it_shows_the_bank_fields_only_for_a_time_bank(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    page = new_page(1280)
    sign_in(page, "alice")
    open_new_game(page)
    form = page.locator("form.new-game")
    per_turn = form.get_by_label("Days per turn")
    bank = [
        form.get_by_label("Bank: days at the start"),
        form.get_by_label(re.compile("Bank: days added")),
    ]
    expect(per_turn).to_be_visible()
    for field in bank:
        expect(field).to_be_hidden()
    form.get_by_label("Time control").select_option("bank")
    expect(per_turn).to_be_hidden()
    for field in bank:
        expect(field).to_be_visible()
    bank[0].fill("30")
    form.get_by_label("Opponent", exact=True).fill("bob")
    form.get_by_role("button", name="Send the challenge").click()
    expect(page.locator(".message")).to_contain_text("Challenge sent to bob")
    challenge = Challenge.objects.get()
    assert (challenge.time_control, challenge.bank_initial_days) == ("bank", 30)
    assert console.errors == []


def test_the_rule_options_read_well_on_a_phone_and_a_screen(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    option = next(o for o in rules_catalog.options() if o.name == "own_waste_available")
    for width in (360, 1280):
        page = new_page(width, 800)
        sign_in(page, "alice")
        open_new_game(page)
        page.get_by_text("Rule options: change the chosen rules further").click()
        page.get_by_text("What each set of rules is").click()
        box = page.get_by_label(option.label)
        expect(box).to_be_visible()
        help_text = page.locator("#id_opt_own_waste_available_helptext")
        expect(help_text).to_have_text(option.help)
        expect(box).to_have_attribute("aria-describedby", "id_opt_own_waste_available_helptext")
        # Each line of help wraps inside the page: nothing runs off to the right.
        assert_fits(page, f"the new-game form at {width} px", width)
        right = page.evaluate(
            """() => Math.max(...[...document.querySelectorAll(
                "form.new-game .help, form.new-game dd"
            )].map((e) => e.getBoundingClientRect().right))"""
        )
        assert right <= width
        assert "V1:" not in page.locator("form.new-game").inner_text()
        screenshot(page, f"new-game-options-{width}")
    assert console.errors == []


def test_it_reads_each_result_from_the_players_side(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.score is not None
    won = game.score["A"]
    for name, width, line in (
        ("alice", 360, f"You won: bob resigned · {won}-0"),
        ("bob", 1280, f"You lost: you resigned · 0-{won}"),
    ):
        page = new_page(width, 800)
        sign_in(page, name)
        finished = page.locator("section[aria-labelledby=finished-h]")
        expect(finished.locator(".result")).to_have_text(line)
        assert_fits(page, "the lobby", width)
        screenshot(page, f"lobby-result-{width}")
        finished.get_by_role("link", name="alice v bob").click()
        expect(page.locator(".status .result strong")).to_have_text(line)
        screenshot(page, f"game-result-{width}")
    assert console.errors == []
