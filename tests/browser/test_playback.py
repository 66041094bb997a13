"""The last turn played out on the table: the piles go back to where the turn began,
then each move comes in turn (300 ms a move) with a counter; a step, a pause and a
skip to the end; once a turn; with reduced motion, the end at once. Timed by
Playwright's clock, not the wall's."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.models import Game
from games.play.services import play_moves

from .conftest import Console, screenshot, sign_in

#: Alice's turn on the conftest's PLAYABLE_TURN, five moves: the ace up, the reserve
#: into the space, a house move, a card turned and discarded.
TURN = ["H1-F1", "R-H1", "H3-H2", "T", "C-W"]


def bobs_page(new_page: Any, game: Game, *, reduced: bool = False) -> Page:
    page: Page = new_page(1280)
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    sign_in(page, "bob")
    # The page's clock stands still until the test moves it on.
    now = time.time()
    page.clock.install(time=now)
    page.clock.pause_at(now + 1)
    page.goto(f"/games/{game.pk}/")
    return page


def test_the_opponents_turn_is_played_out_move_by_move(
    playable_game: Game, players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, _ = players
    play_moves(game_id=playable_game.pk, user=alice, moves=TURN)
    page = bobs_page(new_page, playable_game)
    bar = page.locator("#playback")
    expect(bar).to_be_visible()
    # Before the turn: the ace is back in house 1, foundation 1 is empty.
    expect(page.locator("#pile-H1 [data-card='AS']")).to_be_visible()
    expect(page.locator("#pile-F1 [data-card]")).to_have_count(0)
    expect(page.locator("#playback-count")).to_have_text("Move 0 of 5")
    page.clock.run_for(300)
    expect(page.locator("#playback-count")).to_have_text("Move 1 of 5")
    expect(page.locator("#playback-move")).to_have_text("H1-F1")
    expect(page.locator("#pile-F1 [data-card='AS']")).to_be_visible()
    screenshot(page, "playback-1280")
    for number in range(2, 6):
        page.clock.run_for(300)
        expect(page.locator("#playback-count")).to_have_text(f"Move {number} of 5")
    expect(page.locator("#playback-move")).to_have_text("C-W")
    page.clock.run_for(600)
    expect(bar).to_be_hidden()
    # The table is the game's own again, and the turn is not played out a second time.
    expect(page.locator("#pile-H2 [data-card='8C']")).to_be_visible()
    page.reload()
    expect(page.locator("#pile-F1 [data-card='AS']")).to_be_visible()
    expect(page.locator("#playback")).to_be_hidden()
    assert console.errors == []


def test_a_step_pauses_and_skip_shows_the_end(
    playable_game: Game, players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, _ = players
    play_moves(game_id=playable_game.pk, user=alice, moves=TURN)
    page = bobs_page(new_page, playable_game)
    page.get_by_role("button", name="Next move").click()
    expect(page.locator("#playback-count")).to_have_text("Move 1 of 5")
    expect(page.get_by_role("button", name="Play on")).to_be_visible()
    page.clock.run_for(2000)  # paused: nothing moves on by itself
    expect(page.locator("#playback-count")).to_have_text("Move 1 of 5")
    page.get_by_role("button", name="Skip to the end").click()
    expect(page.locator("#playback")).to_be_hidden()
    expect(page.locator("#pile-H2 [data-card='8C']")).to_be_visible()
    expect(page.locator("#pile-F1 [data-card='AS']")).to_be_visible()
    assert console.errors == []


def test_with_reduced_motion_the_end_shows_at_once(
    playable_game: Game, players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, _ = players
    play_moves(game_id=playable_game.pk, user=alice, moves=TURN)
    page = bobs_page(new_page, playable_game, reduced=True)
    expect(page.locator("#pile-F1 [data-card='AS']")).to_be_visible()
    expect(page.locator("#playback")).to_be_hidden()
    expect(page.locator(".last-turn .movelist")).to_contain_text("H1-F1")
    assert console.errors == []


def bobs_replay(new_page: Any, game: Game, *, reduced: bool = False) -> Page:
    page = bobs_page(new_page, game, reduced=reduced)
    page.goto(f"/games/{game.pk}/replay/")
    return page


def test_the_replay_plays_the_steps_after_the_one_it_shows(
    playable_game: Game, players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, _ = players
    play_moves(game_id=playable_game.pk, user=alice, moves=TURN)
    playable_game.refresh_from_db()
    last = playable_game.ply
    first = last - len(TURN)
    page = bobs_replay(new_page, playable_game)
    expect(page.locator("#pile-F1 [data-card]")).to_have_count(0)  # as the turn began
    page.get_by_role("button", name="Play from here").click()
    count = page.locator("#playback-count")
    expect(count).to_have_text(f"Step {first} of {last}")
    page.clock.run_for(300)
    expect(count).to_have_text(f"Step {first + 1} of {last}")
    expect(page.locator("#playback-move")).to_have_text("H1-F1")
    expect(page.locator("#pile-F1 [data-card='AS']")).to_be_visible()
    expect(page.get_by_role("button", name="Play from here")).to_be_hidden()
    screenshot(page, "replay-playback-1280")
    for number in range(2, 6):
        page.clock.run_for(300)
        expect(count).to_have_text(f"Step {first + number} of {last}")
    page.clock.run_for(600)
    # The end of the playback opens the step it reached.
    expect(page).to_have_url(f"{page.url.split('?')[0]}?step={last}")
    expect(page.locator("#pile-F1 [data-card='AS']")).to_be_visible()
    assert console.errors == []


def test_the_replay_pauses_steps_and_skips_by_keyboard(
    playable_game: Game, players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, _ = players
    play_moves(game_id=playable_game.pk, user=alice, moves=TURN)
    playable_game.refresh_from_db()
    last = playable_game.ply
    page = bobs_replay(new_page, playable_game)
    page.keyboard.press("p")
    expect(page.get_by_role("button", name="Pause")).to_be_focused()
    page.keyboard.press("Enter")  # pause
    page.get_by_role("button", name="Next move").click()
    page.clock.run_for(2000)  # paused: nothing moves on by itself
    expect(page.locator("#playback-count")).to_have_text(f"Step {last - 4} of {last}")
    page.get_by_role("button", name="Skip to the end").click()
    expect(page).to_have_url(f"{page.url.split('?')[0]}?step={last}")
    assert console.errors == []


def test_the_replay_with_reduced_motion_opens_the_end_at_once(
    playable_game: Game, players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, _ = players
    play_moves(game_id=playable_game.pk, user=alice, moves=TURN)
    playable_game.refresh_from_db()
    page = bobs_replay(new_page, playable_game, reduced=True)
    page.get_by_role("button", name="Play from here").click()
    expect(page).to_have_url(f"{page.url.split('?')[0]}?step={playable_game.ply}")
    expect(page.locator("#playback")).to_be_hidden()
    expect(page.get_by_role("button", name="Play from here")).to_have_count(0)  # the end
    assert console.errors == []
