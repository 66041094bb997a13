"""The installable app's pages (the manifest, the service worker, the offline page),
the account's push devices as the account page stores and removes them, and the
command that makes the VAPID keys."""

from __future__ import annotations

import base64
import json
import stat
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.core.management import CommandError, call_command
from django.test import Client

from accounts import notices
from accounts.services import profile_of
from games.models import PushSubscription
from games.push import keys
from games.templatetags.look import tokens

from .conftest import browser, client_for
from .push_service import Device

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_colours_and_icons(alice: User) -> None:
    answer = browser(None).get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert (manifest["name"], manifest["short_name"], manifest["lang"]) == (
        "La Crapette par e-mail",
        "Crapette",
        "fr",
    )
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    assert (
        manifest["theme_color"] == tokens()["felt"]
        and manifest["background_color"] == tokens()["bg"]
    )
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"any", "192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        found = finders.find(icon["src"].removeprefix("/static/"))
        assert isinstance(found, str), icon
        if icon["type"] == "image/png":
            data = Path(found).read_bytes()
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and f"{width}x{height}" == icon["sizes"]


def test_every_page_links_the_manifest_and_the_worker(alice: User) -> None:
    page = browser(alice).get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-worker="/sw.js"' in page and "games/app.js" in page
    assert 'id="offline-banner"' in page


def test_the_service_worker_keeps_the_shell() -> None:
    answer = browser(None).get("/sw.js")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert answer["Cache-Control"] == "no-cache"
    text = answer.text
    assert '"/static/games/site.css"' in text and '"/offline/"' in text
    assert "notificationclick" in text and "showNotification" in text
    assert browser(None).get("/offline/").status_code == 200


def test_the_account_page_offers_push_with_the_servers_key(alice: User, settings: Any) -> None:
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_KEY_FILE = "/nonexistent/vapid.pem"
    page = browser(alice).get("/account/").text
    assert "Push notifications are not set up on this server." in page
    assert 'id="push-on"' not in page
    settings.VAPID_PRIVATE_KEY = keys.new_private_pem()
    page = browser(alice).get("/account/").text
    assert f'data-key="{keys.public_key()}"' in page and 'id="push-on"' in page
    assert "Add to Home Screen" in page  # the steps for iOS


def subscription(endpoint: str = "https://push.example.net/send/abc") -> dict[str, Any]:
    made = Device(endpoint).subscription()
    return dict(made)


def post(user: User | None, body: object) -> Any:
    return browser(user).post("/account/push/", json.dumps(body), content_type="application/json")


def test_the_endpoint_stores_each_device_once_and_refuses_the_rest(
    alice: User, bob: User, settings: Any
) -> None:
    settings.PUSH_REQUIRE_HTTPS = True
    assert post(None, subscription()).status_code == 403
    assert post(alice, subscription()).status_code == 201
    assert post(alice, subscription()).status_code == 201  # again: the same device
    assert PushSubscription.objects.filter(user=alice).count() == 1
    assert post(bob, subscription()).status_code == 201  # bob signs in on that browser
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]
    plain = subscription("http://push.example.net/send/x")
    wrong_key = subscription("https://push.example.net/send/y")
    wrong_key["keys"]["p256dh"] = base64.urlsafe_b64encode(b"\x04" * 10).decode()
    for body in (plain, wrong_key, {"endpoint": 3}, ["x"]):
        assert post(alice, body).status_code == 400, body
    assert (
        browser(alice).post("/account/push/", "{", content_type="application/json").status_code
        == 400
    )
    assert PushSubscription.objects.count() == 1


def test_a_device_is_removed_from_the_account_page(alice: User, bob: User) -> None:
    assert post(alice, subscription()).status_code == 201
    device = PushSubscription.objects.get()
    assert browser(bob).post("/account/push/remove/", {"device": device.pk}).status_code == 302
    assert PushSubscription.objects.exists()  # not bob's to remove
    answer = browser(alice).post("/account/push/remove/", {"device": device.pk})
    assert answer.status_code == 302 and answer["Location"] == "/account/#push"
    assert not PushSubscription.objects.exists()


def test_the_command_makes_a_key_once(tmp_path: Path, settings: Any) -> None:
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_KEY_FILE = tmp_path / "var" / "vapid-private.pem"
    assert not keys.enabled() and keys.public_key() == ""
    call_command("make_vapid_keys")
    path = Path(settings.VAPID_KEY_FILE)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    public = keys.public_key()
    assert len(base64.urlsafe_b64decode(public + "=")) == 65
    with pytest.raises(CommandError):
        call_command("make_vapid_keys")  # a new key would unsubscribe every browser
    call_command("make_vapid_keys", "--if-absent")  # as make run does
    assert keys.public_key() == public


def test_the_channels_are_chosen_per_kind_on_the_page_and_the_api(alice: User) -> None:
    client = browser(alice)
    form = client.get("/account/").context["form"]
    choices = [value for value, _label in form.fields["notify_your_turn"].choices]
    assert choices == ["immediately", "push", "push_and_email", "daily_digest", "never"]
    data = {name: value for name, value in form.initial.items() if value not in (None, False)}
    data |= {f"notify_{kind}": "immediately" for kind in notices.kinds()}
    data |= {"reminder_hours": "24, 2", "notify_your_turn": "push_and_email"}
    data |= {"notify_reminder": "push", "email_after_push_minutes": "15"}
    assert client.post("/account/", data).status_code == 302
    profile = profile_of(alice)
    assert profile.notifications["your_turn"] == "push_and_email"
    assert profile.notifications["reminder"] == "push"
    assert profile.email_after_push_minutes == 15
    api = client_for(alice)
    me = api.get("/api/v1/me/").json()
    assert me["email_after_push_minutes"] == 15 and me["notifications"]["reminder"] == "push"
    changed = api.patch(
        "/api/v1/me/",
        {"email_after_push_minutes": 0, "notifications": {"message": "push"}},
        format="json",
    )
    assert changed.status_code == 200 and changed.json()["email_after_push_minutes"] == 0
    for wrong in ({"email_after_push_minutes": 1441}, {"notifications": {"message": "pigeon"}}):
        assert api.patch("/api/v1/me/", wrong, format="json").status_code == 400, wrong
    assert profile_of(alice).notifications["message"] == "push"


def test_a_renewed_subscription_replaces_the_old_one(alice: User) -> None:
    """The service worker's pushsubscriptionchange posts the old endpoint and the new
    subscription, with no session nor CSRF token: the old endpoint proves the device."""
    assert post(alice, subscription("https://push.example.net/old")).status_code == 201
    fresh = subscription("https://push.example.net/new")
    client = Client(enforce_csrf_checks=True)
    body = {"old": "https://push.example.net/old", "subscription": fresh}
    answer = client.post("/push/renew/", json.dumps(body), content_type="application/json")
    assert answer.status_code == 204
    device = PushSubscription.objects.get()
    assert (device.user, device.endpoint) == (alice, fresh["endpoint"])
    assert device.p256dh == fresh["keys"]["p256dh"]
    unknown = {"old": "https://push.example.net/never", "subscription": subscription()}
    assert (
        client.post(
            "/push/renew/", json.dumps(unknown), content_type="application/json"
        ).status_code
        == 404
    )
    bad = {"old": "https://push.example.net/new", "subscription": {"endpoint": "x"}}
    assert (
        client.post("/push/renew/", json.dumps(bad), content_type="application/json").status_code
        == 400
    )
