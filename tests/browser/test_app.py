"""The installable app in Chromium: the manifest as the browser reads it, the service
worker installed, the lobby and a table opened offline from its cache (saying so),
and the account page's push permission flow storing the browser's subscription."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.models import Game, PushSubscription
from games.play.dealing import start_game
from games.push import keys
from games.templatetags.look import tokens
from tests.service.push_service import Device

from .conftest import Console, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def app_context(browser: Browser, live_server: Any) -> Any:
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        context = browser.new_context(base_url=live_server.url, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def worker_ready(page: Page) -> str:
    """Wait until the page's service worker is active and controls the page. The worker
    registers on the first page (the login page here); a page whose navigation began
    before it was active (the login form's redirect) is not controlled by it, as the
    Service Worker specification says, so it is loaded again, as a player's next visit."""
    for _attempt in range(4):
        try:
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=5_000)
            break
        except Exception:
            page.reload()
    state: str = page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
    return state


def test_chromium_reads_the_manifest_without_an_error(
    players: tuple[User, User], app_context: Any, console: Console
) -> None:
    page = console.watch(app_context().new_page())
    page.goto("/")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == []
    data = json.loads(manifest["data"])
    assert (data["start_url"], data["display"]) == ("/", "standalone")
    assert data["theme_color"] == tokens()["felt"]
    for icon in data["icons"]:
        answer = page.request.get(icon["src"])
        assert answer.ok and answer.headers["content-type"] == icon["type"], icon
    assert page.locator("meta[name=theme-color]").get_attribute("content") == tokens()["felt"]
    assert console.errors == []


def test_the_lobby_and_a_table_open_offline_and_say_so(
    players: tuple[User, User], app_context: Any, console: Console
) -> None:
    alice, bob = players
    game: Game = start_game(alice, bob, seed=3)
    context = app_context()
    page = console.watch(context.new_page())
    sign_in(page, "alice")
    assert worker_ready(page) == "activated"
    assert [w.url.rsplit("/", 1)[-1] for w in context.service_workers] == ["sw.js"]
    page.reload()  # now through the worker, which keeps the lobby as seen
    page.goto(f"/games/{game.pk}/")  # and the table
    expect(page.locator(".table-wrap")).to_be_visible()
    page.wait_for_function(
        """path => caches.open("rbank-pages").then(c => c.match(path)).then(Boolean)""",
        arg=f"/games/{game.pk}/",
    )
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()

    context.set_offline(True)
    page.goto("/")
    expect(page.locator("main")).to_contain_text("bob")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You are offline")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".table-wrap")).to_be_visible()
    expect(banner).to_be_visible()
    page.goto("/rules/")  # never opened here: the offline page says so
    expect(page.locator("h1")).to_have_text("You are offline")

    context.set_offline(False)
    page.goto("/")
    expect(banner).to_be_hidden()
    # Failed loads while offline are the browser's own console lines, not the page's.
    assert [e for e in console.errors if "net::ERR_INTERNET_DISCONNECTED" not in e] == []


def test_the_account_page_asks_permission_and_stores_the_subscription(
    players: tuple[User, User], app_context: Any, console: Console, settings: Any
) -> None:
    """With the permission granted, the page subscribes through the Push API and
    stores what it gets. Chromium cannot give this test a real subscription: in a
    Playwright context (incognito) ``pushManager.subscribe()`` rejects at once ("Chrome
    currently does not support the Push API in incognito mode", crbug.com/41124656),
    and in a persistent profile it waits on Google's push service (GCM), which this
    machine cannot reach, and never settles (tried: no answer in 20 s). So the click
    must end in the page saying the browser could not subscribe, with nothing stored;
    the storing half is then the page's own ``rbankPush.store`` posting a subscription
    the test made (a real P-256 key pair and secret, as ``tests/service/push_service.py``
    decrypts with), as it posts the browser's."""
    settings.VAPID_PRIVATE_KEY = keys.new_private_pem()
    context = app_context(permissions=["notifications"])
    page = console.watch(context.new_page())
    sign_in(page, "alice")
    page.goto("/account/")
    assert page.evaluate("Notification.permission") == "granted"
    button = page.get_by_role("button", name="Turn on push notifications on this device")
    expect(button).to_be_visible()
    button.click()
    status = page.locator("#push-status")
    expect(status).not_to_be_empty()
    said = status.text_content() or ""
    if PushSubscription.objects.exists():  # a Chromium with a push service it can reach
        assert said == "This device will get your push notifications."
    else:
        assert said.startswith("This browser could not subscribe to push notifications:")
        made = Device("https://push.example.net/wpush/v2/abc").subscription()
        answer = page.evaluate("body => window.rbankPush.store(body)", made)
        assert answer == {"stored": True, "devices": 1}
        expect(status).to_have_text("This device will get your push notifications.")
        stored = PushSubscription.objects.get()
        assert (stored.user.username, stored.endpoint) == ("alice", made["endpoint"])
        assert stored.p256dh == made["keys"]["p256dh"] and stored.auth == made["keys"]["auth"]
    page.reload()
    expect(page.locator("ul.devices li")).to_have_count(1)
    page.locator("ul.devices").get_by_role("button", name="Remove").click()
    expect(page.locator(".message")).to_contain_text("no more push notifications")
    assert not PushSubscription.objects.exists()
    assert [e for e in console.errors if "Push API in incognito mode" not in e] == []


def test_a_push_is_shown_by_the_worker_with_its_game_to_open(
    players: tuple[User, User], app_context: Any, console: Console
) -> None:
    """What a push service delivers to the browser (here by Chromium's DevTools, the
    browser's own delivery path: ``ServiceWorker.deliverPushMessage``) is shown as a
    notification with its title, line, tag and the game it opens."""
    context = app_context(permissions=["notifications"])
    page = console.watch(context.new_page())
    sign_in(page, "alice")
    assert worker_ready(page) == "activated"
    cdp = context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.wait_for_timeout(200)
    [registration] = [r for r in registrations if not r.get("isDeleted")]
    payload = {
        "title": "Your turn against bob (game 7)",
        "body": "Play before Monday.",
        "url": "/games/7/",
        "tag": "game-7",
        "lang": "en",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": page.evaluate("location.origin"),
            "registrationId": registration["registrationId"],
            "data": json.dumps(payload),
        },
    )
    shown = page.evaluate(
        """async () => {
          const registration = await navigator.serviceWorker.ready;
          for (let i = 0; i < 50; i++) {
            const found = await registration.getNotifications();
            if (found.length) return found.map(n => ({title: n.title, body: n.body,
              tag: n.tag, url: n.data.url}));
            await new Promise(done => setTimeout(done, 100));
          }
          return [];
        }"""
    )
    assert shown == [
        {"title": payload["title"], "body": payload["body"], "tag": "game-7", "url": "/games/7/"}
    ]
    assert console.errors == []
