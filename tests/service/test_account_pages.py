"""The account pages: profile and e-mail preferences, API tokens, vacation; allauth's
pages in the site's layout. Logged out, as the owner, and with bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import notices
from accounts.models import ApiToken
from accounts.services import MAX_TOKENS, profile_of
from games.models import Game

from .conftest import browser, client_for

pytestmark = pytest.mark.django_db

ACCOUNT_PAGES = ("profile", "tokens", "vacation")


def profile_post(**changes: str) -> dict[str, str]:
    form = {
        "display_name": "Alice L.",
        "time_zone": "Europe/Paris",
        "reminder_hours": "24, 2",
        # Every kind declared: the games' e-mails and every other app's (competitions).
        **{f"notify_{kind}": "immediately" for kind in notices.kinds()},
    }
    return {**form, **changes}


@pytest.mark.parametrize("name", ACCOUNT_PAGES)
def test_it_sends_a_logged_out_visitor_to_the_login_page(name: str) -> None:
    response = Client().get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize("name", ACCOUNT_PAGES)
def test_a_logged_out_post_changes_nothing(name: str, alice: User) -> None:
    before = profile_of(alice).notifications
    response = Client().post(reverse(name), profile_post(notify_your_turn="never", days="3"))
    assert response.status_code == 302
    profile = profile_of(alice)
    assert profile.notifications == before and profile.vacation_until is None


def test_the_profile_page_shows_the_current_settings(alice: User) -> None:
    profile = profile_of(alice)
    profile.time_zone = "America/New_York"
    profile.notifications = {**profile.notifications, "reminder": "daily_digest"}
    profile.save()
    page = browser(alice).get(reverse("profile")).content.decode()
    assert '<option value="America/New_York" selected>' in page
    assert 'value="24, 2"' in page
    assert "A deadline is near (reminders)" in page
    reminder = page.split('name="notify_reminder"', 1)[1].split("</select>", 1)[0]
    assert '<option value="daily_digest" selected>' in reminder


def test_it_saves_the_profile_and_the_email_preferences(alice: User) -> None:
    session = browser(alice)
    response = session.post(
        reverse("profile"),
        profile_post(
            notify_your_turn="daily_digest", notify_vacation="never", reminder_hours="48,2,2"
        ),
    )
    assert response.status_code == 302 and response["Location"] == reverse("profile")
    profile = profile_of(alice)
    assert profile.display_name == "Alice L."
    assert profile.time_zone == "Europe/Paris"
    assert profile.reminder_hours == [48, 2]
    assert profile.notifications["your_turn"] == "daily_digest"
    assert profile.notifications["vacation"] == "never"
    assert "Your settings are saved." in session.get(reverse("profile")).content.decode()
    # The API reads what the page wrote.
    assert client_for(alice).get("/api/v1/me/").json()["time_zone"] == "Europe/Paris"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("time_zone", "Mars/Olympus_Mons", "Select a valid choice"),
        ("reminder_hours", "24, soon", "whole numbers"),
        ("reminder_hours", "0", "1 to 336"),
        ("reminder_hours", "1,2,3,4,5,6", "At most 5"),
        ("reminder_hours", "٣", "whole numbers"),
        ("notify_your_turn", "sometimes", "Select a valid choice"),
    ],
)
def test_bad_profile_input_is_refused_and_changes_nothing(
    alice: User, field: str, value: str, message: str
) -> None:
    before = profile_of(alice)
    response = browser(alice).post(reverse("profile"), profile_post(**{field: value}))
    assert response.status_code == 400
    assert message in response.content.decode()
    after = profile_of(alice)
    assert (after.time_zone, after.reminder_hours, after.notifications, after.display_name) == (
        before.time_zone,
        before.reminder_hours,
        before.notifications,
        before.display_name,
    )


def test_a_token_made_on_the_page_is_shown_once_and_works(alice: User) -> None:
    session = browser(alice)
    response = session.post(reverse("tokens"), {"token_name": "my bot"})
    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"
    key = response.context["key"]
    assert key.startswith(ApiToken.PREFIX) and key in response.content.decode()
    api = Client(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/me/").json()["username"] == "alice"
    # Never again: the list shows the name and the first characters only.
    listing = session.get(reverse("tokens")).content.decode()
    assert "my bot" in listing and key[:10] in listing and key not in listing


def test_a_token_is_revoked_from_the_page(alice: User, bob: User) -> None:
    token, key = ApiToken.issue(alice, "old script")
    bobs, _ = ApiToken.issue(bob, "bob's")
    session = browser(alice)
    # Bob's token cannot be revoked by alice: refused, and it stays.
    response = session.post(reverse("token-revoke", args=[bobs.pk]), follow=True)
    assert "no such token" in response.content.decode()
    assert ApiToken.objects.filter(pk=bobs.pk).exists()
    response = session.post(reverse("token-revoke", args=[token.pk]), follow=True)
    assert "revoked" in response.content.decode()
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    assert Client(HTTP_AUTHORIZATION=f"Token {key}").get("/api/v1/me/").status_code == 401
    assert session.get(reverse("token-revoke", args=[bobs.pk])).status_code == 405


def test_a_token_needs_a_name_and_the_number_of_tokens_is_capped(alice: User) -> None:
    session = browser(alice)
    assert session.post(reverse("tokens"), {"token_name": "  "}).status_code == 400
    for n in range(MAX_TOKENS):
        ApiToken.issue(alice, f"t{n}")
    response = session.post(reverse("tokens"), {"token_name": "one more"})
    assert response.status_code == 400  # the form again with the refusal
    assert f"at most {MAX_TOKENS} tokens" in response.content.decode()
    assert alice.api_tokens.count() == MAX_TOKENS


def test_vacation_from_the_page_stops_the_clock_of_a_game_waiting_for_me(
    alice: User, bob: User, game: Game
) -> None:
    mine = alice if game.to_move == "A" else bob
    deadline = game.deadline
    assert deadline is not None
    session = browser(mine)
    assert "30</strong> vacation days left" in session.get(reverse("vacation")).content.decode()
    response = session.post(reverse("vacation"), {"days": "5"}, follow=True)
    page = response.content.decode()
    assert "You are on vacation until" in page
    assert "25</strong> vacation days left" in page
    game.refresh_from_db()
    assert game.deadline == deadline + timedelta(days=5)
    # A second vacation while on one is refused, and nothing more is spent.
    again = session.post(reverse("vacation"), {"days": "2"})
    assert again.status_code == 400 and "you are already on vacation" in again.content.decode()
    assert profile_of(mine).vacation_days_used == 5


@pytest.mark.parametrize("days", ["0", "31", "abc", ""])
def test_a_vacation_out_of_the_allowance_is_refused(alice: User, days: str) -> None:
    response = browser(alice).post(reverse("vacation"), {"days": days})
    assert response.status_code == 400
    assert response.context["form"].errors
    profile = profile_of(alice)
    assert profile.vacation_until is None and profile.vacation_days_used == 0


def test_allauth_pages_use_the_site_layout() -> None:
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
        page = Client().get(path).content.decode()
        assert 'class="brand"' in page and "How to play" in page, path
        assert "Menu:" not in page  # allauth's own bare layout is not used


def test_the_vacation_page_says_when_a_vacation_ends(alice: User) -> None:
    profile = profile_of(alice)
    profile.vacation_until = timezone.now() + timedelta(days=3)
    profile.save()
    page = browser(alice).get(reverse("vacation")).content.decode()
    assert 'id="on-vacation"' in page and "Start my vacation" not in page


def test_pages_show_times_in_the_players_time_zone(alice: User, bob: User, game: Game) -> None:
    mover = alice if game.to_move == "A" else bob
    profile = profile_of(mover)
    profile.time_zone = "Asia/Tokyo"
    profile.save()
    page = browser(mover).get(reverse("lobby")).content.decode()
    assert "JST" in page and "UTC" not in page
    other = bob if mover == alice else alice
    assert "UTC" in browser(other).get(reverse("lobby")).content.decode()
