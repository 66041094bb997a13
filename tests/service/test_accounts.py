"""Accounts: sign-up with e-mail verification, profiles, named API tokens, the player list."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken

from .conftest import client_for

pytestmark = pytest.mark.django_db


def token_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_it_signs_up_with_email_verification() -> None:
    browser = Client()
    response = browser.post(
        "/accounts/signup/",
        {
            "email": "dora@example.com",
            "username": "dora",
            "password1": "a-long-passphrase-42",
            "password2": "a-long-passphrase-42",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="dora")
    # Not verified yet: logging in is refused until the e-mail link is followed.
    assert browser.get("/api/v1/me/").status_code in (401, 403)
    (message,) = mail.outbox
    assert message.to == ["dora@example.com"]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", str(message.body))
    assert link is not None
    path = link.group(0).split("testserver", 1)[-1]
    assert browser.post(path).status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    assert browser.get("/api/v1/me/").json()["username"] == "dora"


def test_a_password_can_be_reset_by_email(alice: User) -> None:
    response = Client().post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and "password" in mail.outbox[0].subject.lower()


def test_a_named_token_authenticates_and_is_shown_once(alice: User) -> None:
    response = client_for(alice).post("/api/v1/me/tokens/", {"name": "my bot"}, format="json")
    assert response.status_code == 201
    body = response.json()
    key = body["key"]
    assert key.startswith("rb_") and body["hint"] == key[:10]
    assert ApiToken.objects.get().key_hash != key  # only a hash is stored
    listed = client_for(alice).get("/api/v1/me/tokens/").json()["results"]
    assert listed == [{k: v for k, v in body.items() if k != "key"}]
    me = token_client(key).get("/api/v1/me/")
    assert me.status_code == 200 and me.json()["username"] == "alice"
    assert ApiToken.objects.get().last_used_at is not None


def test_a_revoked_token_no_longer_works(alice: User) -> None:
    token, key = ApiToken.issue(alice, "old")
    assert client_for(alice).delete(f"/api/v1/me/tokens/{token.pk}/").status_code == 204
    response = token_client(key).get("/api/v1/me/")
    assert response.status_code == 401 and response.json()["error"] == "NOT_AUTHENTICATED"


def test_a_player_cannot_revoke_someone_elses_token(alice: User, bob: User) -> None:
    token, key = ApiToken.issue(alice, "mine")
    assert client_for(bob).delete(f"/api/v1/me/tokens/{token.pk}/").status_code == 404
    assert token_client(key).get("/api/v1/me/").status_code == 200


def test_a_wrong_token_is_refused(alice: User) -> None:
    response = token_client("rb_not-a-real-key").get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json() == {"error": "NOT_AUTHENTICATED", "message": "invalid or revoked token"}


def test_the_profile_can_be_changed(alice: User) -> None:
    client = client_for(alice)
    body: Any = client.patch(
        "/api/v1/me/",
        {
            "display_name": "Alice L.",
            "time_zone": "Europe/Paris",
            "notifications": {"your_turn": "daily_digest"},
        },
        format="json",
    ).json()
    assert body["display_name"] == "Alice L." and body["time_zone"] == "Europe/Paris"
    assert body["notifications"]["your_turn"] == "daily_digest"
    assert body["notifications"]["invitation"] == "immediately"


@pytest.mark.parametrize(
    "change",
    [
        {"time_zone": "Mars/Olympus"},
        {"notifications": {"your_turn": "sometimes"}},
        {"notifications": {"birthday": "immediately"}},
        {"notifications": "never"},
    ],
)
def test_a_bad_profile_change_is_refused_and_changes_nothing(
    alice: User, change: dict[str, Any]
) -> None:
    client = client_for(alice)
    before = client.get("/api/v1/me/").json()
    response = client.patch("/api/v1/me/", change, format="json")
    assert response.status_code == 400 and response.json()["message"]
    assert client.get("/api/v1/me/").json() == before


def test_players_can_be_found_by_username(alice: User, bob: User, charlie: User) -> None:
    names = [
        p["username"] for p in client_for(alice).get("/api/v1/players/?search=b").json()["results"]
    ]
    assert names == ["bob"]
