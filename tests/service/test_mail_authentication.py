"""Who wrote a reply (mailplay.authentication): a reply plays only when a DKIM signature
of its From domain proves it, checked by the service itself, with real keys and real
signatures made here and DNS replaced by a zone of the test's own (the edge of the
world); the verdict is stored on the inbound row and shown in the admin."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.services import update_profile
from config.run import _env as make_run_environment
from games.models import Game, Message
from games.notify.mail_play import ReplyAddress
from games.play.dealing import start_game
from mailplay import authentication
from mailplay.handling import sweep
from mailplay.models import InboundMail

from .conftest import browser, wait_until, whole_turn
from .mailbox import plain, reply
from .receiver import Receiver, receiver
from .signing import Key, Zone
from .smtp import Inbox, smtp_inbox, text_of
from .test_play_by_mail import by_mail, deliver, started, turn_mail

__all__ = ["by_mail", "receiver", "smtp_inbox", "started"]

pytestmark = pytest.mark.django_db

Outcome = InboundMail.Outcome
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def key() -> Key:
    return Key.new()


@pytest.fixture
def zone(settings: Any, monkeypatch: pytest.MonkeyPatch, key: Key) -> Zone:
    """The check on, as in production, and example.com publishing its signing key."""
    settings.MAIL_AUTHENTICATE_SENDER = True
    zone = Zone()
    zone.publish_key(key, "example.com")
    monkeypatch.setattr(authentication, "dns_txt", zone.txt)
    return zone


def plain_ascii(sender: str, to: str, text: str) -> bytes:
    """A plain-text message whose body is its text as is (7bit), as a mail program
    sends a short ASCII reply."""
    head = f"From: {sender}\nTo: {to}\nSubject: Re: your turn\nMessage-ID: {make_msgid()}\n"
    return (head + f"Content-Type: text/plain; charset=us-ascii\n\n{text}\n").encode()


def signed_turn(inbox: Inbox, game: Game, player: User, key: Key, domain: str) -> bytes:
    return key.sign(reply(turn_mail(inbox, player), " ".join(whole_turn(game))), domain)


def test_a_reply_signed_by_its_from_domain_plays(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    zone: Zone,
    key: Key,
) -> None:
    game, mover, _ = started
    version = game.version
    deliver(run, signed_turn(smtp_inbox, game, mover, key, "example.com"))
    row = InboundMail.objects.get()
    assert row.outcome == Outcome.PLAYED, row.detail
    assert row.authentication == "pass"
    assert row.authentication_detail == "dkim=pass header.d=example.com aligned with example.com"
    game.refresh_from_db()
    assert game.version > version
    assert "mail._domainkey.example.com" in zone.asked


def test_a_forged_from_plays_nothing_and_the_player_hears_of_it_at_their_account_address(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    zone: Zone,
) -> None:
    """Anyone holding the reply address can write the player's address in From: with no
    signature of its domain nothing is played, and the player is told, once an hour,
    at the address of their account, never at the message's From."""
    game, mover, _ = started
    EmailAddress.objects.create(user=mover, email="work@example.org", verified=True)
    version = game.version
    email = turn_mail(smtp_inbox, mover)
    for _ in range(2):
        deliver(run, reply(email, " ".join(whole_turn(game)), sender="work@example.org"))
    rows = list(InboundMail.objects.order_by("pk"))
    assert [(r.outcome, r.authentication) for r in rows] == [
        (Outcome.UNAUTHENTICATED, "fail"),
        (Outcome.UNAUTHENTICATED, "fail"),
    ]
    assert rows[0].authentication_detail == "no DKIM signature"
    assert [r.answered for r in rows] == [True, False]  # once an hour
    game.refresh_from_db()
    assert game.version == version and not Message.objects.exists()
    assert not smtp_inbox.to("work@example.org")
    (told,) = [m for m in smtp_inbox.to(mover.email) if "could not be proved" in m["Subject"]]
    assert "Nothing was played" in text_of(told) and "work@example.org" in text_of(told)
    assert told["Reply-To"] is None


def test_an_unsigned_reply_under_a_strangers_address_gets_no_answer_at_all(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    zone: Zone,
    charlie: User,
) -> None:
    """Not even the short answer a verified stranger gets: the From may be forged."""
    _, mover, _ = started
    EmailAddress.objects.create(user=charlie, email=charlie.email, verified=True)
    sent = len(smtp_inbox.messages)
    deliver(run, reply(turn_mail(smtp_inbox, mover), "resign", sender=charlie.email))
    assert InboundMail.objects.get().outcome == Outcome.UNAUTHENTICATED
    assert len(smtp_inbox.messages) == sent


def test_a_signature_by_another_domain_is_no_proof(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    zone: Zone,
) -> None:
    """A valid signature of the forger's own domain says nothing of the From's."""
    game, mover, _ = started
    forger = Key.new()
    zone.publish_key(forger, "evil.example")
    deliver(run, signed_turn(smtp_inbox, game, mover, forger, "evil.example"))
    row = InboundMail.objects.get()
    assert (row.outcome, row.authentication) == (Outcome.UNAUTHENTICATED, "fail")
    assert "header.d=evil.example not aligned with example.com" in row.authentication_detail


def test_a_subdomains_signature_proves_the_from_unless_dmarc_asks_for_strict_alignment(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    zone: Zone,
    key: Key,
) -> None:
    game, mover, _ = started
    zone.publish_key(key, "mx.example.com")
    deliver(run, signed_turn(smtp_inbox, game, mover, key, "mx.example.com"))
    assert InboundMail.objects.get().outcome == Outcome.PLAYED  # relaxed, DMARC's default
    zone.publish("_dmarc.example.com", "v=DMARC1; p=reject; adkim=s")
    deliver(run, signed_turn(smtp_inbox, game, mover, key, "mx.example.com"))
    last = InboundMail.objects.order_by("pk").last()
    assert last is not None and last.outcome == Outcome.UNAUTHENTICATED
    assert "not aligned" in last.authentication_detail


def test_a_changed_body_or_a_body_left_open_by_l_is_no_proof(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    zone: Zone,
    key: Key,
) -> None:
    """Moves put in place of the signed ones, or signed with l= (whatever follows the
    signed length is anyone's): neither is played."""
    game, mover, _ = started
    email = turn_mail(smtp_inbox, mover)
    to = str(email["Reply-To"])
    signed = key.sign(plain_ascii(mover.email, to, "help"), "example.com")
    changed = signed.replace(b"\n\nhelp\n", b"\n\nresign\n")
    assert changed != signed
    deliver(run, changed)
    open_ended = key.sign(plain_ascii(mover.email, to, "resign"), "example.com", length=True)
    deliver(run, open_ended)
    rows = list(InboundMail.objects.order_by("pk"))
    assert [r.outcome for r in rows] == [Outcome.UNAUTHENTICATED] * 2
    assert "body hash mismatch" in rows[0].authentication_detail
    assert "l= leaves the body open" in rows[1].authentication_detail
    game.refresh_from_db()
    assert game.status == "playing"


def test_a_reply_waits_while_dns_cannot_answer_and_plays_when_it_can(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    zone: Zone,
    key: Key,
) -> None:
    game, mover, _ = started
    zone.down.add("mail._domainkey.example.com")
    sent = len(smtp_inbox.messages)
    deliver(run, signed_turn(smtp_inbox, game, mover, key, "example.com"))
    row = InboundMail.objects.get()
    assert (row.status, row.attempts) == ("received", 1) and "DnsUnavailable" in row.detail
    assert len(smtp_inbox.messages) == sent  # no verdict yet: nothing answered
    zone.down.clear()
    InboundMail.objects.update(next_attempt_at=timezone.now())
    run(sweep)
    row.refresh_from_db()
    assert (row.outcome, row.authentication) == (Outcome.PLAYED, "pass")


@pytest.mark.django_db(transaction=True)
def test_a_signed_reply_over_smtp_plays(receiver: Receiver, zone: Zone, key: Key) -> None:
    """The receiver keeps the message byte for byte (CRLF on the wire): the signature
    made by the sender's server still verifies."""
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    for user in (alice, bob):
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        update_profile(user, {"play_by_mail": True})
    game = start_game(alice, bob, seed=5)
    mover = game.user_at(game.letters.index(game.to_move))
    address = str(ReplyAddress(game.pk, game.to_move, game.version))
    raw = key.sign(plain(mover.email, address, "help"), "example.com")
    receiver.deliver(raw, address, mail_from=mover.email)  # sent with CRLF, as on the wire
    assert wait_until(lambda: InboundMail.objects.get().status == "done", 30)
    row = InboundMail.objects.get()
    assert (row.outcome, row.authentication) == (Outcome.HELP, "pass"), row.detail


def test_the_admin_shows_each_messages_verdict(
    started: tuple[Game, User, User],
    smtp_inbox: Inbox,
    run: Callable[..., Any],
    zone: Zone,
    key: Key,
) -> None:
    game, mover, _ = started
    deliver(run, signed_turn(smtp_inbox, game, mover, key, "example.com"))
    deliver(run, reply(turn_mail(smtp_inbox, mover), "help"))  # unsigned
    root = User.objects.create_superuser("root", "root@example.com", "pw-root-123")
    page = browser(root).get("/admin/mailplay/inboundmail/").content.decode()
    assert "column-authentication" in page
    assert page.count('<td class="field-authentication">pass</td>') == 1
    assert page.count('<td class="field-authentication">fail</td>') == 1
    failed = InboundMail.objects.get(authentication="fail")
    detail = browser(root).get(f"/admin/mailplay/inboundmail/{failed.pk}/change/")
    assert "no DKIM signature" in detail.content.decode()


def settings_say(**env: str) -> str:
    """MAIL_AUTHENTICATE_SENDER as the production settings make it from ``env``."""
    environ = {
        k: v for k, v in os.environ.items() if k not in ("DEBUG", "MAIL_AUTHENTICATE_SENDER")
    }
    environ.update(DJANGO_SETTINGS_MODULE="config.settings", SECRET_KEY="s" * 50, **env)
    code = "import django; from django.conf import settings as s; django.setup();"
    code += " print(s.MAIL_AUTHENTICATE_SENDER)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_check_is_on_in_production_and_off_under_make_runs_debug() -> None:
    assert settings_say() == "True"  # production: DEBUG is off unless set
    assert settings_say(DEBUG="1") == "False"  # make run: its demo mailbox signs nothing
    assert settings_say(DEBUG="1", MAIL_AUTHENTICATE_SENDER="1") == "True"
    assert settings_say(MAIL_AUTHENTICATE_SENDER="0") == "False"
    assert make_run_environment()["DEBUG"] == "1"
