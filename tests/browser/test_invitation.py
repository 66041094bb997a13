"""An e-mail invitation followed by a newcomer, in a real browser: the sign-up page says
who invites them and has their address filled in; signing up with it needs no
confirmation, and the invitation is one click away."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.lobby.challenges import create_challenge
from games.models import Game

from .conftest import PASSWORD, Console, assert_fits, screenshot


def test_it_takes_a_newcomer_from_the_invitation_to_the_game(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, _ = players
    challenge = create_challenge(alice, email="dora@example.com", match_target=100)
    phone = new_page(360, 780)
    phone.goto(f"/invitations/{challenge.token}/")
    expect(phone.locator("#invitation")).to_contain_text("alice invites you to a game")
    assert_fits(phone, "the sign-up page")
    screenshot(phone, "invitation-signup-360")

    page = new_page(1280)
    page.goto(f"/invitations/{challenge.token}/")
    expect(page.locator("#invitation-h")).to_have_text(
        "alice invites you to a game of Russian Bank"
    )
    expect(page.locator("#invitation")).to_contain_text("A match to 100 points")
    email = page.locator("input[name=email]")
    expect(email).to_have_value("dora@example.com")
    screenshot(page, "invitation-signup-1280")
    page.fill("input[name=username]", "dora")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit]").click()

    # Signed in at once, back on the invitation: no e-mail to confirm first.
    page.wait_for_url(f"**/invitations/{challenge.token}/")
    page.get_by_role("button", name="Accept and play").click()
    page.wait_for_url("**/games/*/")
    expect(page.locator(".table-wrap")).to_be_visible()
    game = Game.objects.get()
    assert game.user_at(1).get_username() == "dora"
    assert EmailAddress.objects.get(user=game.user_at(1)).verified
    assert console.errors == []
