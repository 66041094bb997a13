"""Messages on the game page (docs/messages.md): written with or without the script,
refused in place with the text kept, shown as text wherever a page shows them (the
game page, its poll, the replay, the export), reported from the page; and the page's
poll, which sees a new message though the version did not move."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Report
from games.models import Game, Message
from games.play.dealing import start_game
from games.play.services import play_moves, resign, write_message
from games.talk import MAX_LENGTH

from .conftest import browser, mover_and_other, play_turn

pytestmark = pytest.mark.django_db

FETCH = {"X-Requested-With": "fetch"}
#: Markup and a script, as a player might type them: to be read as these characters.
MARKUP = "<script>alert(1)</script><b>x</b>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;"


def write(client: Client, game: Game, text: str, **headers: str) -> Any:
    return client.post(f"/games/{game.pk}/messages/", {"message": text}, headers=headers)


def panel(html: str) -> str:
    """The messages panel of a game page or fragment."""
    start = html.index('<section class="talk"')
    return html[start : html.index("</section>", start)]


def said(html: str) -> list[str]:
    """The messages' texts as the page shows them (escaped HTML)."""
    return re.findall(r'<p class="said-text">(.*?)</p>', html, re.S)


def box(html: str) -> str:
    """What the message box holds."""
    found = re.search(r'<textarea id="message-text"[^>]*>(.*?)</textarea>', html, re.S)
    assert found, "no message box"
    return found.group(1)


def assert_shown_as_text(html: str) -> None:
    assert ESCAPED in html
    assert "<script>alert" not in html and "<b>x</b>" not in html


# ------------------------------------------------------------------------ writing


def test_a_message_with_markup_is_text_on_both_players_pages_and_in_the_poll(
    game: Game, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    reader = browser(bob)
    page = reader.get(f"/games/{game.pk}/").text
    assert said(page) == [] and "No messages yet." in panel(page)
    seen = {"version": game.version, "messages": game.message_count}

    with django_capture_on_commit_callbacks(execute=True):
        response = write(browser(alice), game, MARKUP)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    stored = Message.objects.get()
    assert stored.text == MARKUP and stored.author == alice and stored.seat == "A"

    for client in (browser(alice), reader):
        html = client.get(f"/games/{game.pk}/").text
        assert said(html) == [ESCAPED]
        assert_shown_as_text(html)
    # Bob's poll: the version has not moved, the message count has.
    game.refresh_from_db()
    assert game.version == seen["version"] and game.message_count == 1
    fragment = reader.get(f"/games/{game.pk}/table/", seen)
    assert fragment.status_code == 200 and "<html" not in fragment.text
    assert said(fragment.text) == [ESCAPED]
    assert_shown_as_text(fragment.text)
    assert 'data-messages="1"' in fragment.text
    again = {"version": game.version, "messages": 1}
    assert reader.get(f"/games/{game.pk}/table/", again).status_code == 204


def test_line_breaks_are_kept_and_the_author_and_time_shown(
    game: Game, alice: User, bob: User
) -> None:
    write(browser(bob), game, "good luck\r\n\r\n\r\nand have fun  ")
    html = panel(browser(alice).get(f"/games/{game.pk}/").text)
    assert said(html) == ["good luck\n\nand have fun"]  # folded, as talk.clean stores it
    assert "<strong>bob</strong> (B)" in html and "<time datetime=" in html
    mine = panel(browser(bob).get(f"/games/{game.pk}/").text)
    assert "(B, you)" in mine


def test_the_box_says_when_a_message_goes(game: Game, alice: User, bob: User) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    help_text = panel(browser(mover).get(f"/games/{game.pk}/").text)
    assert f"It is shown to {waiting.get_username()} at once" in help_text
    assert "read when your turn ends" not in help_text
    assert "It is sent at once." in panel(browser(waiting).get(f"/games/{game.pk}/").text)
    box_html = panel(browser(mover).get(f"/games/{game.pk}/").text)
    assert f'maxlength="{MAX_LENGTH}"' in box_html and 'for="message-text"' in box_html

    # Written on one's turn, it is shown at once and its e-mail goes with the turn;
    # while waiting, at once.
    sent = browser(mover).post(
        f"/games/{game.pk}/messages/", {"message": "thinking..."}, follow=True
    )
    assert "shown at once, and their e-mail brings it with your turn" in sent.text
    assert said(panel(browser(waiting).get(f"/games/{game.pk}/").text)) == ["thinking..."]
    other = browser(waiting).post(f"/games/{game.pk}/messages/", {"message": "hi"}, follow=True)
    assert "Message sent." in other.text
    assert list(Message.objects.order_by("pk").values_list("delivered", flat=True)) == [
        False,
        True,
    ]


def test_the_script_gets_the_table_back_with_the_message_and_what_happened(
    game: Game, alice: User, bob: User
) -> None:
    _, waiting = mover_and_other(game, alice, bob)
    response = write(browser(waiting), game, MARKUP, **FETCH)
    assert response.status_code == 200 and "X-Refused" not in response
    assert response.text.lstrip().startswith('<div id="game-state"')
    assert said(response.text) == [ESCAPED]
    assert 'id="message-notice"' in response.text and "Message sent." in response.text
    assert box(response.text) == ""  # sent: the box is empty again


@pytest.mark.parametrize(
    ("text", "status", "code", "words"),
    [
        ("   \n ", 400, "EMPTY_MESSAGE", "the message is empty"),
        ("x" * (MAX_LENGTH + 1), 400, "MESSAGE_TOO_LONG", f"at most {MAX_LENGTH} characters"),
    ],
)
def test_a_refused_message_is_said_beside_the_box_and_kept_in_it(
    game: Game, alice: User, text: str, status: int, code: str, words: str
) -> None:
    client = browser(alice)
    page = write(client, game, text)
    assert page.status_code == status
    assert words in panel(page.text)  # beside the box, not above the table
    assert '<p class="refusal" role="alert" id="refusal">' in panel(page.text)
    assert box(page.text) == text
    scripted = write(client, game, text, **FETCH)
    assert scripted.status_code == 200 and scripted["X-Refused"] == code
    assert words in panel(scripted.text) and box(scripted.text) == text
    assert not Message.objects.exists()


def test_too_many_messages_are_refused_in_place(game: Game, alice: User) -> None:
    client = browser(alice)
    for n in range(5):
        assert write(client, game, f"note {n}").status_code == 302
    refused = write(client, game, "one too many")
    assert refused.status_code == 429 and "messages a minute" in panel(refused.text)
    assert box(refused.text) == "one too many"
    assert Message.objects.count() == 5


def test_a_message_after_the_game_is_shown_with_the_result(
    game: Game, alice: User, bob: User
) -> None:
    resign(game_id=game.pk, user=bob)
    response = write(browser(bob), game, "good game", **FETCH)
    assert response.status_code == 200 and "X-Refused" not in response
    html = browser(alice).get(f"/games/{game.pk}/").text
    assert said(html) == ["good game"] and "You won" in html


def test_only_the_players_write(game: Game, alice: User, charlie: User) -> None:
    """A spectator of a public game (or anyone) writes nothing; signed out, one logs in."""
    assert write(browser(charlie), game, "hello").status_code == 404
    assert write(browser(charlie), game, "hello", **FETCH).status_code == 404
    signed_out = write(browser(None), game, "hello")
    assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]
    assert write(browser(alice), game, "hello").status_code == 302
    assert Message.objects.count() == 1
    assert browser(alice).get(f"/games/{game.pk}/messages/").status_code == 405


def test_a_message_changes_no_version_so_no_move_form_goes_stale(
    game: Game, alice: User, bob: User
) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    version = game.version
    write(browser(waiting), game, "take your time")
    game.refresh_from_db()
    assert game.version == version
    played = browser(mover).post(
        f"/games/{game.pk}/play/", {"moves": "H4-H6", "version": str(version)}
    )
    assert played.status_code == 302


def test_messages_written_with_moves_show_on_the_page(game: Game, alice: User, bob: User) -> None:
    mover, waiting = mover_and_other(game, alice, bob)
    play_moves(game_id=game.pk, user=mover, moves=["H4-H6"], message=MARKUP)
    assert said(browser(waiting).get(f"/games/{game.pk}/").text) == [ESCAPED]


# ------------------------------------------------------------------------ reading elsewhere


def test_the_replay_shows_each_message_at_its_step_as_text(
    game: Game, alice: User, bob: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    play_moves(game_id=game.pk, user=mover, moves=["H4-H6"], message=MARKUP)  # after step 1
    for client in (browser(alice), browser(bob)):
        at = client.get(f"/games/{game.pk}/replay/", {"step": 1}).text
        assert_shown_as_text(at)
        # In the moves list, with the move it followed, and above the table at its step.
        moves = at[at.index('<section aria-labelledby="moves-h"') :]
        item = re.search(r'<li class="current with-said".*?</li>', moves, re.S)
        assert item and ESCAPED in item.group(0) and "H4-H6" in item.group(0)
        assert 'id="said-now-h"' in at
        before = client.get(f"/games/{game.pk}/replay/", {"step": 0}).text
        assert ESCAPED in before and 'id="said-now-h"' not in before  # listed, not current


def test_the_export_has_the_message_as_a_comment_in_plain_text(
    game: Game, alice: User, bob: User
) -> None:
    mover, _ = mover_and_other(game, alice, bob)
    letter = game.letters[game.seat_of(mover.pk) or 0]
    play_moves(game_id=game.pk, user=mover, moves=["H4-H6"], message=MARKUP)
    for client in (browser(alice), browser(bob)):
        response = client.get(f"/games/{game.pk}/export.txt")
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert f"{{{letter}: {MARKUP}}}" in response.text.splitlines()


# ------------------------------------------------------------------------ reporting


def test_a_player_reports_the_others_message_not_their_own(
    game: Game, alice: User, bob: User
) -> None:
    write(browser(alice), game, MARKUP)
    message = Message.objects.get()
    mine = panel(browser(alice).get(f"/games/{game.pk}/").text)
    assert "game-message-report" not in mine and f"/messages/{message.pk}/report/" not in mine
    theirs = panel(browser(bob).get(f"/games/{game.pk}/").text)
    assert f'action="/games/{game.pk}/messages/{message.pk}/report/"' in theirs
    assert 'for="report-reason-' in theirs and "Abuse or harassment" in theirs

    url = f"/games/{game.pk}/messages/{message.pk}/report/"
    done = browser(bob).post(url, {"reason": "abuse"}, follow=True)
    assert "support staff will read your report" in done.text
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason) == (bob, alice, "abuse")
    assert (report.game_id, report.message_id, report.message_text) == (
        game.pk,
        message.pk,
        MARKUP,
    )
    after = panel(browser(bob).get(f"/games/{game.pk}/").text)
    assert "You have reported this message" in after and url not in after
    # Reported again (a second tab): the first report stands, nothing more.
    assert browser(bob).post(url, {"reason": "spam"}, headers=FETCH).status_code == 200
    assert Report.objects.count() == 1


def test_a_bad_report_is_refused_in_place(
    game: Game, alice: User, bob: User, charlie: User
) -> None:
    write(browser(alice), game, "hi")
    message = Message.objects.get()
    url = f"/games/{game.pk}/messages/{message.pk}/report/"
    bad = browser(bob).post(url, {"reason": "boring"})
    assert bad.status_code == 400 and "choose why you report" in panel(bad.text)
    own = browser(alice).post(url, {"reason": "spam"}, headers=FETCH)
    assert own.status_code == 200 and own["X-Refused"] == "SAME_PLAYER"
    other = start_game(alice, bob, seed=7)
    elsewhere = browser(bob).post(
        f"/games/{other.pk}/messages/{message.pk}/report/", {"reason": "spam"}
    )
    assert elsewhere.status_code == 404 and "no such message" in panel(elsewhere.text)
    # Nobody but the players reports from the page.
    assert browser(charlie).post(url, {"reason": "spam"}).status_code == 404
    assert not Report.objects.exists()


def test_a_blocked_writers_messages_are_not_shown_to_the_blocker(
    game: Game, alice: User, bob: User
) -> None:
    write(browser(alice), game, "before the block")
    browser(bob).post("/players/alice/block/", {"block": "yes"})
    write(browser(alice), game, "after the block")
    assert said(browser(bob).get(f"/games/{game.pk}/").text) == []
    # The writer sees nothing change: their messages are on their page as ever.
    assert said(browser(alice).get(f"/games/{game.pk}/").text) == [
        "before the block",
        "after the block",
    ]


# ------------------------------------------------------------------------ the poll


def opened(game: Game, player: User) -> Client:
    client = browser(player)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    return client


def stamp(game: Game) -> dict[str, int]:
    game.refresh_from_db()
    return {"version": game.version, "messages": game.message_count}


def test_an_idle_poll_with_the_message_count_makes_no_query(
    game: Game, alice: User, bob: User, django_assert_num_queries: Any
) -> None:
    write(browser(alice), game, "hello")
    client = opened(game, bob)
    seen = stamp(game)
    assert seen["messages"] == 1
    with django_assert_num_queries(0):
        assert client.get(f"/games/{game.pk}/table/", seen).status_code == 204


@pytest.mark.parametrize("channel", ["page", "service"])
def test_a_message_changes_the_polls_answer_whichever_channel_wrote_it(
    channel: str,
    game: Game,
    alice: User,
    bob: User,
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The service tells the cache when the message commits: the page's form, the API
    and an e-mail reply alike."""
    reader = opened(game, bob)
    seen = stamp(game)
    with django_assert_num_queries(0):
        assert reader.get(f"/games/{game.pk}/table/", seen).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        if channel == "page":
            write(browser(alice), game, MARKUP)
        else:
            write_message(game_id=game.pk, user=alice, text=MARKUP)
    changed = reader.get(f"/games/{game.pk}/table/", seen)
    assert changed.status_code == 200 and said(changed.text) == [ESCAPED]
    now = stamp(game)
    with django_assert_num_queries(0):
        assert reader.get(f"/games/{game.pk}/table/", now).status_code == 204


def test_a_poll_about_the_version_alone_is_not_told_of_messages(
    game: Game, alice: User, bob: User
) -> None:
    """A page from before messages asks about the version alone; it is told the same."""
    reader = opened(game, bob)
    version = game.version
    write(browser(alice), game, "hello")
    assert reader.get(f"/games/{game.pk}/table/", {"version": version}).status_code == 204


def test_a_move_still_changes_the_polls_answer(
    game: Game, alice: User, bob: User, django_capture_on_commit_callbacks: Any
) -> None:
    _, waiting = mover_and_other(game, alice, bob)
    reader = opened(game, waiting)
    seen = stamp(game)
    with django_capture_on_commit_callbacks(execute=True):
        moves = play_turn(game, alice, bob)
    response = reader.get(f"/games/{game.pk}/table/", seen)
    assert response.status_code == 200 and moves[-1] in response.text
