"""Every page checked by axe-core (the copy axe-playwright-python ships) in the browser:
in light and dark, in English, French and German, at 360 and 1280 px, with no
violation of any rule axe runs by default (WCAG 2.2 A and AA, and its best practices)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from competitions.models import Competition
from competitions.services.entering import Terms, create_competition, enter
from games.archive import months
from games.models import Game
from games.play.dealing import start_game
from games.play.services import resign
from tests.review_scenes import reviewed_game
from tests.service.archive import finished
from tests.service.conftest import play_turn

from .conftest import Console, assert_fits, screenshot, sign_in

AXE = Axe()


def violations(page: Page) -> list[str]:
    """axe's violations on the page as it stands: each rule, its impact and the first
    elements it names."""
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:3])
        for v in found
    ]


def signed_in_pages(game: Game) -> list[str]:
    return [
        "/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/replay/",
        f"/games/{game.pk}/verify/",
        *(
            f"/games/{pk}/verify/"
            for pk in Game.objects.exclude(status="playing").values_list("pk", flat=True)[:1]
        ),
        "/rules/",
        "/account/",
        "/watch/",
        "/leaderboard/",
        "/database/",
        "/players/bob/",
        "/competitions/",
        "/competitions/new/",
        *(f"/competitions/{pk}/" for pk in Competition.objects.values_list("pk", flat=True)),
    ]


SIGNED_OUT_PAGES = ["/", "/accounts/signup/", "/accounts/login/", "/database/"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_every_page_passes_axe(
    browser: Browser,
    live_server: Any,
    playable_game: Game,
    players: tuple[User, User],
    language: str,
    scheme: str,
    settings: Any,
    tmp_path: Path,
) -> None:
    found: dict[str, list[str]] = {}
    alice, bob = players
    # A month of the open database published, with a game of theirs.
    settings.OPEN_DATABASE_DIR = tmp_path / "database"
    finished(bob, alice, datetime(2026, 10, 3, tzinfo=UTC))
    months.write_closed_months(datetime(2026, 11, 2, tzinfo=UTC))
    # A round robin of alice's under way: its standings, crosstable and pairings.
    cup = create_competition(bob, Terms(name="Club cup", format="round_robin", max_players=2))
    over = start_game(alice, bob)  # a finished game's verify page, its check run
    resign(game_id=over.pk, user=bob)
    enter(cup.pk, alice)
    enter(cup.pk, bob)
    # A finished game's replay with its review (a marker on each turn it notes).
    reviewed = f"/games/{reviewed_game(alice, bob).pk}/replay/"
    for width in (360, 1280):
        for signed_in in (False, True):
            context = browser.new_context(
                base_url=live_server.url,
                viewport={"width": width, "height": 800},
                locale=language,
                color_scheme=scheme,  # type: ignore[arg-type]
            )
            page = context.new_page()
            if signed_in:
                sign_in(page, "alice")
            signed_in_urls = [*signed_in_pages(playable_game), reviewed]
            for url in signed_in_urls if signed_in else SIGNED_OUT_PAGES:
                page.goto(url)
                if language == "en":  # each page in both themes at both widths, to look at
                    name = url.strip("/").replace("/", "-").replace("accounts-", "") or "home"
                    screenshot(page, f"page-{name}-{width}-{scheme}")
                problems = violations(page)
                if problems:
                    found[f"{url} at {width}px"] = problems
            context.close()
    assert found == {}, "\n".join(f"{where}: {p}" for where, ps in found.items() for p in ps)


def test_the_theme_follows_the_system_until_the_player_chooses_one(
    new_page: Any, console: Console, live_server: Any
) -> None:
    page = new_page(360)
    page.emulate_media(color_scheme="dark")
    page.goto("/rules/")
    background = "getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(background)
    switch = page.locator("#theme-switch")
    expect(switch).to_have_text("Theme: as the system")
    switch.click()  # light, whatever the system says
    expect(switch).to_have_text("Theme: light")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    light = page.evaluate(background)
    assert light != dark
    page.reload()  # the choice is kept in this browser
    expect(switch).to_have_text("Theme: light")
    assert page.evaluate(background) == light
    switch.click()
    expect(switch).to_have_text("Theme: dark")
    page.emulate_media(color_scheme="light")
    assert page.evaluate(background) == dark
    switch.click()  # back to the system's, now light
    expect(switch).to_have_text("Theme: as the system")
    assert page.evaluate(background) == light
    assert console.errors == []


def test_a_turn_by_keyboard_keeps_the_focus_and_the_opponents_turn_is_read_out(
    new_page: Any,
    console: Console,
    playable_game: Game,
    players: tuple[User, User],
) -> None:
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{playable_game.pk}/")
    # Keys only: each pile is a button; Enter picks a card up, Enter on a pile puts it.
    for source, destination in (("H1", "F1"), ("RA", "H1")):
        page.locator(f"#pile-{source}").focus()
        page.keyboard.press("Enter")
        expect(page.locator(f"#pile-{destination}")).to_have_class(re.compile(r"\btarget\b"))
        page.locator(f"#pile-{destination}").focus()
        page.keyboard.press("Enter")
        expect(page.locator(f"#pile-{destination} [data-card]").first).to_be_visible()
        # The pile the card went to keeps the focus: the next move starts from there.
        assert page.evaluate("document.activeElement.id") == f"pile-{destination}"
    page.keyboard.press("t")  # turns a card
    expect(page.locator("#pile-CA [data-card='QD']")).to_be_visible()
    discard = page.get_by_role("button", name="Discard to my waste")
    discard.focus()
    page.keyboard.press("Enter")  # the turn passes: the button is gone
    expect(page.locator(".status")).to_contain_text("Waiting for bob")
    assert page.evaluate("document.activeElement.id") == "status"

    play_turn(playable_game, *players)  # bob's turn, seen by the page's stream or poll
    announcer = page.locator("#announcer")
    expect(announcer).to_contain_text("bob played", timeout=30_000)
    expect(announcer).to_contain_text("Your turn")
    assert console.errors == []


def test_a_turn_played_from_the_accessibility_tree_alone(
    new_page: Any, console: Console, playable_game: Game
) -> None:
    """Roles and names only, as a screen reader finds them: no CSS selector, no id."""
    page = new_page(360)
    sign_in(page, "alice")
    page.goto(f"/games/{playable_game.pk}/")

    def pile(name: str) -> Any:
        return page.get_by_role("button", name=re.compile(f"^{re.escape(name)}"))

    pile("House 1: ace of spades").click()
    expect(page.get_by_text("choose where it goes")).to_be_visible()
    pile("Foundation 1").click()
    expect(pile("Foundation 1: ace of spades")).to_be_visible()
    pile("alice's reserve: seven of spades").click()
    pile("House 1").click()
    expect(pile("House 1: seven of spades")).to_be_visible()
    page.get_by_role("button", name="Turn a card").click()
    page.get_by_role("button", name="Discard to my waste").click()
    expect(page.get_by_text("Waiting for bob")).to_be_visible()
    assert console.errors == []


def test_text_twice_as_large_loses_nothing(
    new_page: Any, console: Console, playable_game: Game
) -> None:
    """WCAG 1.4.4: with the text at 200 % the table and its controls still fit the
    screen, and a move is still played."""
    page = new_page(1280, 800)
    sign_in(page, "alice")
    page.goto(f"/games/{playable_game.pk}/")
    page.add_style_tag(content="html { font-size: 200%; }")
    assert_fits(page, "the table at 200 % text", 1280)
    page.get_by_role("button", name=re.compile("^House 1: ace of spades")).click()
    page.get_by_role("button", name=re.compile("^Foundation 1")).click()
    expect(
        page.get_by_role("button", name=re.compile("^Foundation 1: ace of spades"))
    ).to_be_visible()
    assert console.errors == []


def test_against_the_computer_by_keyboard_its_answer_is_read_out(
    new_page: Any, console: Console, players: tuple[User, User]
) -> None:
    """A game against the computer, one keystroke after another: the moves typed in the
    notation, each with Enter; when the turn passes, the computer answers at once and
    the live region reads its turn."""
    page = new_page(1280)
    sign_in(page, "alice")
    page.get_by_role("button", name="Play the computer").first.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("alice v")
    announcer = page.locator("#announcer")
    for _turn in range(2):
        played, tried = 0, set()
        status = page.locator(".status")
        expect(status).to_contain_text(re.compile("Your turn|You lost|You won"), timeout=30_000)
        if page.locator(".status .result").count():
            break  # the game is over (the computer may well have won)
        while page.locator("#legal-moves").count():
            legal: list[str] = page.evaluate(
                "JSON.parse(document.getElementById('legal-moves').textContent)"
            )
            # Up first, then the reserve, then other moves (each once a turn), then turn
            # and discard.
            up = [m for m in legal if "-F" in m]
            others = sorted(
                (m for m in legal if m not in ("T", "C-W", "E") and m not in tried),
                key=lambda m: not m.startswith("R-"),
            )
            ends = [m for m in ("C-W", "T", "E") if m in legal]
            move = (up or (others if others and (played < 3 or not ends) else ends))[0]
            tried.add(move)
            box = page.get_by_label("Or type moves in the notation")
            box.focus()
            page.keyboard.type(move)
            expect(box).to_have_value(move)
            page.keyboard.press("Enter")
            played += 1
            # The table comes back: the box empty (played) or a refusal (kept).
            page.wait_for_function(
                "() => { const box = document.getElementById('moves-input');"
                " return !box || box.value === '' || document.getElementById('refusal'); }"
            )
            if page.locator("#refusal").count():
                raise AssertionError(page.locator("#refusal").inner_text())
            if move in ("C-W", "E"):
                break  # the turn has passed
        # The computer has answered: its turn is read out, and then whose turn it is.
        expect(announcer).to_contain_text(" played ")
        expect(announcer).to_contain_text(re.compile("Your turn|You lost|You won"))
        announcer.evaluate("node => { node.textContent = ''; }")
    assert console.errors == []
