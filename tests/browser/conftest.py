"""Browser tests: Playwright driving Debian's Chromium against a live test server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from playwright.sync_api import Browser, ConsoleMessage, Error, Page, sync_playwright

from games.models import Game
from games.play.dealing import start_game
from tests.stored import place

# Playwright's sync API runs an event loop in the test's thread; the ORM calls the
# tests make between browser steps are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

#: Debian's Chromium: `make test` installs it first when it can (scripts/system-deps.sh).
CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
# As root, on a machine with no network: no sandbox, no calls home.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "a-long-test-password"

#: Alice (A) to move, with one move of each kind in reach: H1-F1 (a foundation
#: move), R-H1 (the reserve fills the space), H3-H2 (a house move), T, then C-W.
PLAYABLE_TURN: dict[str, Any] = {
    "format": "rbank-position/1",
    "rules": "pagat",
    "to_move": "A",
    "foundations": [[] for _ in range(8)],
    "houses": [["AS"], ["9D"], ["TS", "8C"], ["KH"], ["5S"], ["QC"], ["3D"], ["JH"]],
    "A": {"reserve": ["4C", "TD", "7S"], "hand": ["2H", "QD"], "waste": [], "turned": None},
    "B": {"reserve": ["6C", "KS"], "hand": ["9H"], "waste": ["3C"], "turned": None},
    "status": "playing",
    "winner": None,
    "score": None,
}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail("no chromium on the PATH: `make test` installs it, or says what to run")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def player(name: str) -> User:
    """A player who can sign in: the e-mail address is verified, as allauth requires."""
    user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def players(transactional_db: None) -> tuple[User, User]:
    return player("alice"), player("bob")


@pytest.fixture
def playable_game(players: tuple[User, User]) -> Game:
    """A game whose table is PLAYABLE_TURN (its log starts there, not at a deal)."""
    game = start_game(*players, seed=1)
    place(game, PLAYABLE_TURN)
    return game


class Console:
    """Every JavaScript error a page reports; a test ends by asserting there were none."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on("console", self._message)
        page.on("pageerror", self._exception)
        return page

    def _message(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def _exception(self, error: Error) -> None:
        self.errors.append(str(error))


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture
def new_page(browser: Browser, live_server: Any, console: Console) -> Iterator[Any]:
    """Pages in fresh browser contexts (one per player), at a given width, with the
    browser's clock in a given time zone."""
    contexts = []

    def make(width: int = 1280, height: int = 900, timezone_id: str = "UTC") -> Page:
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": height},
            timezone_id=timezone_id,
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        return console.watch(context.new_page())

    yield make
    for context in contexts:
        context.close()


def sign_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url("**/")


def assert_fits(page: Page, what: str = "the page", width: int = 360) -> None:
    """Nothing on the page is wider than a phone's screen."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{what} is {scroll}px wide at {width}px"


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
