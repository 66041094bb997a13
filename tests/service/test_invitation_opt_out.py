"""A stranger invited by e-mail asks, in one click (RFC 8058), never to be invited again:
the invitation carries List-Unsubscribe, the link records the address, and every
invitation to it is refused, until the address signs up."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import InvitationOptOut
from games.lobby.challenges import create_challenge
from games.models import Challenge, Notification
from games.notify.notifications import notify
from games.tasks import send_notification
from lib.errors import ServiceError

from .conftest import NEW_GAME_FORM, browser, client_for
from .smtp import Inbox, smtp_inbox, text_of

pytestmark = pytest.mark.django_db
__all__ = ["smtp_inbox"]

STRANGER = "dora@example.com"


def invite(
    alice: User, smtp_inbox: Inbox, capture: Any, address: str = STRANGER
) -> tuple[str, str]:
    """Alice invites ``address``: the e-mail's one-click link, and the path it names."""
    with capture(execute=True):
        create_challenge(alice, email=address)
    (message,) = smtp_inbox.to(address)
    assert str(message["List-Unsubscribe-Post"]).strip() == "List-Unsubscribe=One-Click"
    header = str(message["List-Unsubscribe"]).strip()
    assert header.startswith("<http") and header.endswith(">")
    link = header.strip("<>")
    assert link in text_of(message)  # the footer offers it too, in words
    assert "alice invited this address" in text_of(message)
    return link, "/unsubscribe/" + link.split("/unsubscribe/")[1]


def refusal(alice: User, address: str) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        create_challenge(alice, email=address)
    return refused.value


def test_it_invites_a_stranger_with_a_one_click_link_never_to_be_invited_again(
    alice: User, smtp_inbox: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    _link, path = invite(alice, smtp_inbox, django_capture_on_commit_callbacks)
    # A mail client's one-click POST: no session, no CSRF token, RFC 8058's body.
    mail_client = Client(enforce_csrf_checks=True)
    done = mail_client.post(path, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded")
    assert done.status_code == 200 and STRANGER in done.text
    assert list(InvitationOptOut.objects.values_list("address", flat=True)) == [STRANGER]
    assert mail_client.post(path).status_code == 200  # twice is once
    assert InvitationOptOut.objects.count() == 1


def test_its_page_asks_first_with_a_button_and_changes_nothing(
    alice: User, smtp_inbox: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    _link, path = invite(alice, smtp_inbox, django_capture_on_commit_callbacks)
    page = Client().get(path)  # a link scanner, or the invitee reading first
    assert page.status_code == 200
    assert '<form method="post"><button>Never invite me again</button></form>' in page.text
    assert not InvitationOptOut.objects.exists()
    forged = path.replace(path.split("/")[2][:8], "AAAAAAAA")
    assert Client().post(forged).status_code == 404
    assert not InvitationOptOut.objects.exists()


def test_it_refuses_every_invitation_to_the_address_with_a_clear_error(
    alice: User, bob: User, smtp_inbox: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    _link, path = invite(alice, smtp_inbox, django_capture_on_commit_callbacks)
    Client().post(path)
    pending = Challenge.objects.count()
    for address in (STRANGER, "Dora@Example.COM"):  # whoever asks, in any case
        refused = refusal(bob, address)
        assert (refused.status, refused.code) == (403, "NOT_ACCEPTING_INVITATIONS")
        assert "asked never to be invited" in refused.message
    api = client_for(bob).post("/api/v1/challenges/", {"email": STRANGER}, format="json")
    assert api.status_code == 403 and api.json()["error"] == "NOT_ACCEPTING_INVITATIONS"
    page = browser(bob).post("/challenges/new/", {**NEW_GAME_FORM, "opponent": STRANGER})
    assert page.status_code == 400
    assert f"{STRANGER} asked never to be invited here again" in page.text
    assert Challenge.objects.count() == pending
    assert len(smtp_inbox.to(STRANGER)) == 1


def test_an_invitation_queued_before_the_request_is_not_sent(
    alice: User, smtp_inbox: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    _link, path = invite(alice, smtp_inbox, django_capture_on_commit_callbacks)
    challenge = Challenge.objects.get()
    queued = notify("invitation", email=STRANGER, challenge=challenge)  # not sent yet
    assert queued is not None
    Client().post(path)
    send_notification(queued.pk)
    queued.refresh_from_db()
    assert queued.status == Notification.Status.OUTDATED
    assert len(smtp_inbox.to(STRANGER)) == 1


def test_the_address_may_be_invited_again_once_it_signs_up(
    alice: User, smtp_inbox: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    _link, path = invite(alice, smtp_inbox, django_capture_on_commit_callbacks)
    Client().post(path)
    dora = User.objects.create_user("dora", STRANGER, "a-long-passphrase-42")
    EmailAddress.objects.create(user=dora, email=STRANGER, verified=False)
    assert refusal(alice, STRANGER).code == "NOT_ACCEPTING_INVITATIONS"  # not proved yet
    EmailAddress.objects.filter(user=dora).update(verified=True)
    with django_capture_on_commit_callbacks(execute=True):
        create_challenge(alice, email=STRANGER)  # a player's own settings decide now
    (again,) = smtp_inbox.to(STRANGER)[1:]
    # A player's invitation is no stranger's: its unsubscribe link is not this one.
    assert "alice invited this address" not in text_of(again)
