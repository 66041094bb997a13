"""A French and a German player each play a turn on a phone, in their language, and
get their "your turn" e-mail in it; their English opponent gets theirs in English."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import override_settings
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from accounts.services import update_profile
from games.models import Game
from games.play.dealing import start_game
from tests.service.conftest import play_turn
from tests.stored import last_turn_of, place

from .conftest import PLAYABLE_TURN, Console, assert_fits, player, screenshot, sign_in

SUBJECT = "Your turn against %(opponent)s (game %(game_number)s)"


def subject_in(language: str, opponent: str, game: Game) -> str:
    with translation.override(language):
        return gettext(SUBJECT) % {"opponent": opponent, "game_number": game.pk}


def your_turn_to(user: User) -> EmailMultiAlternatives:
    (sent,) = [m for m in mail.outbox if m.to == [user.email]]
    assert isinstance(sent, EmailMultiAlternatives)
    return sent


def show_email(page: Page, sent: EmailMultiAlternatives, name: str) -> None:
    """The e-mail's HTML part as a mail program shows it, for the screenshot."""
    html = next(str(body) for body, kind in sent.alternatives if kind == "text/html")
    page.set_content(html)
    screenshot(page, name)


@pytest.mark.parametrize("language", ["fr", "de"])
@override_settings(PRESENCE_SECONDS=1)  # a player who leaves the page is soon away
def test_a_turn_and_its_e_mails_in_each_players_language(
    players: tuple[User, User], new_page: Any, console: Console, language: str
) -> None:
    local, _ = players
    update_profile(local, {"language": language})
    english = player("carol")
    game = start_game(local, english, seed=1)
    place(game, PLAYABLE_TURN)  # the local player (A) to move
    page = new_page(360)
    sign_in(page, local.get_username())
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    # The cards' corners in the country's letters: the king of hearts on H4.
    king = {"fr": "R", "de": "K"}[language]
    expect(page.locator("#pile-H4 [data-card='KH'] .idx span").first).to_have_text(king)
    assert_fits(page, f"the game page in {language}")
    screenshot(page, f"game-360-{language}")

    # A whole turn by clicking: the ace to a foundation, the reserve into the space,
    # turn a card, discard it.
    mail.outbox.clear()
    for source, destination, card in (("H1", "F1", "AS"), ("RA", "H1", "7S")):
        page.click(f"#pile-{source}")
        page.click(f"#pile-{destination}")
        expect(page.locator(f"#pile-{destination} [data-card='{card}']")).to_be_visible()
    page.click("button.pile[data-name='T']")
    expect(page.locator("#pile-CA [data-card='QD']")).to_be_visible()
    page.click("#pile-CA")
    page.click("#pile-WA")
    expect(page.locator("#pile-WA [data-card='QD']")).to_be_visible()
    game.refresh_from_db()
    assert last_turn_of(game)["moves"] == ["H1-F1", "R-H1", "T", "C-W"]
    screenshot(page, f"game-360-{language}-played")

    # The English opponent is told in English; their turn tells the player in theirs.
    told = your_turn_to(english)
    assert told.subject == subject_in("en", local.get_username(), game)
    assert told.extra_headers["Content-Language"] == "en"
    mail.outbox.clear()
    # The player leaves the game's page (while there, they get no "your turn" e-mail).
    page.goto("about:blank")
    time.sleep(1.2)
    play_turn(game, local, english)
    sent = your_turn_to(local)
    assert sent.extra_headers["Content-Language"] == language
    assert (
        sent.subject
        == subject_in(language, "carol", game)
        != told.subject.replace(local.get_username(), "carol")
    )
    show_email(page, sent, f"email-your-turn-{language}")
    assert console.errors == []
