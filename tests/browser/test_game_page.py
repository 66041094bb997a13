"""The game page in a real browser: sign in, play a whole turn by clicking, see refusals."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.models import Game
from games.play.dealing import start_game
from games.play.stalemate import offer_stalemate
from tests.service.conftest import mover_and_other, play_turn
from tests.stored import last_turn_of, place, position_of

from .conftest import PLAYABLE_TURN, Console, assert_fits, screenshot, sign_in


def card_on(page: Page, pile: str, card: str) -> None:
    expect(page.locator(f"#pile-{pile} [data-card='{card}']")).to_be_visible()


def click_move(page: Page, source: str, destination: str) -> None:
    page.click(f"#pile-{source}")
    page.click(f"#pile-{destination}")


def test_a_whole_turn_by_clicking(
    playable_game: Game, new_page: Any, console: Console, players: tuple[User, User]
) -> None:
    page = new_page(1280)
    sign_in(page, "alice")
    page.get_by_role("link", name="bob").click()
    expect(page.locator(".status")).to_contain_text("Your turn")
    screenshot(page, "board-1280")

    # A foundation move: pick up the ace, the foundations light up, put it on F1.
    page.click("#pile-H1")
    expect(page.locator("#pile-H1")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#pile-F1")).to_have_class(re.compile(r"\btarget\b"))
    page.click("#pile-F1")
    card_on(page, "F1", "AS")

    # The reserve fills the space, then a house move: the 8♣ onto the 9♦.
    click_move(page, "RA", "H1")
    card_on(page, "H1", "7S")
    card_on(page, "RA", "TD")  # the next reserve card is turned face up
    click_move(page, "H3", "H2")
    card_on(page, "H2", "8C")

    # An illegal click: the engine's refusal, in words; nothing moves.
    click_move(page, "H2", "H4")
    expect(page.locator("#refusal")).to_contain_text("cannot go on the K♥")
    card_on(page, "H2", "8C")

    # Turn a card, then discard it: the turn passes to bob.
    page.get_by_role("button", name="Turn a card").click()
    card_on(page, "CA", "QD")
    page.get_by_role("button", name="Discard to my waste").click()
    expect(page.locator(".status")).to_contain_text("Waiting for bob")
    card_on(page, "WA", "QD")

    playable_game.refresh_from_db()
    assert playable_game.to_move == "B"
    assert last_turn_of(playable_game)["moves"] == ["H1-F1", "R-H1", "H3-H2", "T", "C-W"]
    assert position_of(playable_game).seats[0].waste != []
    assert console.errors == []


def test_keyboard_and_drag_and_drop(playable_game: Game, new_page: Any, console: Console) -> None:
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{playable_game.pk}/")
    # Keyboard: Enter picks up, Escape puts down, Enter on a destination plays.
    page.focus("#pile-H1")
    page.keyboard.press("Enter")
    expect(page.locator("#pile-H1")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(page.locator("#pile-H1")).not_to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")
    page.focus("#pile-F3")
    page.keyboard.press("Enter")
    card_on(page, "F3", "AS")
    # Drag and drop: the reserve's 7♠ into the space.
    page.drag_and_drop("#pile-RA", "#pile-H1")
    card_on(page, "H1", "7S")
    # Typed notation, several moves at once.
    page.fill("#moves-input", "H3-H2 T")
    page.press("#moves-input", "Enter")
    card_on(page, "CA", "QD")
    expect(page.locator("#moves-input")).to_have_value("")  # played: the box is cleared
    assert console.errors == []


def test_it_keeps_a_refused_typed_line_in_the_box(
    playable_game: Game, new_page: Any, console: Console
) -> None:
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{playable_game.pk}/")
    page.fill("#moves-input", "H1-F1 H3-H4")
    page.press("#moves-input", "Enter")
    expect(page.locator("#refusal")).to_contain_text("H3-H4")
    expect(page.locator("#moves-input")).to_have_value("H1-F1 H3-H4")
    # A refused click leaves what was being typed alone, and puts nothing in the box.
    page.fill("#moves-input", "H1-F")
    click_move(page, "H2", "H4")
    expect(page.locator("#refusal")).to_contain_text("cannot go on the K♥")
    expect(page.locator("#moves-input")).to_have_value("H1-F")
    playable_game.refresh_from_db()
    assert playable_game.ply == 0
    assert console.errors == []


def test_phone_width(playable_game: Game, new_page: Any, console: Console) -> None:
    page = new_page(360, 780)
    sign_in(page, "alice")
    page.goto(f"/games/{playable_game.pk}/")
    assert_fits(page)
    screenshot(page, "board-360")
    click_move(page, "H1", "F1")
    card_on(page, "F1", "AS")
    assert console.errors == []


def test_the_opponents_last_turn_step_by_step(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    moves = play_turn(game, alice, bob)
    _, waiting = mover_and_other(game, alice, bob)
    page = new_page(1280)
    sign_in(page, waiting.get_username())
    page.goto(f"/games/{game.pk}/")
    last_turn = page.locator(".last-turn")
    expect(last_turn.locator("code")).to_have_text(moves)
    assert page.locator(".pile.moved").count() >= 1  # the piles it touched are marked

    last_turn.get_by_role("link", name="Replay it step by step").click()
    start = game.ply - len(moves)
    expect(page.locator("nav.controls")).to_contain_text(f"Step {start} of {game.ply}")
    for step, move in enumerate(moves, start + 1):
        # The page's script is running (it shows the playback's button): the keys work.
        expect(page.get_by_role("button", name="Play from here")).to_be_visible()
        page.keyboard.press("ArrowRight")
        expect(page.locator("nav.controls")).to_contain_text(f"Step {step} of {game.ply}")
        expect(page.locator("nav.controls code")).to_have_text(move)
    assert page.locator("#next-step").count() == 0  # the last step is the table as it is
    assert console.errors == []


def test_the_replay_steps_are_named_in_words_and_their_icons_drawn(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    """Each step link is named by its words alone, and its icon is drawn (an SVG): the
    characters ⏮ and ⏭ were empty boxes on a machine without an emoji font."""
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    moves = play_turn(game, alice, bob)
    assert len(moves) >= 2
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/replay/?step={game.ply - 1}")  # steps on both sides
    steps = page.locator("nav.controls")
    for name in ("Start", "Back", "Next", "End"):
        link = steps.get_by_role("link", name=name, exact=True)
        expect(link).to_have_count(1)
        icon = link.locator("svg.icon")
        expect(icon).to_have_attribute("aria-hidden", "true")
        box = icon.bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0
    screenshot(page, "replay-steps-1280")
    assert console.errors == []


def test_every_card_and_pile_has_a_name_in_words(
    playable_game: Game, new_page: Any, console: Console
) -> None:
    page = new_page(1280)
    sign_in(page, "alice")
    page.goto(f"/games/{playable_game.pk}/")
    piles = page.locator(".pile")
    assert piles.count() >= 24  # 8 houses, 8 foundations, 4 piles a seat
    for label in piles.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
        assert label and ":" in label, label
    # Each drawn card is named by its pile's label (or its own, when drawn alone).
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('[data-card]')].filter(card => {
            const words = card.getAttribute('title');
            const named = card.closest('[aria-label]');
            return !(named && named.getAttribute('aria-label').includes(words));
        }).map(card => card.dataset.card)"""
    )
    assert unnamed == []
    assert page.get_by_role("button", name="House 1: ace of spades").is_visible()
    assert console.errors == []


def test_long_houses_still_fit_a_phone(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    """Houses of a dozen cards fan inside the table at 360 px, and every card is named."""
    alice, bob = players
    game = start_game(alice, bob, seed=1)
    long_run = ["KS", "QH", "JC", "TD", "9S", "8H", "7C", "6D", "5S", "4H", "3C", "2D"]
    other_run = ["KH", "QC", "JD", "TS", "9H", "8C", "7D", "6S", "5H", "4C", "3D", "2S"]
    place(
        game,
        {
            **PLAYABLE_TURN,
            "houses": [long_run, ["9D"], ["TC", "8C"], ["KD"], other_run, ["QS"], ["3H"], ["JH"]],
            "A": {"reserve": ["4D", "TH", "7H"], "hand": ["2C", "QD"], "waste": [], "turned": None},
        },
    )
    page = new_page(360, 780)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    assert_fits(page)
    expect(page.locator("#pile-H1 [data-card]")).to_have_count(12)
    expect(page.locator("#pile-H5 [data-card]")).to_have_count(12)
    box = page.locator(".table-wrap").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    screenshot(page, "long-houses-360")
    assert console.errors == []


def test_it_shows_my_own_seat_without_scrolling_on_a_1280_by_800_screen(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    """The seat a player plays from must be in sight when the page opens, on their turn
    and on the opponent's, on a common laptop screen."""
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    for name in ("alice", "bob"):
        page = new_page(1280, 800)
        sign_in(page, name)
        page.goto(f"/games/{game.pk}/")
        mine = page.locator(".seat.mine")
        expect(mine).to_contain_text(f"{name} 1500? (")  # a new player's rating beside the name
        box = mine.bounding_box()
        assert box is not None and box["y"] >= 0
        assert box["y"] + box["height"] <= 800, f"{name}'s seat ends at {box['y'] + box['height']}"
        assert page.evaluate("window.scrollY") == 0
        screenshot(page, f"board-1280x800-{name}")
    assert console.errors == []


def test_my_own_seat_stays_in_sight_on_a_1280_by_800_screen_with_an_offer_to_answer(
    players: tuple[User, User], new_page: Any, console: Console
) -> None:
    """The notice of a stalemate offer (and a refusal's line) must not push the seat a
    player answers from below the fold."""
    alice, bob = players
    game = start_game(alice, bob, seed=20261122)
    offer_stalemate(game_id=game.pk, user=bob)
    page = new_page(1280, 800)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#stalemate-offer")).to_be_visible()
    screenshot(page, "board-1280x800-offer")
    mine = page.locator(".seat.mine")
    box = mine.bounding_box()
    assert box is not None and box["y"] >= 0
    assert box["y"] + box["height"] <= 800, f"alice's seat ends at {box['y'] + box['height']}"
    offer = page.locator("#stalemate-offer").bounding_box()
    assert offer is not None and offer["y"] + offer["height"] <= 800
    assert console.errors == []
