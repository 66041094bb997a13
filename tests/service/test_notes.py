"""Private notes (docs/notes.md): one per player per game, read by its writer alone: on
the game page, over the API and in their export; never by the opponent, a spectator,
an event, a webhook or an e-mail."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.test import Client

from games.models import Game, Note
from games.notes import MAX_LENGTH
from games.play.services import resign, write_message
from webhooks.services import create_webhook

from .conftest import client_for, play_turn

pytestmark = pytest.mark.django_db

SECRET_PLAN = 'Keep the "kings" back\\ till B empties H6\nthen run'


def put(user: User | None, game: Game, text: Any) -> Any:
    return client_for(user).put(f"/api/v1/games/{game.pk}/note/", {"text": text}, format="json")


def page_of(user: User | None, path: str) -> str:
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser.get(path).content.decode()


def test_the_writer_keeps_and_reads_their_note(game: Game, alice: User) -> None:
    assert client_for(alice).get(f"/api/v1/games/{game.pk}/note/").json() == {"text": ""}
    written = put(alice, game, SECRET_PLAN + "  \r\n\u202e")
    assert written.status_code == 200 and written.json() == {"text": SECRET_PLAN}
    assert client_for(alice).get(f"/api/v1/games/{game.pk}/note/").json() == {"text": SECRET_PLAN}
    assert put(alice, game, "changed").json() == {"text": "changed"}
    assert Note.objects.get().text == "changed"  # one note per player per game
    assert put(alice, game, "").json() == {"text": ""}
    assert not Note.objects.exists()


def test_each_player_has_their_own_and_no_one_else_reads_it(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    put(alice, game, SECRET_PLAN)
    put(bob, game, "bob's own")
    assert client_for(bob).get(f"/api/v1/games/{game.pk}/note/").json() == {"text": "bob's own"}
    # A spectator of a public game, signed in or not, has no note to read or write.
    assert client_for(charlie).get(f"/api/v1/games/{game.pk}/note/").status_code == 404
    assert put(charlie, game, "mine").status_code == 404
    assert client_for(None).get(f"/api/v1/games/{game.pk}/note/").status_code in (401, 403)
    for reader in (bob, charlie, None):
        for text in (
            client_for(reader).get(f"/api/v1/games/{game.pk}/").content.decode(),
            client_for(reader).get(f"/api/v1/games/{game.pk}/export/").content.decode(),
            page_of(reader, f"/games/{game.pk}/"),
            page_of(reader, f"/games/{game.pk}/export.txt"),
            page_of(reader, f"/games/{game.pk}/replay/"),
        ):
            assert "kings" not in text  # alice's note: only alice reads it
            if reader != bob:
                assert "[Note " not in text and "bob's own" not in text
    bob_export = client_for(bob).get(f"/api/v1/games/{game.pk}/export/").content.decode()
    assert '[Note "bob\'s own"]' in bob_export


def test_the_writer_s_page_and_export_hold_it(game: Game, alice: User) -> None:
    put(alice, game, SECRET_PLAN)
    page = page_of(alice, f"/games/{game.pk}/")
    assert 'id="note-text"' in page and "Keep the &quot;kings&quot; back" in page
    export = client_for(alice).get(f"/api/v1/games/{game.pk}/export/").content.decode()
    assert '[Note "Keep the \\"kings\\" back\\\\ till B empties H6\\nthen run"]' in export
    assert page_of(alice, f"/games/{game.pk}/export.txt") == export


def test_the_page_saves_the_note_and_a_refused_one_keeps_what_was_typed(
    game: Game, alice: User
) -> None:
    browser = Client()
    browser.force_login(alice)
    saved = browser.post(f"/games/{game.pk}/note/", {"note": "watch H6"})
    assert saved.status_code == 302 and saved["Location"].endswith(f"/games/{game.pk}/#note")
    assert Note.objects.get().text == "watch H6"
    long = "x" * (MAX_LENGTH + 1)
    refused = browser.post(f"/games/{game.pk}/note/", {"note": long})
    assert refused.status_code == 400
    assert long in refused.content.decode() and "at most 2000 characters" in (
        refused.content.decode()
    )
    assert Note.objects.get().text == "watch H6"  # nothing lost, nothing cut


def test_a_note_too_long_or_not_text_is_a_clear_400(game: Game, alice: User) -> None:
    put(alice, game, "kept")
    for bad in ("x" * (MAX_LENGTH + 1), 12, None, ["a"]):
        refused = put(alice, game, bad)
        assert refused.status_code == 400, bad
    assert Note.objects.get().text == "kept"
    assert (
        client_for(alice).put(f"/api/v1/games/{game.pk}/note/", {}, format="json").status_code
        == 400
    )


def test_no_event_webhook_or_e_mail_ever_carries_it(
    game: Game, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    create_webhook(bob, "https://example.com/hook", ["your_turn", "game_over", "message"])
    create_webhook(alice, "https://example.com/mine", ["your_turn", "game_over", "message"])
    with django_capture_on_commit_callbacks(execute=True):
        put(alice, game, SECRET_PLAN)
        play_turn(game, alice, bob)
        write_message(game_id=game.pk, user=alice, text="good luck")
        resign(game_id=game.pk, user=alice)
    assert mail.outbox  # e-mails went: the turn, the message, the end
    for sent in mail.outbox:
        assert "kings" not in str(sent.body) + str(getattr(sent, "alternatives", ""))
    # Everything stored but the note itself: events, deliveries, notifications, messages.
    dump = io.StringIO()
    call_command("dumpdata", exclude=["games.note", "sessions"], stdout=dump)
    assert "kings" not in dump.getvalue() and "good luck" in dump.getvalue()


def test_the_note_endpoint_is_in_the_schema() -> None:
    schema = client_for(None).get("/api/v1/schema/?format=json").json()
    operations = schema["paths"]["/api/v1/games/{game_id}/note/"]
    assert set(operations) >= {"get", "put"}
