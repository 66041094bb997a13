"""The HTML e-mails draw the table as cards that fit a phone's screen.

The e-mails go through a real SMTP server; their HTML part is opened in Chromium at
360 px, as a phone's mail program shows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from django.db import transaction
from playwright.sync_api import Browser, Page

from games.models import Game
from games.notify.notifications import notify
from games.play.dealing import start_game
from games.play.services import resign
from games.templatetags.look import tokens
from tests.service.smtp import Inbox, smtp_inbox, text_of
from tests.stored import place

from .conftest import player, screenshot

__all__ = ["smtp_inbox"]

WIDTH = 360


#: A late table: long houses (12 cards), every foundation started, tops on every pile.
LONG_HOUSES: dict[str, Any] = {
    "format": "rbank-position/1",
    "rules": "pagat",
    "to_move": "A",
    "foundations": [
        ["AS", "2S", "3S"],
        ["AH"],
        ["AD", "2D"],
        ["AC", "2C", "3C", "4C"],
        ["AS"],
        ["AH", "2H"],
        ["AD"],
        [],
    ],
    "houses": [
        ["KS", "QH", "JC", "TD", "9S", "8H", "7C", "6D", "5S", "4H", "3C", "2D"],
        ["KH", "QS", "JD", "TC", "9H", "8S", "7D", "6C", "5H", "4S", "3D"],
        [],
        ["KD", "QC"],
        ["KC", "QD", "JS", "TH", "9C", "8D", "7S", "6H", "5C", "4D", "3S", "2H"],
        ["9D"],
        ["KD", "QS", "JH", "TS", "9H", "8C", "7H", "6S", "5D", "4C"],
        ["JH"],
    ],
    "A": {"reserve": ["4S", "TD", "7S"], "hand": ["5D", "QD"], "waste": ["6H"], "turned": "8D"},
    "B": {"reserve": ["6C", "KS"], "hand": ["9C"], "waste": ["3H"], "turned": None},
    "status": "playing",
    "winner": None,
    "score": None,
}


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": WIDTH, "height": 800})
    yield context.new_page()
    context.close()


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


def assert_fits_phone(page: Page, html: str, name: str) -> None:
    page.set_content(html)
    widest = page.evaluate(
        "Math.max(document.documentElement.scrollWidth,"
        " ...Array.from(document.querySelectorAll('body *'),"
        " e => Math.ceil(e.getBoundingClientRect().right)))"
    )
    screenshot(page, name)
    assert widest <= WIDTH, f"{name}: something is {widest}px wide on a {WIDTH}px screen"


@pytest.mark.django_db(transaction=True)
def test_it_draws_the_table_of_a_your_turn_email_as_cards_within_360px(
    smtp_inbox: Inbox, phone: Page
) -> None:
    alice, bob = player("alice"), player("bob")
    game = start_game(alice, bob, seed=1)
    place(game, LONG_HOUSES)
    with transaction.atomic():
        notify("your_turn", user=alice, game=game, last_turn=["H3-F1", "T", "C-W"] * 12)
    (message,) = smtp_inbox.to(alice.email)
    html = html_of(message)
    assert "<pre" not in html
    # Cards in their suits' colours: the 12 cards of H1 and the reserve's top 4♠.
    for label in ("K♠", "Q♥", "J♣", "10♦", "2♦", "4♠"):
        assert f">{label}</span>" in html
    red, black = (f"color:{tokens()[name]}" for name in ("red", "black"))
    assert html.count(red) > 10 and html.count(black) > 10
    assert_fits_phone(phone, html, "email-your-turn-360")
    text = text_of(message)
    assert "H1 K♠ Q♥ J♣ 10♦" in text, "the text part keeps the text table"


@pytest.mark.django_db(transaction=True)
def test_it_fits_the_three_player_table_of_a_game_over_email_within_360px(
    smtp_inbox: Inbox, phone: Page
) -> None:
    alice, bob, carol = player("alice"), player("bob"), player("carol")
    game = start_game(alice, bob, carol, rules="three-player", seed=5)
    resign(game_id=game.pk, user=bob)
    assert Game.objects.get(pk=game.pk).status != "playing"
    (message,) = smtp_inbox.to(carol.email)
    html = html_of(message)
    assert html.count("Opponent (") == 2 and "You (C)" in html
    assert_fits_phone(phone, html, "email-game-over-three-players-360")
