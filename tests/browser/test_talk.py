"""Messages on the game page in a real browser: a player writes markup and a script,
both players read it as text and no script runs; the opponent's page brings it by its
poll, keeping what they were typing; a refusal stays beside the box; a report."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Browser, Dialog, Page, expect

from accounts.models import Report
from games.models import Game, Message
from games.play.dealing import start_game
from tests.service.web import web_server

from .conftest import Console, assert_fits, screenshot, sign_in

MARKUP = "<script>alert(1)</script><b>x</b>"


def no_markup_ran(page: Page) -> None:
    """The message is its characters on the page: no element was made of it."""
    assert page.locator(".said-text b, .said-text script, #talk b").count() == 0


def test_a_message_with_markup_reaches_the_opponent_as_text(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)  # alice (A) to move
    dialogs: list[str] = []

    def refuse(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    waiting = new_page(1280)
    waiting.on("dialog", refuse)
    waiting.clock.install()  # the poll's 20 s pass when the test says so
    sign_in(waiting, "bob")
    waiting.goto(f"/games/{game.pk}/")
    expect(waiting.locator("#talk")).to_contain_text("No messages yet.")
    expect(waiting.locator("#message-help")).to_contain_text("It is sent at once.")
    # Bob starts a message of his own; what he types must survive the poll's swap.
    waiting.fill("#message-text", "a draft of mine")

    writer = new_page(360, 780)
    writer.on("dialog", refuse)
    sign_in(writer, "alice")
    writer.goto(f"/games/{game.pk}/")
    expect(writer.locator("#message-help")).to_contain_text("It is shown to bob at once")
    writer.fill("#message-text", MARKUP + "\nsecond line")
    writer.get_by_role("button", name="Send").click()
    expect(writer.locator(".said-text")).to_have_text(MARKUP + "\nsecond line")
    expect(writer.locator("#message-notice")).to_contain_text("shown at once")
    expect(writer.locator("#message-text")).to_have_value("")
    no_markup_ran(writer)
    assert_fits(writer, "the game page with a message")
    writer.locator("#talk").scroll_into_view_if_needed()
    screenshot(writer, "talk-360")

    # The version did not move; the poll sees the message count change.
    game.refresh_from_db()
    assert game.version == 1 and game.message_count == 1
    waiting.clock.fast_forward(21_000)
    expect(waiting.locator(".said-text")).to_have_text(MARKUP + "\nsecond line")
    expect(waiting.locator(".said-by")).to_contain_text("alice")
    expect(waiting.locator("#message-text")).to_have_value("a draft of mine")
    no_markup_ran(waiting)
    screenshot(waiting, "talk-1280")

    # Bob sends his: at once, as it is not his turn; his page keeps his turn's table.
    waiting.get_by_role("button", name="Send").click()
    expect(waiting.locator(".said-text")).to_have_count(2)
    expect(waiting.locator("#message-notice")).to_contain_text("Message sent.")
    writer.reload()
    expect(writer.locator(".said-text").nth(1)).to_have_text("a draft of mine")
    no_markup_ran(writer)
    assert dialogs == []
    assert [m.text for m in Message.objects.order_by("pk")] == [
        MARKUP + "\nsecond line",
        "a draft of mine",
    ]
    assert console.errors == []


def test_a_refused_message_stays_in_the_box_and_a_message_is_reported(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    Message.objects.create(game=game, author=alice, seat="A", text="rude words", ply=0)
    Message.objects.create(game=game, author=bob, seat="B", text="mine", ply=0)
    Game.objects.filter(pk=game.pk).update(message_count=2)
    page = new_page(1280)
    sign_in(page, "bob")
    page.goto(f"/games/{game.pk}/")
    page.fill("#message-text", "   ")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#talk #refusal")).to_contain_text("the message is empty")
    expect(page.locator("#message-text")).to_have_value("   ")

    # Only the others' messages have a Report fold; it stays open across a poll's swap.
    expect(page.locator("details.report")).to_have_count(1)
    page.locator("details.report summary").click()
    page.get_by_label("Reason").select_option("abuse")
    page.get_by_role("button", name="Report to support staff").click()
    expect(page.locator("#message-notice")).to_contain_text("support staff will read")
    expect(page.locator("#talk")).to_contain_text("You have reported this message")
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.message_text) == (bob, alice, "rude words")
    assert console.errors == []


def test_a_message_appears_at_once_on_a_page_that_follows_the_stream(
    browser: Browser, players: tuple[User, User], console: Console
) -> None:
    """Served as in production (ASGI), the opponent's page hears the ``message`` event
    and shows the message at once, well inside the 20 s between polls."""
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    with web_server() as web:
        contexts = [
            browser.new_context(base_url=web.url, viewport={"width": 1280, "height": 900})
            for _ in range(2)
        ]
        reader, writer = (console.watch(context.new_page()) for context in contexts)
        for page, name in ((reader, "bob"), (writer, "alice")):
            page.set_default_timeout(15_000)
            sign_in(page, name)
        with reader.expect_response(lambda r: "/api/v1/stream/events/" in r.url) as opened:
            reader.goto(f"/games/{game.pk}/")
        assert opened.value.status == 200
        writer.goto(f"/games/{game.pk}/")
        writer.fill("#message-text", MARKUP)
        writer.get_by_role("button", name="Send").click()
        expect(writer.locator(".said-text")).to_have_text(MARKUP)
        expect(reader.locator(".said-text")).to_have_text(MARKUP, timeout=10_000)
        no_markup_ran(reader)
        for context in contexts:
            context.close()
    assert console.errors == []
