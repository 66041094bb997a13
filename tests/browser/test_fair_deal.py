"""The fair deal in a real browser (docs/fair-deal.md): the page draws the player's
contribution, and the verify page's own shuffle (``verify.js``, WebCrypto) deals as the
engine does on 1,000 seeds, and catches a secret or a contribution that was changed."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.engine import PRESETS, card_name, deal, fairdeal, family_of
from games.engine.deal import seat_cards
from games.engine.fairdeal import dealt_cards
from games.engine.shuffle import SeedStream
from games.models import Game
from games.pages.replay import deal_rules
from games.play.dealing import start_game
from games.play.services import resign

from .conftest import Console, assert_fits, screenshot, sign_in

#: The presets the page's shuffle covers: all but the three-player game's (its joker).
COVERED = [name for name, rules in PRESETS.items() if not family_of(rules).jokers]


def finished_game(alice: User, bob: User) -> Game:
    game = start_game(alice, bob)
    resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def open_checked(page: Page, game: Game) -> None:
    page.goto(f"/games/{game.pk}/verify/")
    expect(page.locator("#verify-results[data-done=true]")).to_have_count(1)


def test_the_page_s_shuffle_deals_as_the_engine_on_1000_seeds(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    page = new_page()
    open_checked(page, finished_game(*players))
    cases = []
    for n in range(1000):
        # Half the seeds numbers (as scheme 1 drew them), half scheme 2's derived seeds.
        seed = str(n * 7919) if n % 2 else fairdeal.derive_seed(f"{n:064x}", [f"{n:032x}"] * 2)
        name = COVERED[n % len(COVERED)]
        rules = PRESETS[name]
        packs = seat_cards(SeedStream(seed), rules)
        cases.append(
            {
                "seed": seed,
                "rules": deal_rules(rules),
                "packs": [[card_name(c) for c in pack] for pack in packs],
                "deal": dealt_cards(deal(seed, rules)),
            }
        )
    result = page.evaluate(
        """async (cases) => {
            const v = window.rbankVerify, wrong = [];
            const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
            for (const c of cases) {
                const packs = await v.seatCards(c.seed, c.rules);
                if (!same(packs, c.packs)) wrong.push("shuffle " + c.seed);
                if (!same(v.layOut(packs, c.rules), c.deal)) wrong.push("layout " + c.seed);
            }
            return {count: cases.length, wrong: wrong};
        }""",
        cases,
    )
    assert result == {"count": 1000, "wrong": []}
    assert console.errors == []


def test_the_page_recomputes_the_commitment_and_the_seed_with_webcrypto(
    players: tuple[User, User], new_page: Any
) -> None:
    page = new_page()
    open_checked(page, finished_game(*players))
    secret = fairdeal.new_secret()
    given = [fairdeal.new_contribution(), fairdeal.new_contribution()]
    computed = page.evaluate(
        "async ([secret, given]) => [await window.rbankVerify.commitment(secret),"
        " await window.rbankVerify.deriveSeed(secret, given)]",
        [secret, given],
    )
    assert computed == [fairdeal.commitment(secret), fairdeal.derive_seed(secret, given)]


def test_the_verify_page_passes_an_honest_game_and_catches_a_changed_one(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    honest = finished_game(alice, bob)
    for width in (360, 1280):
        page = new_page(width, 900)
        open_checked(page, honest)
        results = page.locator("#verify-results li")
        expect(results).to_have_count(3)
        for item in results.all():
            expect(item).to_have_attribute("data-ok", "true")
            expect(item).to_contain_text("✓")
        if width == 360:
            assert_fits(page, "the verify page")
        screenshot(page, f"verify-{width}")
    # The server changes its story after the game: the page, not the server, says so.
    lied = finished_game(alice, bob)
    Game.objects.filter(pk=lied.pk).update(server_secret=fairdeal.new_secret())
    page = new_page()
    open_checked(page, lied)
    expect(page.locator("#check-commitment")).to_have_attribute("data-ok", "false")
    expect(page.locator("#check-commitment")).to_contain_text("✗")
    changed = finished_game(alice, bob)
    values = [dict(c) for c in changed.contributions]
    values[1]["value"] = "ab" * 16
    Game.objects.filter(pk=changed.pk).update(contributions=values)
    open_checked(page, changed)
    expect(page.locator("#check-commitment")).to_have_attribute("data-ok", "true")
    expect(page.locator("#check-seed")).to_have_attribute("data-ok", "false")
    expect(page.locator("#check-deal")).to_have_attribute("data-ok", "false")
    expect(page.locator("#check-deal")).to_contain_text(re.compile("A reserve|A houses"))
    # A game dealt before the contributions checks by its old commitment.
    old = start_game(alice, bob, seed=8)
    resign(game_id=old.pk, user=alice)
    open_checked(page, old)
    expect(page.locator("#verify-results li")).to_have_count(2)
    expect(page.locator("#check-commitment")).to_have_attribute("data-ok", "true")
    expect(page.locator("#check-deal")).to_have_attribute("data-ok", "true")
    assert console.errors == []


def test_the_lobby_draws_the_player_s_contribution_in_the_browser(
    players: tuple[User, User], new_page: Any
) -> None:
    page = new_page()
    sign_in(page, "alice")
    page.locator("form.computer button").first.click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    (mine, computer) = game.contributions
    assert mine["by"] == "player" and re.fullmatch("[0-9a-f]{32}", mine["value"])
    assert computer["by"] == "server"
    page.goto(f"/games/{game.pk}/verify/")
    expect(page.locator(".contributions")).to_contain_text("drawn by the player")
    expect(page.locator(".contributions")).to_contain_text("drawn by the server")
