"""The private note's box on the game page, in a real browser (docs/notes.md): its
writer keeps and finds it; the opponent's page and a spectator's show none of it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.models import Game, Note

from .conftest import Console, assert_fits, sign_in


def test_a_player_keeps_a_note_nobody_else_sees(
    playable_game: Game, new_page: Any, console: Console
) -> None:
    page = new_page(360, 780)
    sign_in(page, "alice")
    page.goto(f"/games/{playable_game.pk}/")
    box = page.get_by_label("Only you read it")
    box.fill("B keeps kings back:\nwatch H6")
    page.get_by_role("button", name="Save the note").click()
    page.wait_for_url(f"**/games/{playable_game.pk}/#note")
    expect(page.get_by_text("Note saved.")).to_be_visible()
    expect(page.get_by_label("Only you read it")).to_have_value("B keeps kings back:\nwatch H6")
    assert_fits(page, "the game page with its note")
    assert Note.objects.get().text == "B keeps kings back:\nwatch H6"
    opponent = new_page()
    sign_in(opponent, "bob")
    opponent.goto(f"/games/{playable_game.pk}/")
    expect(opponent.get_by_label("Only you read it")).to_have_value("")
    assert "kings" not in opponent.content()
    spectator = new_page()
    spectator.goto(f"/games/{playable_game.pk}/")
    expect(spectator.locator("#note")).to_have_count(0)
    assert "kings" not in spectator.content()
    assert console.errors == []
