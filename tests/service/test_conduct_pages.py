"""Keeping unwanted players away, on the pages (docs/conduct.md): blocking from a
player's page and the account's list, reporting a player, "who may challenge me" on the
account page, the lobby's suggestions; and the reports as support staff read them in
the admin."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.urls import reverse

from accounts.conduct import MAX_DETAILS, block
from accounts.models import Block, ChallengesFrom, Report
from accounts.services import profile_of
from games.models import Challenge, Game, Message, Rating
from games.play.dealing import start_game
from games.play.services import write_message
from games.talk import report_message

from .conftest import NEW_GAME_FORM, browser

pytestmark = pytest.mark.django_db

MARKUP = "<script>alert(1)</script><b>x</b>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;"


def conduct_section(html: str) -> str:
    if '<section class="conduct"' not in html:
        return ""
    start = html.index('<section class="conduct"')
    return html[start : html.index("</section>", start)]


# ------------------------------------------------------------------------ a player's page


def test_a_player_blocks_and_unblocks_another_from_their_page(alice: User, bob: User) -> None:
    client = browser(alice)
    page = conduct_section(client.get("/players/bob/").text)
    assert 'action="/players/bob/block/"' in page and "Block bob" in page
    assert "Report this player" in page

    done = client.post("/players/BOB/block/", {"block": "yes"}, follow=True)
    assert done.redirect_chain == [("/players/bob/", 302)]
    assert "You block bob" in done.text
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    blocked_page = conduct_section(client.get("/players/bob/").text)
    assert "Unblock bob" in blocked_page and "Block bob" not in blocked_page.replace("Unblock", "")
    client.post("/players/bob/block/", {"block": "yes"})  # twice is one block
    assert Block.objects.count() == 1

    # Only the blocker knows: bob's view of alice's page says nothing of it.
    theirs = browser(bob).get("/players/alice/").text
    assert "Unblock" not in theirs and "blocks you" not in theirs and "Block alice" in theirs

    client.post("/players/bob/block/", {"block": "no"})
    assert not Block.objects.exists()
    assert "Block bob" in conduct_section(client.get("/players/bob/").text)


def test_no_block_or_report_on_ones_own_page_a_computers_or_signed_out(alice: User) -> None:
    from accounts.bots import bot_player

    computer = bot_player("easy")
    assert conduct_section(browser(alice).get("/players/alice/").text) == ""
    assert conduct_section(browser(alice).get(f"/players/{computer.username}/").text) == ""
    assert conduct_section(Client().get("/players/alice/").text) == ""


def test_blocking_oneself_or_nobody_is_refused(alice: User) -> None:
    client = browser(alice)
    same = client.post("/players/alice/block/", {"block": "yes"}, follow=True)
    assert "you cannot block yourself" in same.text
    assert client.post("/players/nobody/block/", {"block": "yes"}, follow=True).status_code == 404
    signed_out = Client().post("/players/alice/block/", {"block": "yes"})
    assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]
    assert not Block.objects.exists()


def test_a_player_reports_another_from_their_page(alice: User, bob: User) -> None:
    client = browser(alice)
    response = client.post(
        "/players/bob/report/",
        {"reason": "cheating", "details": "  plays <i>too</i> fast  "},
        follow=True,
    )
    assert response.redirect_chain == [("/players/bob/", 302)]
    assert "support staff will read your report" in response.text
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason) == (alice, bob, "cheating")
    assert report.details == "plays <i>too</i> fast" and report.message_id is None
    # Nothing on bob's side tells him.
    assert "report" not in browser(bob).get("/").text.lower()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"reason": "boring"}, "Select a valid choice"),
        ({"reason": "other", "details": "x" * (MAX_DETAILS + 1)}, "at most 2000 characters"),
    ],
)
def test_a_bad_player_report_is_the_form_again(
    alice: User, bob: User, data: dict[str, str], words: str
) -> None:
    response = browser(alice).post("/players/bob/report/", data)
    assert response.status_code == 400
    section = conduct_section(response.text)
    assert words in section and '<details class="report-player" id="report-player" open>' in section
    assert not Report.objects.exists()


# ------------------------------------------------------------------------ /account/blocks/


def test_the_blocks_page_lists_blocks_makes_and_lifts_them(
    alice: User, bob: User, charlie: User
) -> None:
    client = browser(alice)
    page = client.get("/account/blocks/").text
    assert "You block nobody." in page
    assert 'href="/account/blocks/" aria-current="page"' in page  # in the account's tabs
    assert 'href="/account/blocks/"' in client.get("/account/").text

    done = client.post("/account/blocks/", {"username": " Charlie "}, follow=True)
    assert done.redirect_chain == [("/account/blocks/", 302)]
    assert "You block charlie." in done.text
    block(alice, "bob")
    listing = client.get("/account/blocks/").text
    names = re.findall(r'<li><a href="/players/(\w+)/">', listing)
    assert names == ["bob", "charlie"]
    assert 'aria-label="Unblock bob"' in listing

    client.post("/account/blocks/", {"unblock": "bob"})
    assert list(Block.objects.values_list("blocked__username", flat=True)) == ["charlie"]
    # Nobody else's list shows it.
    assert "alice" not in browser(charlie).get("/account/blocks/").text.split("<main", 1)[1]


@pytest.mark.parametrize(
    ("username", "words"),
    [
        ("", "This field is required"),
        ("nobody", "there is no player called"),
        ("alice", "yourself"),
    ],
)
def test_a_refused_block_is_the_form_again(alice: User, username: str, words: str) -> None:
    response = browser(alice).post("/account/blocks/", {"username": username})
    assert response.status_code == 400 and words in response.text
    assert f'value="{username}"' in response.text or not username
    assert not Block.objects.exists()


def test_the_blocks_page_needs_a_sign_in(alice: User) -> None:
    assert Client().get("/account/blocks/")["Location"].startswith("/accounts/login/")
    assert Client().post("/account/blocks/", {"username": "alice"}).status_code == 302
    assert not Block.objects.exists()


# ------------------------------------------------------------------------ who may challenge me


def test_the_account_page_says_who_may_challenge_me_and_saves_it(alice: User, bob: User) -> None:
    client = browser(alice)
    page = client.get(reverse("profile")).text
    for value, label in ChallengesFrom.choices:
        assert f'value="{value}"' in page and str(label) in page
    assert re.search(r'<input type="radio" name="challenges_from" value="anyone"[^>]*checked', page)
    form = client.get(reverse("profile")).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data |= {f"notify_{k}": v for k, v in profile_of(alice).notifications.items()}
    data |= {"reminder_hours": "24", "challenges_from": "nobody"}
    assert client.post(reverse("profile"), data).status_code == 302
    assert profile_of(alice).challenges_from == "nobody"
    page = client.get(reverse("profile")).text
    assert re.search(r'<input type="radio" name="challenges_from" value="nobody"[^>]*checked', page)
    # A form without the field (an older page) leaves the setting as it is.
    del data["challenges_from"]
    client.post(reverse("profile"), data)
    assert profile_of(alice).challenges_from == "nobody"
    bad = client.post(reverse("profile"), {**data, "challenges_from": "friends"})
    assert bad.status_code == 400 and "Select a valid choice" in bad.text
    # And the lobby's form is refused beside the opponent, in the setting's words.
    refused = browser(bob).post("/challenges/new/", {**NEW_GAME_FORM, "opponent": "alice"})
    assert refused.status_code == 400 and "alice does not take challenges from you" in refused.text
    assert not Challenge.objects.exists()


# ------------------------------------------------------------------------ the lobby


def test_the_lobby_suggests_no_player_kept_apart(alice: User, bob: User, charlie: User) -> None:
    dave = User.objects.create_user("dave", "dave@example.com", "pw-dave-123")
    for user, rating in ((alice, 1500), (bob, 1510), (charlie, 1490), (dave, 1520)):
        Rating.objects.create(user=user, family="standard", rating=rating)
    near = browser(alice).get("/").text
    assert all(f'href="/players/{name}/"' in near for name in ("bob", "charlie", "dave"))
    block(alice, "bob")  # alice blocks bob
    block(charlie, "alice")  # charlie blocks alice (alice is not told)
    near = browser(alice).get("/").text
    start = near.index("Challenge a player near your rating:")
    suggestions = near[start : near.index("</li>", start)]
    assert 'href="/players/dave/"' in suggestions
    assert "/players/bob/" not in suggestions and "/players/charlie/" not in suggestions


# ------------------------------------------------------------------------ the admin


@pytest.fixture
def support(db: None) -> User:
    user = User.objects.create_user("support", "support@example.com", "pw-support-123")
    user.is_staff = True
    user.save()
    user.user_permissions.set(
        Permission.objects.filter(codename__startswith="view_")
        | Permission.objects.filter(codename="change_report")
    )
    return user


def test_support_staff_read_a_reported_message_as_text_and_handle_it(
    alice: User, bob: User, charlie: User, support: User
) -> None:
    game = start_game(alice, bob, seed=3)
    message = write_message(game_id=game.pk, user=alice, text=MARKUP)
    first = report_message(bob, message.pk, reason="abuse")
    older = Report.objects.create(reporter=charlie, reported=bob, reason="spam")
    Report.objects.filter(pk=older.pk).update(created_at=first.created_at.replace(year=2020))
    client = browser(support)

    listing = client.get(reverse("admin:accounts_report_changelist")).text
    assert ESCAPED[:40] in listing and "<script>alert" not in listing
    shown = client.get(reverse("admin:accounts_report_changelist")).context["cl"].result_list
    assert list(shown) == [first, older]

    page = client.get(reverse("admin:accounts_report_change", args=[first.pk])).text
    assert ESCAPED in page and "<script>alert" not in page
    assert reverse("admin:games_game_change", args=[game.pk]) in page
    assert 'name="staff_note"' in page

    # Marked handled, it goes below the unhandled ones; the note is the staff's to write.
    client.post(
        reverse("admin:accounts_report_changelist"),
        {"action": "mark_handled", "_selected_action": [first.pk]},
    )
    first.refresh_from_db()
    assert first.handled_at is not None and first.handled_by == support
    shown = client.get(reverse("admin:accounts_report_changelist")).context["cl"].result_list
    assert list(shown) == [older, first]
    unhandled = client.get(reverse("admin:accounts_report_changelist"), {"handled": "no"})
    assert list(unhandled.context["cl"].result_list) == [older]
    client.post(
        reverse("admin:accounts_report_change", args=[first.pk]),
        {"staff_note": "warned alice"},
    )
    first.refresh_from_db()
    assert first.staff_note == "warned alice" and first.message_text == MARKUP
    assert client.get(reverse("admin:accounts_report_add")).status_code == 403


def test_support_staff_find_messages_and_see_blocks_read_only(
    alice: User, bob: User, support: User
) -> None:
    game = start_game(alice, bob, seed=3)
    write_message(game_id=game.pk, user=alice, text="meet me elsewhere")
    write_message(game_id=game.pk, user=bob, text="no thanks")
    block(bob, "alice")
    client = browser(support)
    found = client.get(reverse("admin:games_message_changelist"), {"q": "elsewhere"})
    assert [m.text for m in found.context["cl"].result_list] == ["meet me elsewhere"]
    by_author = client.get(reverse("admin:games_message_changelist"), {"q": "bob"})
    assert [m.author for m in by_author.context["cl"].result_list] == [bob]
    by_game = client.get(reverse("admin:games_message_changelist"), {"q": str(game.pk)})
    assert by_game.context["cl"].result_count == 2
    message = Message.objects.first()
    assert message is not None
    change = client.post(reverse("admin:games_message_change", args=[message.pk]), {"text": "x"})
    assert change.status_code == 403
    blocks = client.get(reverse("admin:accounts_block_changelist")).text
    assert "bob" in blocks and "alice" in blocks
    assert client.get(reverse("admin:accounts_block_add")).status_code == 403
    assert Game.objects.count() == 1
