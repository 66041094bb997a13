"""The HTML pages through Django's test client, three ways: logged out (sent to log in,
nothing changes), as a player (the page and what it does), as a stranger to a private
game (every game URL is a 404 and nothing changes). A public game's spectators:
tests/service/test_spectators_pages.py."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from accounts.models import Profile
from accounts.services import update_profile
from games.engine import PRESETS, IllegalMove
from games.lobby import rules_catalog
from games.lobby.challenges import MAX_PENDING, create_challenge
from games.models import Challenge, Game
from games.play.dealing import start_game
from games.play.services import play_moves, resign
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.words.results import result_line
from tests.hidden_cards import turn_frames_of
from tests.stored import (
    UNEVEN_COUNTS,
    current_turn_of,
    entries_of,
    last_turn_of,
    log_of,
    place,
    position_of,
)

from .conftest import NEW_GAME_FORM, browser, mover_and_other, play_turn

pytestmark = pytest.mark.django_db

#: The seed of the conftest's ``game``: alice (A) moves first; H4-H6 is legal, then R-H4;
#: H1 holds a king, A's reserve top is a seven.
SEED = "20261122"
LEGAL = "H4-H6"
OTHER_LEGAL = "R-H4"
FETCH = {"X-Requested-With": "fetch"}
FORM = NEW_GAME_FORM


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything an action on the game could change."""
    game.refresh_from_db()
    return (
        game.version,
        game.ply,
        game.status,
        game.to_move,
        game.state,
        game.record,
        game.stalemate_offer,
        game.ending,
        entries_of(game),
    )


def section(html: str, heading: str) -> str:
    """The lobby section labelled by ``heading`` (an id)."""
    start = html.index(f'<section aria-labelledby="{heading}"')
    return html[start : html.index("</section>", start)]


def linked_games(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', html)]


def refusal(html: str) -> str:
    found = re.search(r'<p class="refusal" role="alert" id="refusal">(.*?)</p>', html)
    assert found, "no refusal on the page"
    return found.group(1)


def login_url(path: str) -> str:
    return "/accounts/login/?" + urlencode({"next": path}, safe="/")


def game_gets(game: Game) -> list[str]:
    base = f"/games/{game.pk}/"
    return [
        base,
        base + "table/",
        base + "table/?version=1",
        base + "replay/",
        base + "replay/?step=0",
        base + "export.txt",
    ]


def game_posts(game: Game) -> list[tuple[str, dict[str, str]]]:
    base = f"/games/{game.pk}/"
    version = str(game.version)
    return [
        (base + "play/", {"moves": LEGAL, "version": version}),
        (base + "resign/", {"confirm": "yes", "version": version}),
        (base + "stalemate/", {"stalemate": "offer"}),
        (base + "stalemate/", {"stalemate": "accept"}),
        (base + "stalemate/", {"stalemate": "decline"}),
    ]


def finish(game: Game, loser: User) -> None:
    resign(game_id=game.pk, user=loser)
    game.refresh_from_db()


def made_private(game: Game) -> Game:
    """The game as its challenge would have made it with "Private game" ticked: its
    players' alone (a public game is anyone's to watch)."""
    Game.objects.filter(pk=game.pk).update(public=False)
    game.refresh_from_db()
    return game


# ------------------------------------------------------------------------ logged out


def test_logged_out_the_lobby_is_the_welcome_page(game: Game) -> None:
    response = browser(None).get("/")
    assert response.status_code == 200
    assert "Russian Bank, one turn a day" in response.text
    assert 'href="/accounts/signup/"' in response.text
    assert "My games</h1>" not in response.text and f"/games/{game.pk}/" not in response.text


def test_the_rules_page_is_for_everyone(alice: User) -> None:
    for user in (None, alice):
        response = browser(user).get("/rules/")
        assert response.status_code == 200
        assert "pagat" in response.text


@pytest.mark.parametrize("finished", [False, True])
def test_logged_out_every_game_page_asks_to_log_in(game: Game, bob: User, finished: bool) -> None:
    made_private(game)
    if finished:
        finish(game, bob)
    for path in game_gets(game):
        response = browser(None).get(path)
        assert response.status_code == 302, path
        assert response["Location"] == login_url(path)
        assert SEED not in response.text


def test_logged_out_posts_change_nothing(game: Game, alice: User, bob: User) -> None:
    """Public or not, a game's actions are its players' (a public game's spectator
    only watches)."""
    challenge = create_challenge(alice, opponent="bob")
    before = snapshot(game)
    client = browser(None)
    posts = [
        ("/challenges/new/", FORM),
        *((f"/challenges/{challenge.pk}/{action}/", {}) for action in ("accept", "decline")),
        (f"/challenges/{challenge.pk}/cancel/", {}),
        *game_posts(game),
    ]
    for path, data in posts:
        response = client.post(path, data)
        assert response.status_code == 302 and response["Location"] == login_url(path), path
    assert snapshot(game) == before
    assert list(Challenge.objects.values_list("pk", "status")) == [(challenge.pk, "pending")]


# ------------------------------------------------------------------------ strangers


@pytest.mark.parametrize("finished", [False, True])
def test_a_stranger_gets_404_for_every_game_url(
    game: Game, bob: User, charlie: User, finished: bool
) -> None:
    made_private(game)
    if finished:
        finish(game, bob)
    before = snapshot(game)
    client = browser(charlie)
    for path in game_gets(game):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response["Content-Type"].startswith("text/html")
        assert "a game you do not play in" in response.text
        assert SEED not in response.text and "data-card" not in response.text
    for path, data in game_posts(game):
        for headers in ({}, FETCH):
            response = client.post(path, data, headers=headers)
            assert response.status_code == 404, (path, data, headers)
            assert "data-card" not in response.text
    assert snapshot(game) == before


def test_a_stranger_cannot_answer_someone_elses_challenge(
    alice: User, bob: User, charlie: User
) -> None:
    challenge = create_challenge(alice, opponent="bob")
    client = browser(charlie)
    for action in ("accept", "decline", "cancel"):
        response = client.post(f"/challenges/{challenge.pk}/{action}/", follow=True)
        assert response.redirect_chain == [("/", 302)]
        assert "no such challenge" in response.text
    challenge.refresh_from_db()
    assert challenge.status == "pending" and not Game.objects.exists()


# ---------------------------------------------------------------------------- lobby


def test_the_lobby_lists_turns_by_deadline_then_waiting_challenges_and_finished_games(
    alice: User, bob: User, charlie: User
) -> None:
    dave = User.objects.create_user("dave", "dave@example.com", "pw-dave-123")
    now = timezone.now()
    mine = [start_game(alice, opponent, seed=int(SEED)) for opponent in (bob, dave, bob)]
    for game, days in zip(mine, (3, 1, 2), strict=True):
        Game.objects.filter(pk=game.pk).update(deadline=now + timedelta(days=days))
    theirs = start_game(dave, alice, seed=int(SEED))  # dave (A) moves first
    done = start_game(alice, dave, seed=int(SEED))
    finish(done, dave)
    start_game(bob, dave, seed=int(SEED))  # not alice's
    received = create_challenge(dave, opponent="alice", match_target=100)
    sent = create_challenge(alice, opponent="bob")
    invited = create_challenge(alice, email="dora@example.com")
    my_open = create_challenge(alice, is_open=True)
    open_ = create_challenge(charlie, is_open=True)
    create_challenge(bob, opponent="dave")  # not alice's

    html = browser(alice).get("/").text

    turn, waiting = section(html, "turn-h"), section(html, "waiting-h")
    assert html.index(turn) < html.index(waiting) < html.index(section(html, "finished-h"))
    assert linked_games(turn) == [mine[1].pk, mine[2].pk, mine[0].pk]  # soonest deadline first
    assert linked_games(waiting) == [theirs.pk]
    assert linked_games(section(html, "finished-h")) == [done.pk]
    assert done.score is not None
    won = done.score["A"]
    assert f"You won: dave resigned · {won}-0" in section(html, "finished-h")
    lost = browser(dave).get("/").text
    assert f"You lost: you resigned · 0-{won}" in section(lost, "finished-h")
    assert f'href="/games/{done.pk}/replay/"' in html

    for_me = section(html, "received-h")
    assert "dave invites you to a match to 100 points" in for_me
    assert f'action="/challenges/{received.pk}/accept/"' in for_me
    assert f'action="/challenges/{received.pk}/decline/"' in for_me

    pending = section(html, "pending-h")
    assert "You invited bob" in pending and "You invited dora@example.com" in pending
    assert "You invited anyone (open challenge)" in pending
    for challenge in (sent, invited, my_open):
        assert f'action="/challenges/{challenge.pk}/cancel/"' in pending
    assert "charlie (1500?) offers a game to anyone" in pending
    assert f'action="/challenges/{open_.pk}/accept/"' in pending
    assert f"/challenges/{my_open.pk}/accept/" not in html  # one's own open challenge
    assert f'action="/challenges/{open_.pk}/cancel/"' not in html
    assert len(re.findall(r'action="/challenges/\d+/', html)) == 6  # bob's to dave: not here


@pytest.mark.parametrize(
    ("zone", "written"),
    [
        ("Europe/Paris", "Thu 27 Nov, 20:11 CET"),
        ("UTC", "Thu 27 Nov, 19:11 UTC"),
        # A zone abbreviated only as an offset ("-03") is named by its key.
        ("America/Sao_Paulo", "Thu 27 Nov, 16:11 (America/Sao_Paulo)"),
    ],
)
def test_it_writes_times_in_the_profiles_zone_and_names_it(
    game: Game, alice: User, zone: str, written: str
) -> None:
    update_profile(alice, {"time_zone": zone})
    when = datetime(2036, 11, 27, 19, 11, tzinfo=UTC)
    Game.objects.filter(pk=game.pk).update(deadline=when)
    Profile.objects.filter(user=alice).update(vacation_until=when)
    for path in ("/", f"/games/{game.pk}/", f"/games/{game.pk}/table/", "/account/vacation/"):
        html = browser(alice).get(path).text
        assert f'datetime="{when.isoformat()}">' in html, path
        assert (written if path != "/account/vacation/" else written.split(", ")[1]) in html, path


def test_an_empty_lobby_says_so(alice: User) -> None:
    html = browser(alice).get("/").text
    assert "No game is waiting for you." in html and "None yet." in html
    assert 'aria-labelledby="received-h"' not in html and 'aria-labelledby="pending-h"' not in html
    assert 'action="/challenges/new/"' in html


@pytest.mark.parametrize(
    ("opponent", "message"),
    [
        ("bob", "Challenge sent to bob."),
        ("  BOB ", "Challenge sent to BOB."),
        ("dora@example.com", "Invitation sent to dora@example.com."),
        ("", "Your open challenge is waiting for a taker."),
    ],
)
def test_the_new_game_form_creates_a_challenge(
    alice: User, bob: User, opponent: str, message: str
) -> None:
    response = browser(alice).post("/challenges/new/", {**FORM, "opponent": opponent}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert message in response.text
    challenge = Challenge.objects.get()
    assert challenge.challenger == alice and challenge.status == "pending"
    assert challenge.opponent == (bob if opponent.strip().lower() == "bob" else None)
    assert challenge.email == ("dora@example.com" if "@" in opponent else "")
    assert challenge.is_open == (not opponent)
    assert f'action="/challenges/{challenge.pk}/cancel/"' in response.text


#: Notes for the rules reference that players must not read on a page: a variant's id,
#: a source text's number, the reference's file and sections, a source's page.
SOURCE_NOTES = re.compile(r"\bV\d+\b|\bseeds? \d{3}|RULES\.md|§|\bp\.\s?\d")


def test_the_rules_menus_name_each_preset_in_words(alice: User) -> None:
    """The menus of rules (play the computer, a new game, the public games' filter) show
    each preset's name, never its id (``foster-one-pack``), which stays the value sent."""
    names = dict(rules_catalog.PRESET_NAMES)
    assert set(names) == set(PRESETS)  # a new preset needs its name
    menus = {
        "computer-rules": browser(alice).get("/").text,
        "id_rules": browser(alice).get("/").text,
        "watch-rules": browser(None).get("/watch/").text,
    }
    for menu, html in menus.items():
        select = html[html.index(f'id="{menu}"') :]
        select = select[: select.index("</select>")]
        shown = dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', select))
        assert set(shown) == set(PRESETS), menu
        for preset, text in shown.items():
            assert text == escape(names[preset]) != preset, (menu, preset, text)


def test_it_words_the_rule_options_for_players(alice: User) -> None:
    html = browser(alice).get("/").text
    form = html[html.index('<form method="post" action="/challenges/new/"') :]
    form = form[: form.index("</form>")]
    assert SOURCE_NOTES.findall(form) == []
    for option in rules_catalog.options():
        field = form[form.index(f'data-field="opt_{option.name}"') :]
        field = field.split('<div class="field"')[0]
        assert f">{option.label}</label>" in field
        helptext = f'<p class="help" id="id_opt_{option.name}_helptext">'
        assert helptext + escape(option.help) + "</p>" in field
        assert f'aria-describedby="id_opt_{option.name}_helptext"' in field
    for preset in rules_catalog.presets_in_plain_words():
        assert f'<option value="{preset["name"]}"' in form
        assert f"<dd>{escape(preset['description'])}</dd>" in form
    rules_page = browser(None).get("/rules/").text
    presets = rules_page[rules_page.index('<section id="presets"') :]
    assert SOURCE_NOTES.findall(presets) == []


def test_the_new_game_form_keeps_the_time_control_and_match(alice: User, bob: User) -> None:
    data = {
        **FORM,
        "control": "bank",
        "bank_initial_days": "30",
        "bank_increment_days": "0",
        "weekend_pause": "on",
        "match_target": "200",
    }
    assert browser(alice).post("/challenges/new/", data).status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.time_control, challenge.bank_initial_days, challenge.bank_cap_days) == (
        "bank",
        30,
        30,
    )
    assert challenge.bank_increment_days == 0 and challenge.weekend_pause
    assert challenge.match_target == 200
    html = browser(bob).get("/").text
    assert "a match to 200 points" in html and "a time bank of 30 days, +0 a turn" in html


@pytest.mark.parametrize(
    ("changes", "status", "message"),
    [
        ({"days_per_turn": "0"}, 400, "Ensure this value is greater than or equal to 1."),
        ({"days_per_turn": "15"}, 400, "Ensure this value is less than or equal to 14."),
        ({"days_per_turn": "three"}, 400, "Enter a whole number."),
        ({"days_per_turn": "9" * 40}, 400, "Ensure this value is less than or equal to 14."),
        ({"bank_initial_days": ""}, 400, "This field is required."),
        ({"match_target": "-5"}, 400, "Ensure this value is greater than or equal to 1."),
        ({"match_target": "1.5"}, 400, "Enter a whole number."),
        ({"rules": "poker"}, 400, "Select a valid choice."),
        ({"control": "hourglass"}, 400, "Select a valid choice."),
        ({"opponent": "nobody"}, 400, "there is no player called 'nobody'"),
        ({"opponent": "alice"}, 400, "you cannot challenge yourself"),
        ({"opponent": "dora@"}, 400, "'dora@' is not an e-mail address"),
        ({"opponent": "x" * 255}, 400, "Ensure this value has at most 254 characters"),
        ({"opt_reserve_size": "99"}, 400, "Select a valid choice."),
        ({"second_opponent": "charlie"}, 400, "the pagat rules are for two players"),
        ({"rules": "three-player"}, 400, "names both opponents"),
        ({"rules": "three-player", "second_opponent": "nobody"}, 400, "no player called 'nobody'"),
        ({"rules": "three-player", "second_opponent": "bob"}, 400, "name two different opponents"),
        ({"rules": "three-player", "second_opponent": "alice"}, 400, "cannot challenge yourself"),
    ],
)
def test_bad_new_game_input_is_shown_and_creates_nothing(
    alice: User, bob: User, changes: dict[str, str], status: int, message: str
) -> None:
    response = browser(alice).post("/challenges/new/", {**FORM, **changes})
    assert response.status_code == status  # the form again, never a 404 for the page
    assert escape(message) in response.text
    assert 'role="alert"' in response.text and "My games</h1>" in response.text
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"opponent": "nobody"}, "opponent"),
        ({"opponent": "dora@"}, "opponent"),
        ({"opponent": "alice"}, "opponent"),
        ({"rules": "three-player", "second_opponent": "nobody"}, "second_opponent"),
        ({"rules": "three-player", "opponent": "nobody", "second_opponent": "bob"}, "opponent"),
        ({"rules": "three-player", "second_opponent": "ALICE"}, "second_opponent"),
    ],
)
def test_it_shows_a_refused_opponent_beside_its_field(
    alice: User, bob: User, changes: dict[str, str], field: str
) -> None:
    html = browser(alice).post("/challenges/new/", {**FORM, **changes}).text
    box = html[html.index(f'id="id_{field}"') :]
    box = box[: box.index('<div class="field"')]
    assert '<div class="error" role="alert">' in box, field


def test_it_keeps_a_refusal_past_the_limit_in_the_form(alice: User, bob: User) -> None:
    for _ in range(MAX_PENDING):
        create_challenge(alice, opponent="bob")
    response = browser(alice).post("/challenges/new/", FORM)
    assert response.status_code == 400
    assert f"at most {MAX_PENDING} pending challenges" in response.text
    assert Challenge.objects.count() == MAX_PENDING


# -------------------------------------------------------------- answering challenges


def test_accepting_a_challenge_opens_the_game(alice: User, bob: User) -> None:
    challenge = create_challenge(alice, opponent="bob")
    response = browser(bob).post(f"/challenges/{challenge.pk}/accept/")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.user_at(0), game.user_at(1)) == (alice, bob)
    assert "you are B" in browser(bob).get(response["Location"]).text
    again = browser(bob).post(f"/challenges/{challenge.pk}/accept/", follow=True)
    assert again.redirect_chain == [("/", 302)] and "this challenge is accepted" in again.text
    assert Game.objects.count() == 1


def test_declining_and_cancelling_challenges(alice: User, bob: User) -> None:
    to_decline = create_challenge(alice, opponent="bob")
    to_cancel = create_challenge(alice, opponent="bob")
    wrong = [
        (alice, f"/challenges/{to_decline.pk}/accept/", "you cannot answer your own challenge"),
        (bob, f"/challenges/{to_cancel.pk}/cancel/", "no such challenge"),
        (alice, "/challenges/999999/accept/", "no such challenge"),
    ]
    for user, path, message in wrong:
        response = browser(user).post(path, follow=True)
        assert response.redirect_chain == [("/", 302)] and message in response.text
    assert set(Challenge.objects.values_list("status", flat=True)) == {"pending"}

    declined = browser(bob).post(f"/challenges/{to_decline.pk}/decline/", follow=True)
    assert "Challenge declined." in declined.text
    cancelled = browser(alice).post(f"/challenges/{to_cancel.pk}/cancel/", follow=True)
    assert "Challenge cancelled." in cancelled.text
    assert f"/challenges/{to_cancel.pk}/" not in cancelled.text  # gone from the lobby
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {to_decline.pk: "declined", to_cancel.pk: "cancelled"}
    assert not Game.objects.exists()


def test_an_open_challenge_is_accepted_not_declined(alice: User, bob: User) -> None:
    challenge = create_challenge(alice, is_open=True)
    declined = browser(bob).post(f"/challenges/{challenge.pk}/decline/", follow=True)
    assert "an open challenge is not declined" in declined.text
    response = browser(bob).post(f"/challenges/{challenge.pk}/accept/")
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert (game.user_at(0), game.user_at(1)) == (alice, bob)


def test_pages_refuse_the_wrong_method(game: Game, alice: User) -> None:
    client = browser(alice)
    for path in ("/challenges/new/", f"/games/{game.pk}/play/", f"/games/{game.pk}/resign/"):
        assert client.get(path).status_code == 405, path
    for path in (f"/games/{game.pk}/", f"/games/{game.pk}/replay/", f"/games/{game.pk}/table/"):
        assert client.post(path).status_code == 405, path


# ----------------------------------------------------------------------- the table


def test_the_player_to_move_sees_the_table_and_the_buttons(game: Game, alice: User) -> None:
    response = browser(alice).get(f"/games/{game.pk}/")
    html = response.text
    assert response.status_code == 200
    assert "you are A" in html and "Your turn" in html
    assert html.index("bob's cards") < html.index("alice's cards")  # you: bottom
    assert f'data-version="{game.version}"' in html and 'data-my-turn="1"' in html
    assert re.search(r'<button name="moves" value="T" class="primary"\s*>', html)  # enabled
    assert 'id="move-form"' in html and f'name="version" value="{game.version}"' in html
    assert re.search(r'<button type="button" class="pile[^"]*" id="pile-H4"', html)
    legal = re.search(r'<script id="legal-moves" type="application/json">(.*?)</script>', html)
    assert legal and LEGAL in legal.group(1)
    assert 'name="confirm" value="yes"' in html and 'value="offer"' in html
    assert game.seed_hash in html and SEED not in html
    assert f'href="/games/{game.pk}/export.txt"' in html


def test_it_shows_the_cards_left_and_names_the_scoring_count(game: Game, alice: User) -> None:
    """At the deal each seat holds 13 reserve and 35 hand cards: 48 cards, counted 61 for
    scoring (2 a reserve card). The page once called the 61 "cards to get rid of"."""
    html = browser(alice).get(f"/games/{game.pk}/").text
    for name in ("alice", "bob"):
        who = re.search(rf'<p class="who"><strong[^>]*>{name}</strong>(.*?)</p>', html)
        assert who, name
        assert "48 cards left" in who.group(1) and "scoring count 61" in who.group(1)
    assert "61 cards" not in html


def test_the_waiting_player_sees_the_table_without_moves(game: Game, bob: User) -> None:
    html = browser(bob).get(f"/games/{game.pk}/").text
    assert "you are B" in html and "Waiting for alice" in html
    assert html.index("alice's cards") < html.index("bob's cards")
    assert 'data-my-turn="0"' in html
    assert 'id="move-form"' not in html and 'id="legal-moves"' not in html
    assert '<button type="button" class="pile' not in html
    assert 'id="pile-H4"' in html and 'data-card="TD"' in html
    assert 'name="confirm" value="yes"' in html  # may still resign or offer a stalemate


def test_a_legal_move_without_the_script_redirects_to_the_game(game: Game, alice: User) -> None:
    response = browser(alice).post(f"/games/{game.pk}/play/", {"moves": LEGAL, "version": "1"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert snapshot(game)[:2] == (2, 1) and current_turn_of(game) == [LEGAL]
    assert "This turn so far: <code>H4-H6</code>" in browser(alice).get(response["Location"]).text


def test_a_legal_move_with_the_script_answers_the_fragment(game: Game, alice: User) -> None:
    response = browser(alice).post(
        f"/games/{game.pk}/play/", {"moves": LEGAL, "version": "1"}, headers=FETCH
    )
    assert response.status_code == 200 and "X-Refused" not in response
    assert response.text.lstrip().startswith('<div id="game-state" data-version="2"')
    assert "<html" not in response.text and "<body" not in response.text
    assert entries_of(game) == [LEGAL]


def test_several_moves_are_played_in_one_post(game: Game, alice: User) -> None:
    response = browser(alice).post(
        f"/games/{game.pk}/play/", {"moves": f"{LEGAL}, {OTHER_LEGAL}", "version": "1"}
    )
    assert response.status_code == 302
    assert snapshot(game)[-1] == [LEGAL, OTHER_LEGAL] and game.version == 2


def engine_refusal(game: Game, moves: str) -> tuple[str, str]:
    """The engine's code and words for the first refused move of ``moves`` on the table."""
    position = position_of(game)
    for text in moves.split():
        try:
            position.play(text)
        except IllegalMove as exc:
            return exc.code, f"{text}: {exc.message}"
    raise AssertionError(f"{moves} is legal")


@pytest.mark.parametrize(
    ("moves", "code"),
    [
        ("H1-H1", "S4"),  # a king on a king
        ("R-F1", "S4"),  # a seven on an empty foundation
        ("C-W", "NO_TURNED_CARD"),
        ("XYZ", "BAD_NOTATION"),
        ("H9-F1", "BAD_NOTATION"),
        ("H²-F1", "BAD_NOTATION"),
        (f"{LEGAL} H1-H1", "S4"),  # all or none: the legal first move is not played either
    ],
)
def test_a_refused_move_is_explained_in_words_and_changes_nothing(
    game: Game, alice: User, moves: str, code: str
) -> None:
    assert engine_refusal(game, moves)[0] == code
    message = engine_refusal(game, moves)[1]
    assert len(message.split()) >= 4  # words, not a code
    before = snapshot(game)
    client = browser(alice)
    response = client.post(f"/games/{game.pk}/play/", {"moves": moves, "version": "1"})
    assert response.status_code == 409  # the rules refuse it here and now
    assert refusal(response.text) == escape(message)
    assert "Your turn" in response.text and 'data-version="1"' in response.text
    scripted = client.post(
        f"/games/{game.pk}/play/", {"moves": moves, "version": "1"}, headers=FETCH
    )
    assert scripted.status_code == 200 and scripted["X-Refused"] == code
    assert refusal(scripted.text) == escape(message)
    # What was typed stays in the box, to be corrected rather than typed again.
    for page in (response.text, scripted.text):
        assert f'id="moves-input" name="moves" value="{escape(moves)}"' in page
    assert snapshot(game) == before


@pytest.mark.parametrize("moves", ["", "  ,  "])
def test_no_move_at_all_is_refused(game: Game, alice: User, moves: str) -> None:
    before = snapshot(game)
    response = browser(alice).post(f"/games/{game.pk}/play/", {"moves": moves, "version": "1"})
    assert response.status_code == 400 and refusal(response.text) == "send at least one move"
    assert snapshot(game) == before


def test_a_stale_version_plays_nothing(game: Game, alice: User) -> None:
    client = browser(alice)
    played = client.post(f"/games/{game.pk}/play/", {"moves": LEGAL, "version": "1"})
    assert played.status_code == 302
    before = snapshot(game)
    response = client.post(f"/games/{game.pk}/play/", {"moves": OTHER_LEGAL, "version": "1"})
    assert response.status_code == 412
    assert refusal(response.text).startswith(
        "The game has moved on since this page was loaded, so nothing was played."
    )
    assert 'data-version="2"' in response.text  # the table as it is now
    scripted = client.post(
        f"/games/{game.pk}/play/", {"moves": OTHER_LEGAL, "version": "1"}, headers=FETCH
    )
    assert scripted.status_code == 200 and scripted["X-Refused"] == "STALE_VERSION"
    assert snapshot(game) == before


@pytest.mark.parametrize("version", ["abc", "-1", "1.0", "١", "9" * 30])
def test_a_malformed_version_plays_nothing(game: Game, alice: User, version: str) -> None:
    before = snapshot(game)
    response = browser(alice).post(f"/games/{game.pk}/play/", {"moves": LEGAL, "version": version})
    assert response.status_code == 400 and "version" in refusal(response.text)
    assert snapshot(game) == before


def test_a_double_submit_plays_once(game: Game, alice: User) -> None:
    client = browser(alice)
    form = {"moves": LEGAL, "version": "1"}
    first = client.post(f"/games/{game.pk}/play/", form, headers=FETCH)
    second = client.post(f"/games/{game.pk}/play/", form, headers=FETCH)
    assert "X-Refused" not in first and second["X-Refused"] == "STALE_VERSION"
    assert snapshot(game)[0:2] == (2, 1)
    assert entries_of(game) == [LEGAL]


def test_the_waiting_player_cannot_move(game: Game, bob: User) -> None:
    before = snapshot(game)
    response = browser(bob).post(f"/games/{game.pk}/play/", {"moves": LEGAL, "version": "1"})
    assert response.status_code == 409
    assert refusal(response.text) == "it is your opponent&#x27;s turn"
    assert snapshot(game) == before


def test_polling_answers_204_until_the_version_changes(
    game: Game, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    for user in (alice, bob):
        client = browser(user)
        unchanged = client.get(f"/games/{game.pk}/table/", {"version": "1"})
        assert unchanged.status_code == 204 and unchanged.content == b""
        for query in ({"version": "0"}, {}, {"version": "abc"}):
            response = client.get(f"/games/{game.pk}/table/", query)
            assert response.status_code == 200
            assert response.text.lstrip().startswith('<div id="game-state" data-version="1"')
    with django_capture_on_commit_callbacks(execute=True):  # the cache learns of it
        play_moves(game_id=game.pk, user=alice, moves=[LEGAL])
    changed = browser(bob).get(f"/games/{game.pk}/table/", {"version": "1"})
    assert changed.status_code == 200 and 'data-version="2"' in changed.text
    assert "<html" not in changed.text
    assert browser(bob).get(f"/games/{game.pk}/table/", {"version": "2"}).status_code == 204


# ------------------------------------------------------------- resign and stalemate


def test_resigning_needs_the_box_ticked(game: Game, alice: User, bob: User) -> None:
    before = snapshot(game)
    client = browser(bob)  # the waiting player may resign too
    response = client.post(f"/games/{game.pk}/resign/", {"version": "1"})
    assert response.status_code == 400
    assert refusal(response.text) == "tick the box to confirm that you resign"
    scripted = client.post(f"/games/{game.pk}/resign/", {"version": "1"}, headers=FETCH)
    assert scripted.status_code == 200 and scripted["X-Refused"] == "BAD_REQUEST"
    stale = client.post(f"/games/{game.pk}/resign/", {"confirm": "yes", "version": "0"})
    assert stale.status_code == 412
    assert snapshot(game) == before

    done = client.post(f"/games/{game.pk}/resign/", {"confirm": "yes", "version": "1"}, follow=True)
    assert done.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert "You resigned the game." in done.text
    game.refresh_from_db()
    assert game.status == "won" and game.ending == "resigned"
    assert log_of(game) == [("B", "resigns")]
    assert game.score is not None
    won = game.score["A"]
    lines = {alice: f"You won: bob resigned · {won}-0", bob: f"You lost: you resigned · 0-{won}"}
    for user, line in lines.items():
        html = browser(user).get(f"/games/{game.pk}/").text
        assert f'<p class="result"><strong>{line}</strong>' in html
        assert "Replay the whole game with the deal revealed" in html
        assert 'name="confirm"' not in html and 'id="move-form"' not in html
    again = client.post(f"/games/{game.pk}/resign/", {"confirm": "yes"})
    assert again.status_code == 409 and refusal(again.text) == "the game is over"


def test_a_stalemate_offer_declined_then_accepted(game: Game, alice: User, bob: User) -> None:
    url = f"/games/{game.pk}/stalemate/"
    before = snapshot(game)
    unconfirmed = browser(alice).post(url, {"stalemate": "offer"})
    assert unconfirmed.status_code == 400
    assert refusal(unconfirmed.text).startswith("tick the box to confirm")
    assert snapshot(game) == before
    offered = browser(alice).post(url, {"stalemate": "offer", "confirm": "yes"}, follow=True)
    assert "Your offer is sent: if it is agreed, the game ends, scored by the counts." in (
        offered.text
    )
    assert "You have offered to end the game now, scored by the counts; bob has not" in (
        offered.text
    )
    game.refresh_from_db()
    assert game.stalemate_offer == "A"
    bob_sees = browser(bob).get(f"/games/{game.pk}/").text
    assert 'id="stalemate-offer"' in bob_sees and "alice offers to end the game" in bob_sees

    wrong = [
        (alice, "offer", 409, "you have already agreed to a stalemate"),
        (alice, "accept", 409, "no stalemate offer awaits your answer"),
        (bob, "offer", 409, "your opponent has offered a stalemate: accept or decline it"),
        (bob, "shrug", 400, "offer, accept or decline ending the game by the counts"),
        (bob, "", 400, "offer, accept or decline ending the game by the counts"),
    ]
    before = snapshot(game)
    for user, action, status, message in wrong:
        response = browser(user).post(url, {"stalemate": action, "confirm": "yes"})
        assert response.status_code == status and refusal(response.text) == message
    unconfirmed = browser(bob).post(url, {"stalemate": "accept"})
    assert unconfirmed.status_code == 400
    assert snapshot(game) == before

    declined = browser(bob).post(url, {"stalemate": "decline"}, headers=FETCH)
    assert declined.status_code == 200 and "stalemate-offer" not in declined.text
    game.refresh_from_db()
    assert game.stalemate_offer == "" and game.status == "playing"
    assert "offers to end the game" not in browser(bob).get(f"/games/{game.pk}/").text

    browser(alice).post(url, {"stalemate": "offer", "confirm": "yes"})
    accepted = browser(bob).post(url, {"stalemate": "accept", "confirm": "yes"}, follow=True)
    assert "Agreed: the game is over, scored by the counts." in accepted.text
    game.refresh_from_db()
    assert game.status == "stalemate" and game.ending == "agreed"
    assert game.score is not None
    line = result_line(game, 1)
    assert f"<strong>{escape(line)}</strong>" in accepted.text


def counts_and_terms(html: str) -> tuple[str, str]:
    """The counts and what an agreement would give, as a page says them."""
    counts = re.search(r'<span id="stalemate-counts">([^<]*)</span>', html)
    terms = re.search(r'id="stalemate-if-agreed">([^<]*)<', html)
    assert counts is not None and terms is not None, html
    return counts[1], terms[1]


def test_the_page_says_what_an_agreement_would_score_before_it_is_offered(
    game: Game, alice: User, bob: User
) -> None:
    """A stalemate is scored by the counts (R8.3), not as a draw: before offering, and
    before accepting, the page shows each seat's count and the result an agreement
    would give, from the engine (``Position.stalemate_score``); the result is then
    worded from each side."""
    place(game, UNEVEN_COUNTS)
    position = position_of(game)
    assert [seat.count for seat in position.seats] == [6, 2]
    assert position.stalemate_score() == [0, 4]  # bob's count is the lower
    html = browser(alice).get(f"/games/{game.pk}/").text
    assert counts_and_terms(html) == (
        "Counts now (1 for each hand or waste card, 2 for each reserve card): you 6, bob 2.",
        "Agreed now, the game ends 0-4: bob has the lower count, so you would lose.",
    )
    assert 'name="confirm" value="yes" id="confirm-stalemate" required' in html
    assert not game.rated and "The game is rated" not in html
    Game.objects.filter(pk=game.pk).update(rated=True)
    assert "The game is rated: its result moves your rating." in (
        browser(alice).get(f"/games/{game.pk}/").text
    )

    offer_stalemate(game_id=game.pk, user=alice)
    answering = browser(bob).get(f"/games/{game.pk}/").text
    assert (
        '<p id="stalemate-if-agreed" title="Agreed now, the game ends 4-0: you have the '
        'lower count, so you would win.">alice offers to end the game now, scored by the '
        "counts: 4-0, you would win.</p>"
    ) in answering
    assert "(scoring count 2)" in answering and "(scoring count 6)" in answering  # on the table
    answer_stalemate(game_id=game.pk, user=bob, accept=True)
    game.refresh_from_db()
    assert result_line(game, 0) == "You lost: stalemate agreed, bob had the lower count · 0-4"
    assert result_line(game, 1) == "You won: stalemate agreed, you had the lower count · 4-0"
    assert result_line(game, None) == (
        "bob won: stalemate agreed, bob had the lower count · alice 0, bob 4"
    )


# ------------------------------------------------------------------------- replay


#: Characters many machines draw only with an emoji font (the media controls ⏩-⏺, and
#: the pictographs past U+1F000): without one, an empty box. The pages draw icons as SVG.
NEEDS_AN_EMOJI_FONT = re.compile("[\u2300-\u23ff\U0001f000-\U0001ffff]")


def test_no_page_writes_a_character_that_needs_an_emoji_font() -> None:
    root = Path(__file__).resolve().parents[2]
    files = [*(root / "templates").rglob("*.html"), *(root / "games" / "static").rglob("*.*")]
    found = [
        f"{path.relative_to(root)}: {char!r}"
        for path in files
        if path.suffix in (".html", ".js", ".css")
        for char in NEEDS_AN_EMOJI_FONT.findall(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def play_some(game: Game, alice: User, bob: User, turns: int) -> None:
    for _ in range(turns):
        play_turn(game, alice, bob)


def test_the_replay_of_a_game_under_way_is_the_last_turn_and_the_current_one(
    game: Game, alice: User, bob: User
) -> None:
    play_some(game, alice, bob, 3)
    mover, _ = mover_and_other(game, alice, bob)
    position = position_of(game)
    move = next(str(m) for m in position.legal_moves() if str(m) not in ("C-W", "E"))
    play_moves(game_id=game.pk, user=mover, moves=[move])
    game.refresh_from_db()
    first = game.ply - 1 - len(last_turn_of(game)["moves"])
    assert first > 0
    for user in (alice, bob):
        client = browser(user)
        start = client.get(f"/games/{game.pk}/replay/")
        assert start.status_code == 200
        assert f"Step {first} of {game.ply}: " in start.text
        assert f'<ol class="movelist" start="{first + 1}">' in start.text
        steps = {int(s) for s in re.findall(r'href="\?step=(\d+)"', start.text)}
        assert steps == set(range(first + 1, game.ply + 1))  # nothing earlier is offered
        assert 'id="result-h"' not in start.text and SEED not in start.text
        assert "The face-down cards" not in start.text
        last = client.get(f"/games/{game.pk}/replay/", {"step": game.ply}).text
        assert f"Step {game.ply} of {game.ply}: {game.to_move} played <code>{move}</code>" in last
        clamped = {
            "0": first,
            str(first - 1): first,
            str(game.ply + 1): game.ply,
            "99999999": game.ply,
            "-1": first,
            "abc": first,
            "٣": first,
            "3.0": first,
            "9" * 40: first,
            "": first,
        }
        for raw, expected in clamped.items():
            response = client.get(f"/games/{game.pk}/replay/", {"step": raw})
            assert response.status_code == 200, raw
            assert f"Step {expected} of {game.ply}" in response.text, raw


def test_the_replay_of_a_finished_game_starts_at_the_deal_with_the_seed(
    game: Game, alice: User, bob: User
) -> None:
    play_some(game, alice, bob, 2)
    finish(game, alice)
    score = position_of(game).score
    assert score is not None and score[0] == 0 and score[1] > 50
    for user in (alice, bob):
        client = browser(user)
        deal_page = client.get(f"/games/{game.pk}/replay/", {"step": "0"}).text
        assert f"Step 0 of {game.ply}: the deal" in deal_page
        assert '<ol class="movelist" start="1">' in deal_page
        assert "The face-down cards at this step" in deal_page
        table, frames = turn_frames_of(deal_page)  # the steps after it, played out
        assert frames  # the playback from the deal
        assert table.count("data-card=") == 104 + 2  # reserve tops on the table and listed
        assert f"<dt>Seed</dt><dd><code>{SEED}</code></dd>" in deal_page
        assert "✓ The seed matches the commitment" in deal_page
        line = {
            alice: f"You lost: you resigned · 0-{score[1]}",
            bob: f"You won: alice resigned · {score[1]}-0",
        }[user]
        assert line in section(deal_page, "result-h")
        default = client.get(f"/games/{game.pk}/replay/").text
        assert f"Step 0 of {game.ply}: the deal" in default
        end = client.get(f"/games/{game.pk}/replay/", {"step": game.ply}).text
        assert "A played <code>resigns</code>" in end
    Game.objects.filter(pk=game.pk).update(seed_hash="0" * 64)
    tampered = browser(alice).get(f"/games/{game.pk}/replay/").text
    assert "✗ The seed does not match the commitment." in tampered


# ------------------------------------------------------------------------- export


def test_the_export_is_text_with_the_moves_and_the_seed_once_over(
    game: Game, alice: User, bob: User
) -> None:
    first = play_turn(game, alice, bob)
    second = play_turn(game, alice, bob)
    response = browser(bob).get(f"/games/{game.pk}/export.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'inline; filename="russian-bank-{game.pk}.txt"'
    text = response.text
    assert '[A "alice"]\n[B "bob"]\n' in text and f'[SeedHash "{game.seed_hash}"]' in text
    assert f"\n1 A: {' '.join(first)}\n2 B: {' '.join(second)}\n" in text
    assert "[Seed " not in text and SEED not in text and '[Status "playing"]' in text
    finish(game, alice)
    text = browser(alice).get(f"/games/{game.pk}/export.txt").text
    assert f'[Seed "{SEED}"]' in text and '[Ending "resigned"]' in text
    assert text.endswith("\nA resigns\n")


# ---------------------------------------------------------------------- invitations


def test_an_invitation_link_sends_the_logged_out_to_sign_up(alice: User) -> None:
    challenge = create_challenge(alice, email="dora@example.com")
    path = f"/invitations/{challenge.token}/"
    for response in (browser(None).get(path), browser(None).post(path, {"answer": "accept"})):
        assert response.status_code == 302
        assert response["Location"] == "/accounts/signup/?" + urlencode({"next": path})
    challenge.refresh_from_db()
    assert challenge.status == "pending"


def sign_up(client: Client, email: str, next_path: str) -> Any:
    return client.post(
        "/accounts/signup/?" + urlencode({"next": next_path}),
        {
            "email": email,
            "username": "dora",
            "password1": "a-long-passphrase-42",
            "password2": "a-long-passphrase-42",
            "next": next_path,
        },
    )


def confirmations() -> list[Any]:
    return [m for m in mail.outbox if "/accounts/confirm-email/" in str(m.body)]


@pytest.mark.parametrize("typed", ["dora@example.com", "Dora@Example.COM"])
def test_it_signs_an_invitee_up_with_the_invited_address_already_verified(
    alice: User, typed: str
) -> None:
    challenge = create_challenge(alice, email="dora@example.com", match_target=50)
    path = f"/invitations/{challenge.token}/"
    client = browser(None)
    signup = client.get(path, follow=True)
    assert signup.redirect_chain == [("/accounts/signup/?" + urlencode({"next": path}), 302)]
    assert "alice invites you to a game of Russian Bank" in signup.text
    assert "A match to 50 points" in signup.text
    assert re.search(r'<input[^>]*name="email"[^>]*value="dora@example.com"', signup.text)

    response = sign_up(client, typed, path)
    assert response.status_code == 302 and response["Location"] == path
    dora = User.objects.get(username="dora")
    address = EmailAddress.objects.get(user=dora)
    assert address.verified and address.primary and address.email == "dora@example.com"
    assert confirmations() == []  # the invitation proved the address: nothing to confirm
    accept = client.post(path, {"answer": "accept"})
    game = Game.objects.get()
    assert accept["Location"] == f"/games/{game.pk}/" and game.user_at(1) == dora


def test_it_still_asks_to_verify_an_address_other_than_the_invited_one(alice: User) -> None:
    challenge = create_challenge(alice, email="dora@example.com")
    path = f"/invitations/{challenge.token}/"
    client = browser(None)
    client.get(path)
    response = sign_up(client, "someone-else@example.com", path)
    assert response.status_code == 302 and response["Location"] != path
    address = EmailAddress.objects.get(user__username="dora")
    assert address.email == "someone-else@example.com" and not address.verified
    assert [m.to for m in confirmations()] == [["someone-else@example.com"]]
    assert client.get(path).status_code == 302  # not signed in until it is confirmed


def test_it_proves_no_address_without_an_invitation_in_the_session(alice: User) -> None:
    challenge = create_challenge(alice, email="dora@example.com")
    path = f"/invitations/{challenge.token}/"
    response = sign_up(browser(None), "dora@example.com", path)  # never opened the link
    assert response.status_code == 302
    assert not EmailAddress.objects.get(user__username="dora").verified
    assert len(confirmations()) == 1


@pytest.mark.parametrize("logged_in", [False, True])
def test_a_bad_invitation_token_is_a_clear_404(alice: User, bob: User, logged_in: bool) -> None:
    open_ = create_challenge(alice, is_open=True)
    client = browser(bob if logged_in else None)
    for token in ("not-a-token", open_.token):
        response = client.get(f"/invitations/{token}/")
        assert response.status_code == 404
        assert "Invitation not found" in response.text
        assert "this invitation does not exist" in response.text
    assert client.post("/invitations/not-a-token/", {"answer": "accept"}).status_code == 404
    assert not Game.objects.exists()


def test_an_invitation_is_accepted_once_signed_in(alice: User, bob: User) -> None:
    challenge = create_challenge(alice, email="dora@example.com", match_target=50)
    path = f"/invitations/{challenge.token}/"
    page = browser(bob).get(path)
    assert page.status_code == 200
    assert "alice invites you to a game of Russian Bank" in page.text
    assert "match to 50 points" in page.text
    assert 'value="accept"' in page.text and 'value="decline"' in page.text
    own = browser(alice).post(path, {"answer": "accept"})
    assert own.status_code == 200 and "you cannot answer your own challenge" in own.text
    assert not Game.objects.exists()

    response = browser(bob).post(path, {"answer": "accept"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert (game.user_at(0), game.user_at(1)) == (alice, bob) and game.match is not None
    challenge.refresh_from_db()
    assert challenge.accepted_by == bob
    after = browser(bob).get(path)
    assert "This invitation was accepted." in after.text and 'value="accept"' not in after.text
    twice = browser(bob).post(path, {"answer": "accept"})
    assert "this challenge is accepted" in twice.text and Game.objects.count() == 1


def test_an_invitation_is_declined(alice: User, bob: User) -> None:
    challenge = create_challenge(alice, email="dora@example.com")
    response = browser(bob).post(f"/invitations/{challenge.token}/", {"answer": "decline"})
    assert response.status_code == 200 and "This invitation was declined." in response.text
    challenge.refresh_from_db()
    assert challenge.status == "declined" and not Game.objects.exists()


# ---------------------------------------------------------------------- site-wide


def test_the_favicon_redirects_to_the_static_icon() -> None:
    response = browser(None).get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/games/favicon.svg"


@pytest.mark.parametrize("user", [None, "alice"])
def test_an_unknown_url_is_the_html_404_page(alice: User, user: str | None) -> None:
    client = browser(alice if user else None)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "<h1>Not found</h1>" in response.text
    api = client.get("/api/v1/no-such-page/")
    assert api.status_code == 404 and api.json()["error"] == "NOT_FOUND"
    missing = client.get("/games/999999/")
    assert missing.status_code == (404 if user else 302)


@pytest.mark.parametrize("address", ["carol@example.com", "Carol@Example.COM"])
def test_an_invitation_to_an_address_with_an_account_sends_to_log_in(
    alice: User, address: str
) -> None:
    User.objects.create_user("carol", "carol@example.com", "a-long-passphrase-42")
    challenge = create_challenge(alice, email=address)
    path = f"/invitations/{challenge.token}/"
    response = browser(None).get(path)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?" + urlencode({"next": path})


def test_an_invitation_to_a_second_address_of_an_account_sends_to_log_in(alice: User) -> None:
    carol = User.objects.create_user("carol", "carol@example.com", "a-long-passphrase-42")
    EmailAddress.objects.create(user=carol, email="carol@work.example", verified=False)
    challenge = create_challenge(alice, email="carol@work.example")
    path = f"/invitations/{challenge.token}/"
    assert browser(None).get(path)["Location"].startswith("/accounts/login/?")


def test_a_logged_in_invitee_lands_back_on_the_invitation(alice: User) -> None:
    carol = User.objects.create_user("carol", "carol@example.com", "a-long-passphrase-42")
    EmailAddress.objects.create(user=carol, email=carol.email, verified=True, primary=True)
    challenge = create_challenge(alice, email="carol@example.com")
    path = f"/invitations/{challenge.token}/"
    client = browser(None)
    login = client.get(path)["Location"]
    response = client.post(login, {"login": "carol", "password": "a-long-passphrase-42"})
    assert response.status_code == 302 and response["Location"] == path
    assert "Accept" in client.get(path).text
