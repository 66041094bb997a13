"""Watching games on the pages (docs/spectators.md): a public game's table from the
spectator's seat (only the cards face up for everyone, over a whole game; no form, no
message while it is played), its poll answered from the cache; a private game is
nobody else's (404 signed in, the login page signed out); the list of games being
played; the lobby's choice of a private game."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.engine import Position, deal, get_rules, view
from games.models import Challenge, Game
from games.pages import players
from games.play.dealing import start_game
from games.play.services import play_moves, resign, write_message
from tests.hidden_cards import (
    assert_hides,
    card_names_in,
    face_down_cards,
    named_face_down,
    turn_frames_of,
)
from tests.stored import current_turn_of, last_turn_of

from .conftest import NEW_GAME_FORM, browser, mover_and_other, play_turn
from .test_hidden_cards_pages import a_random_turn

pytestmark = pytest.mark.django_db

DATA_CARD = re.compile(r'data-card="([^"]*)"')
MARKUP = "<script>alert(1)</script><b>x</b>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;"


def game_of(html: str) -> str:
    """The part of a spectator's page its poll replaces (the site's header aside)."""
    start = html.index('<div id="game-state"')
    return html[start:]


def spectator_leaks(html: str, position: Position) -> list[str]:
    """Every way ``html`` shows more than a spectator may see of ``position`` (the last
    turn's frames aside: ``frame_leaks``)."""
    html = turn_frames_of(html)[0]
    drawn = Counter(DATA_CARD.findall(html))
    assert_hides(list(drawn.elements()), position)  # never more than lies face up
    seen: Counter[str] = Counter()
    card_names_in(view(position, None), seen)  # the spectator's own rule: waste tops only
    problems = [
        f"{face} drawn {n} times, the spectator's view has {seen[face]}"
        for face, n in sorted(drawn.items())
        if n > seen[face]
    ]
    return problems + named_face_down(html, position, seen)


def frame_leaks(
    html: str, game: Game, positions: list[Position], start: int | None = None
) -> list[str]:
    """What the frames played out show beyond what a spectator saw at each step: the
    last turn's on the game page, the replay's from ``start``, the step it shows."""
    if start is None:
        start = game.ply - len(current_turn_of(game)) - len(last_turn_of(game)["moves"])
    return [
        f"frame {k}: {problem}"
        for k, frame in enumerate(turn_frames_of(html)[1])
        for problem in spectator_leaks(frame, positions[start + k])
    ]


def made_private(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(public=False)
    game.refresh_from_db()
    return game


# ------------------------------------------------------------------------ a whole game


#: A seed whose random game ends by cards within a few hundred moves (as in
#: test_hidden_cards_pages), so that every kind of table is seen.
SEED = 69


def test_a_spectator_sees_no_face_down_card_and_no_message_over_a_whole_game(
    alice: User, bob: User, charlie: User
) -> None:
    game = start_game(alice, bob, seed=SEED)
    players = [alice, bob]
    watchers = [Client(), browser(charlie)]  # signed out, and a signed-in stranger
    rng = random.Random(SEED)
    position = deal(SEED, get_rules("pagat"))
    positions = [position.copy()]
    checked: set[int] = set()
    turns = 0

    def check() -> None:
        game.refresh_from_db()
        assert game.ply == len(positions) - 1
        for client in watchers:
            page = client.get(f"/games/{game.pk}/")
            assert page.status_code == 200 and 'id="game-state"' in page.text
            table = game_of(page.text)
            assert spectator_leaks(page.text, positions[-1]) == []
            assert frame_leaks(page.text, game, positions) == []
            assert "<form" not in table and "legal-moves" not in table
            assert "secret note" not in page.text and ESCAPED not in page.text
            fragment = client.get(f"/games/{game.pk}/table/", {"version": 0})
            assert fragment.status_code == 200
            assert spectator_leaks(fragment.text, positions[-1]) == []
            assert frame_leaks(fragment.text, game, positions) == []
            assert "secret note" not in fragment.text
            export = client.get(f"/games/{game.pk}/export.txt").text
            assert "secret note" not in export and "[Seed " not in export
        first = game.ply - len(current_turn_of(game)) - len(last_turn_of(game)["moves"])
        for step in range(first, game.ply + 1):
            if step in checked:
                continue
            checked.add(step)
            html = watchers[0].get(f"/games/{game.pk}/replay/", {"step": step}).text
            assert f"Step {step} of {game.ply}" in html
            assert spectator_leaks(turn_frames_of(html)[0], positions[step]) == [], step
            assert frame_leaks(html, game, positions, start=step) == [], f"replay {step}"
            assert "secret note" not in html

    check()
    while not position.is_over:
        seat = position.to_move
        turn = a_random_turn(position.copy(), rng)
        # A few notes with the moves, and two written while waiting (a few: a player
        # writes at most 5 a minute).
        note = f"secret note {turns}" if turns in (0, 7, 14) else None
        play_moves(game_id=game.pk, user=players[seat], moves=turn, message=note)
        if turns in (5, 16):
            write_message(game_id=game.pk, user=players[1 - seat], text=MARKUP)
        for move in turn:
            position.play(move)
            positions.append(position.copy())
        turns += 1
        if not position.is_over:
            check()

    # Over: the messages are the game's, shown with it (as text); the export has them.
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    for client in watchers:
        page = client.get(f"/games/{game.pk}/").text
        assert "secret note 0" in page and ESCAPED in page and "<script>alert" not in page
        assert "<form" not in game_of(page)
        export = client.get(f"/games/{game.pk}/export.txt")
        assert export["Content-Type"] == "text/plain; charset=utf-8"
        assert "{A: secret note 0}" in export.text and "[Seed " in export.text
        replay = client.get(f"/games/{game.pk}/replay/", {"step": game.ply}).text
        assert "secret note 0" in replay and ESCAPED in replay
    # The check can fail: the finished game's replay reveals every card, to anyone.
    middle = len(positions) // 4
    revealed = watchers[0].get(f"/games/{game.pk}/replay/", {"step": middle}).text
    assert len(face_down_cards(positions[middle])) > 10
    with pytest.raises(AssertionError):
        spectator_leaks(revealed, positions[middle])
    assert checked == set(range(len(positions) - len(turn)))  # each step while played


# ------------------------------------------------------------------------ the page


def test_the_spectators_table_has_no_form_and_says_who_plays(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    page = browser(charlie).get(f"/games/{game.pk}/")
    assert page.templates[0].name == "games/watch.html"
    table = game_of(page.text)
    assert f"{mover.get_username()} to move, by" in table
    assert "<form" not in table and "<button" not in table and "textarea" not in table
    assert "Your turn" not in table and ", you)" not in table
    assert 'data-polls="1"' in table and "data-messages" not in table
    assert "watching" in page.text and "The players' messages are shown once" in table
    assert 'src="/static/games/table.js"' in page.text  # it polls like a player's page


def test_a_spectator_reads_no_message_while_the_game_is_played(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    play_moves(game_id=game.pk, user=alice, moves=["H4-H6"], message="between us")
    write_message(game_id=game.pk, user=bob, text=MARKUP)
    for client in (browser(charlie), Client()):
        for path in ("", "table/?version=0", "replay/", "replay/?step=1", "export.txt"):
            html = client.get(f"/games/{game.pk}/{path}").text
            assert "between us" not in html and "alert(1)" not in html, path
    resign(game_id=game.pk, user=bob)
    for client in (browser(charlie), Client()):
        page = client.get(f"/games/{game.pk}/").text
        assert "between us" in page and ESCAPED in page and "<b>x</b>" not in page
        assert "Report" not in game_of(page)  # a spectator's page has no form


def test_a_spectators_writes_are_404_and_change_nothing(
    game: Game, alice: User, charlie: User
) -> None:
    version = game.version
    base = f"/games/{game.pk}/"
    posts = [
        ("play/", {"moves": "H4-H6", "version": str(version)}),
        ("resign/", {"confirm": "yes", "version": str(version)}),
        ("stalemate/", {"stalemate": "offer"}),
        ("messages/", {"message": "hello"}),
        ("mail/", {"play_by_mail": "on"}),
    ]
    for path, data in posts:
        for headers in ({}, {"X-Requested-With": "fetch"}):
            response = browser(charlie).post(base + path, data, headers=headers)
            assert response.status_code == 404, path
            assert "data-card" not in response.text
    game.refresh_from_db()
    assert game.version == version and game.message_count == 0


@pytest.mark.parametrize("finished", [False, True])
def test_a_private_game_is_nobody_elses(
    game: Game, alice: User, bob: User, charlie: User, finished: bool
) -> None:
    made_private(game)
    write_message(game_id=game.pk, user=alice, text="just us")
    if finished:
        resign(game_id=game.pk, user=bob)
    for path in ("", "table/", "table/?version=1", "replay/", "replay/?step=0", "export.txt"):
        url = f"/games/{game.pk}/{path}"
        signed_in = browser(charlie).get(url)
        assert signed_in.status_code == 404, url
        assert "just us" not in signed_in.text and "data-card" not in signed_in.text
        signed_out = Client().get(url)
        assert signed_out.status_code == 302, url
        assert signed_out["Location"] == "/accounts/login/?" + urlencode({"next": url}, safe="/")
    # As an id never used: nothing tells a private game from a missing one.
    assert browser(charlie).get("/games/999999/").status_code == 404
    assert Client().get("/games/999999/").status_code == 302
    # Its players see it as ever.
    assert "just us" in browser(bob).get(f"/games/{game.pk}/").text


def test_the_game_page_says_whether_it_may_be_watched(game: Game, alice: User) -> None:
    public = browser(alice).get(f"/games/{game.pk}/").text
    assert ">public</span>" in public
    made_private(game)
    private = browser(alice).get(f"/games/{game.pk}/").text
    assert '<span class="badge" title="Only its players can see it.">private</span>' in private


# ------------------------------------------------------------------------ the poll


def test_a_spectators_idle_poll_is_answered_from_the_cache(
    game: Game,
    alice: User,
    bob: User,
    charlie: User,
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    for client in (Client(), browser(charlie)):
        assert client.get(f"/games/{game.pk}/").status_code == 200
        with django_assert_num_queries(0):
            response = client.get(f"/games/{game.pk}/table/", {"version": game.version})
        assert response.status_code == 204
    shown = game.version
    with django_capture_on_commit_callbacks(execute=True):
        moves = play_turn(game, alice, bob)
    changed = Client().get(f"/games/{game.pk}/table/", {"version": shown})
    assert changed.status_code == 200 and moves[-1] in changed.text
    assert "games/_watch.html" in [template.name for template in changed.templates]
    poll = {"version": game.version}
    with django_assert_num_queries(0):
        assert Client().get(f"/games/{game.pk}/table/", poll).status_code == 204


def test_a_spectators_poll_tells_nothing_of_the_messages(
    game: Game, alice: User, charlie: User, django_capture_on_commit_callbacks: Any
) -> None:
    """Whatever message count a spectator's poll names, the answer is the version's."""
    with django_capture_on_commit_callbacks(execute=True):
        browser(alice).post(f"/games/{game.pk}/messages/", {"message": "hello"})
    client = browser(charlie)
    client.get(f"/games/{game.pk}/")
    for count in ("0", "1", "2"):
        query = {"version": game.version, "messages": count}
        assert client.get(f"/games/{game.pk}/table/", query).status_code == 204, count


# ------------------------------------------------------------------------ the list


def test_the_list_shows_public_games_being_played_filtered_and_paginated(
    alice: User, bob: User, charlie: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    pagat = start_game(alice, bob, seed=1)
    private = made_private(start_game(alice, charlie, seed=3))
    over = start_game(bob, charlie, seed=4)
    resign(game_id=over.pk, user=bob)
    with_charlie = start_game(charlie, bob, seed=5)
    page = Client().get("/watch/")
    assert page.status_code == 200
    listed = [int(pk) for pk in re.findall(r'<li><a href="/games/(\d+)/"', page.text)]
    assert sorted(listed) == sorted([pagat.pk, with_charlie.pk])
    assert private.pk not in listed and over.pk not in listed
    assert "alice v bob" in page.text and "to move" in page.text

    by_player = Client().get("/watch/", {"player": "CHARLIE"}).text
    assert re.findall(r'<li><a href="/games/(\d+)/"', by_player) == [str(with_charlie.pk)]
    assert 'value="CHARLIE"' in by_player
    none = Client().get("/watch/", {"rules": "foster"}).text
    assert "No public game being played matches." in none
    assert '<option value="foster" selected>' in none
    unknown = Client().get("/watch/", {"rules": "<b>nope</b>"})
    assert unknown.status_code == 200 and "<b>nope</b>" not in unknown.text

    monkeypatch.setattr(players, "WATCH_PAGE_SIZE", 1)
    first = Client().get("/watch/", {"player": "bob"}).text
    assert "Page 1 of 2" in first and 'href="?player=bob&amp;page=2"' in first
    second = Client().get("/watch/", {"player": "bob", "page": "2"}).text
    assert "Page 2 of 2" in second and 'href="?player=bob&amp;page=1"' in second
    assert Client().get("/watch/", {"page": "99"}).status_code == 200  # the nearest page


def test_the_sites_navigation_links_to_the_games_being_played(alice: User) -> None:
    for client in (Client(), browser(alice)):
        assert '<a href="/watch/">Watch</a>' in client.get("/rules/").text


# ------------------------------------------------------------------------ choosing


def test_the_new_game_form_offers_a_private_game(alice: User, bob: User) -> None:
    client = browser(alice)
    lobby = client.get("/").text
    assert 'name="private"' in lobby and "Private game: only its players can see it" in lobby
    client.post("/challenges/new/", {**NEW_GAME_FORM, "private": "on"})
    client.post("/challenges/new/", NEW_GAME_FORM)
    private, public = Challenge.objects.order_by("pk")
    assert (private.public, public.public) == (False, True)
    assert "; private)" in client.get("/").text  # the challenge says so in the lobby
    browser(bob).post(f"/challenges/{private.pk}/accept/")
    game = Game.objects.get()
    assert not game.public
    rows = client.get("/").text
    assert f'href="/games/{game.pk}/"' in rows and '<span class="badge">private</span>' in rows
