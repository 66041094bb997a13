"""Answering a stalemate offer in a real browser, with the page's script on: bob
offers through the service (as the API does), alice answers on the game page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game
from games.play.dealing import start_game
from games.play.services import resign
from games.play.stalemate import answer_stalemate, offer_stalemate
from tests.stored import UNEVEN_COUNTS, place

from .conftest import Console, screenshot, sign_in


def offered_game(players: tuple[User, User]) -> Game:
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    offer_stalemate(game_id=game.pk, user=bob)
    return game


def test_it_accepts_a_stalemate_offer_in_place(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    game = offered_game(players)
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    offer = page.locator("#stalemate-offer")
    expect(offer).to_contain_text(
        "bob offers to end the game now, scored by the counts: 0-0, a draw."
    )
    screenshot(page, "stalemate-offer-1280")
    agree = page.get_by_role("button", name="Agree", exact=True)
    agree.click()  # not confirmed: the browser asks for the box first, nothing is sent
    game.refresh_from_db()
    assert game.status == "playing" and game.stalemate_offer == "B"
    page.get_by_label("I accept this result").check()
    agree.click()
    expect(page.locator(".result")).to_contain_text("Draw: stalemate agreed · 0-0")
    expect(page.locator("#stalemate-offer")).to_have_count(0)
    assert page.url.endswith(f"/games/{game.pk}/")  # swapped in place, no navigation
    game.refresh_from_db()
    assert (game.status, game.ending, game.stalemate_offer) == ("stalemate", "agreed", "")
    assert console.errors == []


def test_it_declines_a_stalemate_offer_in_place(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    game = offered_game(players)
    page = new_page(360, 780)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    screenshot(page, "stalemate-offer-360")
    page.get_by_role("button", name="Decline").click()
    expect(page.locator("#stalemate-offer")).to_have_count(0)
    expect(page.locator(".status")).to_contain_text("Your turn")
    assert page.url.endswith(f"/games/{game.pk}/")
    game.refresh_from_db()
    assert (game.status, game.stalemate_offer) == ("playing", "")
    assert console.errors == []


def test_the_game_forms_go_when_the_poll_finds_the_game_over(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    """bob waits for alice's move with the page open; alice resigns elsewhere: the page's
    poll brings the result, and no Resign or Offer button is left to answer an error."""
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    page = new_page(1280)
    page.clock.install()  # the poll's 20 s pass when the test says so
    sign_in(page, "bob")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".status")).to_contain_text("Waiting for alice")
    expect(page.get_by_role("button", name="Resign")).to_be_visible()
    expect(page.locator("#stalemate-terms")).to_be_visible()
    resign(game_id=game.pk, user=alice)
    page.clock.fast_forward(21_000)
    expect(page.locator(".result")).to_contain_text("You won")
    expect(page.get_by_role("button", name="Resign")).to_have_count(0)
    expect(page.locator("#stalemate-terms")).to_have_count(0)
    assert console.errors == []


def test_an_offer_seen_by_the_poll_takes_the_offer_button_away(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    page = new_page(1280)
    page.clock.install()
    sign_in(page, "bob")
    page.goto(f"/games/{game.pk}/")
    offer_stalemate(game_id=game.pk, user=alice)
    page.clock.fast_forward(21_000)
    expect(page.locator("#stalemate-offer")).to_contain_text("alice offers")
    expect(page.locator("#stalemate-terms")).to_have_count(0)
    page.get_by_role("button", name="Decline").click()  # no box to tick to decline
    expect(page.locator("#stalemate-offer")).to_have_count(0)
    expect(page.locator("#stalemate-terms")).to_be_visible()
    assert console.errors == []


def test_an_offer_shows_the_counts_and_the_result_and_asks_to_confirm(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    """Before offering, the player reads each count and what an agreement would give
    them (a loss, here), and ticks a box to say so; the result then reads as a loss."""
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    place(game, UNEVEN_COUNTS)
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    terms = page.locator("#stalemate-terms")
    terms.get_by_text("Offer to end the game now, scored by the counts").click()
    expect(terms).to_contain_text(
        "Counts now (1 for each hand or waste card, 2 for each reserve card): you 6, bob 2."
    )
    expect(terms).to_contain_text(
        "Agreed now, the game ends 0-4: bob has the lower count, so you would lose."
    )
    screenshot(page, "stalemate-terms-1280")
    offer = terms.get_by_role("button", name="Offer", exact=True)
    offer.click()  # the box is not ticked: nothing is sent
    game.refresh_from_db()
    assert game.stalemate_offer == ""
    terms.get_by_label("I accept this result if it is agreed").check()
    offer.click()
    expect(page.locator(".notice")).to_contain_text("You have offered to end the game now")
    game.refresh_from_db()
    assert game.stalemate_offer == "A"
    answer_stalemate(game_id=game.pk, user=bob, accept=True)
    page.reload()
    expect(page.locator(".result")).to_contain_text(
        "You lost: stalemate agreed, bob had the lower count · 0-4"
    )
    assert console.errors == []
