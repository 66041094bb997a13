"""Each player reads the service in their language: the one they chose, else their
browser's, else English; e-mails in the recipient's whoever caused them; the API's
codes the same in every language."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import translation
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext, pgettext

from accounts.services import language_of, profile_of, update_profile
from games.engine import GameError
from games.models import Game
from games.notify.writing import deadline_words
from games.play.services import refused
from games.play.stalemate import answer_stalemate, offer_stalemate
from tests.stored import UNEVEN_COUNTS, place, position_of

from .conftest import browser, client_for, mover_and_other, play_turn
from .smtp import Inbox, smtp_inbox, text_of

pytestmark = pytest.mark.django_db
__all__ = ["smtp_inbox"]

SAVED = "Your settings are saved."


def words_of_date(language: str, when: datetime) -> str:
    """The weekday of ``when`` in ``language``'s words (German months can be English's)."""
    with translation.override(language):
        return date_format(when, "l")


def words(language: str, text: str, context: str = "") -> str:
    """``text`` as the catalogue of ``language`` has it."""
    with translation.override(language):
        return pgettext(context, text) if context else gettext(text)


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_catalogue_translates(language: str) -> None:
    assert words(language, SAVED) != SAVED
    assert words(language, "K", "card rank letter") == {"fr": "R", "de": "K"}[language]
    assert words(language, "Q", "card rank letter") == "D"
    assert words(language, "J", "card rank letter") == {"fr": "V", "de": "B"}[language]


def test_a_player_chooses_a_language_in_the_api(alice: User) -> None:
    client = client_for(alice)
    assert client.patch("/api/v1/me/", {"language": "de"}, format="json").json()["language"] == "de"
    assert profile_of(alice).language == "de"
    refused = client.patch("/api/v1/me/", {"language": "xx"}, format="json")
    assert refused.status_code == 400
    assert client.patch("/api/v1/me/", {"language": ""}, format="json").status_code == 200


def test_the_pages_speak_the_chosen_language_whatever_the_browser(alice: User) -> None:
    update_profile(alice, {"language": "fr"})
    page = browser(alice).get("/account/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.headers["Content-Language"] == "fr"
    assert '<html lang="fr"' in page.content.decode()


def test_without_a_choice_the_browsers_language_and_it_is_remembered(alice: User) -> None:
    page = browser(alice).get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    assert page.headers["Content-Language"] == "de"
    assert profile_of(alice).browser_language == "de"
    assert language_of(alice) == "de"  # for its e-mails
    assert browser(alice).get("/").headers["Content-Language"] == "en"  # no header: English


def test_the_account_page_saves_the_language(alice: User) -> None:
    client = browser(alice)
    form = client.get("/account/").context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data |= {f"notify_{k}": v for k, v in profile_of(alice).notifications.items()}
    data |= {"language": "de", "reminder_hours": "24, 2"}
    response = client.post("/account/", data, follow=True)
    assert profile_of(alice).language == "de"
    assert response.headers["Content-Language"] == "de"  # the page after, in German
    # ... and what it says was done too, in the language the player now reads.
    assert words("de", SAVED) in response.content.decode()
    assert SAVED not in response.content.decode()
    # Back to no choice: the browser's language, French here.
    data |= {"language": ""}
    response = client.post("/account/", data, follow=True, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.headers["Content-Language"] == "fr"
    assert words("fr", SAVED) in response.content.decode()


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_api_answers_the_same_code_in_every_language(
    game: Game, alice: User, bob: User, language: str
) -> None:
    _, other = mover_and_other(game, alice, bob)
    answer = client_for(other).post(
        f"/api/v1/games/{game.pk}/moves/",
        {"moves": [str(position_of(game).legal_moves()[0])]},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 409 and answer.json()["error"] == "NOT_YOUR_TURN"
    message = answer.json()["message"]
    assert (message == "it is your opponent's turn") == (language == "en"), message
    assert "your opponent" not in message or language == "en"


@pytest.mark.parametrize(
    ("language", "on_a_page", "in_an_email"),
    [
        ("en", "Thu 27 Nov, 20:11 CET", "Thursday 27 November 2036, 20:11 CET"),
        ("fr", "jeu. 27 nov., 20:11 CET", "jeudi 27 novembre 2036 à 20:11 CET"),
        ("de", "Do., 27. Nov., 20:11 CET", "Donnerstag, 27. November 2036, 20:11 CET"),
    ],
)
def test_times_are_written_in_each_languages_own_format(
    game: Game, alice: User, language: str, on_a_page: str, in_an_email: str
) -> None:
    """The language's date formats (config/formats/), not English's order in other
    words: a German page wrote "Do 27 Nov"."""
    update_profile(alice, {"time_zone": "Europe/Berlin", "language": language})
    when = datetime(2036, 11, 27, 19, 11, tzinfo=ZoneInfo("UTC"))
    Game.objects.filter(pk=game.pk).update(deadline=when)
    html = browser(alice).get(f"/games/{game.pk}/").content.decode()
    assert f'datetime="{when.isoformat()}">{on_a_page}</time>' in html
    with translation.override(language):
        assert deadline_words(when.astimezone(ZoneInfo("Europe/Berlin"))) == in_an_email


@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_stalemate_is_never_called_a_draw_on_the_page(
    game: Game, alice: User, bob: User, language: str
) -> None:
    """Scored by the counts, it is no draw: the French page offered "la nulle", the
    German result read "Remis vereinbart" to a player who had lost."""
    draw = {"fr": re.compile(r"\bnulles?\b", re.I), "de": re.compile(r"\bremis\b", re.I)}
    update_profile(alice, {"language": language})
    place(game, UNEVEN_COUNTS)
    offering = browser(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'id="stalemate-terms"' in offering and not draw[language].search(offering)
    offer_stalemate(game_id=game.pk, user=bob)
    answering = browser(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'id="stalemate-offer"' in answering and not draw[language].search(answering)
    answer_stalemate(game_id=game.pk, user=alice, accept=True)
    over = browser(alice).get(f"/games/{game.pk}/").content.decode()
    assert not draw[language].search(over)
    lobby = browser(alice).get("/").content.decode()
    (result,) = re.findall(r'<span class="result">([^<]*)</span>', lobby)
    assert result.endswith(" · 0-4") and not draw[language].search(result)


#: A card in a line of text: its rank's letter or number, then its suit.
CARD_IN_TEXT = re.compile(r"(?<!\w)(10|[2-9A-Z])([♠♥♦♣])")
#: The letters of the court cards on each language's pages (jack, queen, king).
COURT_LETTERS = {"en": {"J", "Q", "K"}, "fr": {"V", "D", "R"}, "de": {"B", "D", "K"}}


def test_a_text_email_writes_the_cards_and_the_site_as_the_readers_pages_do(
    game: Game, alice: User, bob: User, smtp_inbox: Inbox, run: Any
) -> None:
    """The cards' letters in the text part are the reader's pages' (French R, D, V), and
    the site is called as the pages' header calls it (Crapette, Zank-Patience)."""
    update_profile(alice, {"language": "fr"})
    update_profile(bob, {"language": "de"})
    for _ in range(2):
        run(play_turn, game, alice, bob)
    for reader, language, site in ((alice, "fr", "Crapette"), (bob, "de", "Zank-Patience")):
        (email,) = smtp_inbox.to(reader.email)
        text = text_of(email)
        ranks = {rank for rank, _suit in CARD_IN_TEXT.findall(text)}
        courts = ranks - {"A", *map(str, range(2, 11))}
        assert courts, text  # the deal puts a king on H1
        assert courts <= COURT_LETTERS[language], (language, courts)
        assert site in text and "Russian Bank" not in text


def test_the_sign_up_email_names_the_site_in_the_browsers_language(smtp_inbox: Inbox) -> None:
    signup = {
        "email": "dora@example.com",
        "username": "dora",
        "password1": "a-long-passphrase-42",
        "password2": "a-long-passphrase-42",
    }
    sent = Client().post("/accounts/signup/", signup, HTTP_ACCEPT_LANGUAGE="fr")
    assert sent.status_code == 302
    (confirm,) = smtp_inbox.to("dora@example.com")
    assert str(confirm["Subject"]).startswith("[Crapette] ")
    assert "Crapette" in text_of(confirm) and "Russian Bank" not in text_of(confirm)


def test_the_engines_refusals_name_cards_as_the_pages_do(game: Game) -> None:
    refusal = GameError("ALREADY_TURNED", "already_turned", card="KS")
    for language, king in (("en", "K♠"), ("fr", "R♠"), ("de", "K♠")):
        with translation.override(language):
            assert king in refused(game, refusal).message
    with translation.override("fr"):
        assert "Q♥" not in refused(game, GameError("ALREADY_TURNED", card="QH")).message


def test_each_player_gets_their_e_mail_in_their_own_language(
    game: Game, alice: User, bob: User, run: Any
) -> None:
    update_profile(alice, {"language": "fr"})
    update_profile(bob, {"language": "de"})
    for _ in range(2):
        mail.outbox.clear()
        run(play_turn, game, alice, bob)
        (sent,) = mail.outbox
        reader = alice if sent.to == [alice.email] else bob
        language = profile_of(reader).language
        assert sent.extra_headers["Content-Language"] == language
        with translation.override(language):
            other = bob if reader == alice else alice
            subject = gettext("Your turn against %(opponent)s (game %(game_number)s)") % {
                "opponent": other.get_username(),
                "game_number": game.pk,
            }
        game.refresh_from_db()
        assert game.deadline is not None
        due = game.deadline.astimezone(ZoneInfo(profile_of(reader).time_zone))
        day = {code: words_of_date(code, due) for code in ("en", language)}
        assert sent.subject == subject
        assert day[language] != day["en"] and day[language] in sent.body
