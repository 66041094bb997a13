"""Every form of every page, audited in the browser: no control's name or id may hide
a property of its form (a button named ``action`` turns ``form.action`` into a
RadioNodeList, so a script posting to ``form.action`` posts to
``/games/1/[object RadioNodeList]``), and no id may appear twice on a page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page

from games.lobby.challenges import create_challenge
from games.play.dealing import start_game
from games.play.services import resign, write_message
from games.play.stalemate import offer_stalemate
from tests.stop_scenes import classic_game

from .conftest import Console, sign_in

#: The clashes on the page: a form control whose name or id is also a property of an
#: empty form, and ids used more than once.
CLASHES = """() => {
  const blank = document.createElement("form");
  const found = [];
  for (const form of document.forms) {
    const where = form.getAttribute("action") || location.pathname;
    for (const control of form.elements) {
      for (const key of [control.name, control.id]) {
        if (key && key in blank) found.push(`${where}: ${control.tagName.toLowerCase()} ${key}`);
      }
    }
  }
  const ids = [...document.querySelectorAll("[id]")].map((element) => element.id);
  for (const id of new Set(ids)) {
    if (ids.indexOf(id) !== ids.lastIndexOf(id)) found.push(`the id ${id} twice`);
  }
  return found;
}"""


def clashes(page: Page, paths: list[str]) -> list[str]:
    found = []
    for path in paths:
        response = page.goto(path)
        assert response is not None and response.status < 400, path
        found += [f"{path} -> {clash}" for clash in page.evaluate(CLASHES)]
    return found


def test_it_finds_no_control_hiding_a_form_property_on_any_page(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    # Every form a game page can show: bob's classic turn to stop, his stalemate
    # offer to answer, alice's moves, resignation, the messages (each with its report
    # form); a finished game; the lobby's challenges in every state; a player's page
    # (block, report) and the blocks page.
    game, offender, caller, _ = classic_game(alice, bob, [None, "S2"])
    offer_stalemate(game_id=game.pk, user=offender)
    for writer in (alice, bob):
        write_message(game_id=game.pk, user=writer, text=f"a word from {writer}")
    done = start_game(alice, bob, seed=3)
    resign(game_id=done.pk, user=bob)
    write_message(game_id=done.pk, user=alice, text="good game")
    create_challenge(bob, opponent="alice")
    create_challenge(alice, opponent="bob")
    invitation = create_challenge(bob, email="dora@example.com")
    signed_in = [
        "/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/replay/",
        f"/games/{done.pk}/",
        f"/games/{done.pk}/replay/",
        "/rules/",
        "/account/",
        "/account/tokens/",
        "/account/vacation/",
        "/account/blocks/",
        f"/players/{offender.get_username()}/",
        "/watch/",
        "/accounts/email/",
        "/accounts/password/change/",
        f"/invitations/{invitation.token}/",
    ]
    page = new_page(1280)
    sign_in(page, caller.get_username())
    assert page.locator("#stop-form").count() == 0  # the lobby; the game page has it:
    page.goto(f"/games/{game.pk}/")
    assert page.locator("#stop-form").count() == 1
    assert page.locator("#stalemate-offer form").count() == 2  # agree (a box to tick), decline
    found = clashes(page, signed_in)

    visitor = new_page(1280)
    signed_out = [
        "/",
        "/watch/",
        f"/games/{game.pk}/",  # a spectator's table
        f"/games/{done.pk}/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        f"/invitations/{invitation.token}/",
    ]
    found += clashes(visitor, signed_out)
    assert found == [], "\n".join(found)
    assert console.errors == []
