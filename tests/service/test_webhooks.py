"""Webhooks (docs/webhooks.md), delivered to a real HTTP server on 127.0.0.1: every
event once, in order, signed; a receiver that fails then recovers; a webhook turned
off after repeated failures, its owner told, and on again; a replayed delivery
refused by the documented check; the guard against private addresses; the API, the
page, and a real Celery worker."""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import ssl
import urllib.request
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from django.db import transaction
from django.test import Client
from django.utils import timezone

from games.feed.events import KINDS
from games.lobby.challenges import accept_challenge, create_challenge
from games.models import Event, Game, Notification
from games.play.dealing import announce, start_game
from games.play.services import resign
from games.play.stalemate import answer_stalemate, offer_stalemate
from webhooks import addresses, delivery, signing
from webhooks.models import Delivery, Webhook
from webhooks.services import create_webhook, update_webhook
from webhooks.signing import SignatureError, verify

from .conftest import browser, client_for, mover_and_other, play_turn, wait_until
from .racing import race
from .test_worker import worker
from .webhook_receiver import Receiver, hook_receiver, make_certificates, serving

__all__ = ["hook_receiver", "worker"]

Run = Callable[..., Any]
ALL = list(KINDS)


def hook_for(user: User, receiver: Receiver, kinds: list[str] | None = None) -> Webhook:
    hook = create_webhook(user, receiver.url, kinds or ALL)
    receiver.secret = hook.secret
    return hook


def deal(alice: User, bob: User, seed: int) -> Game:
    """A game dealt and announced, as an accepted challenge deals it."""
    with transaction.atomic():
        game = start_game(alice, bob, seed=seed)
        announce(game)
    return game


def expected(user: User, kinds: list[str] | None = None) -> list[dict[str, Any]]:
    """The player's events of those kinds, as a receiver reads them (JSON), in order."""
    rows = Event.objects.filter(user=user, kind__in=kinds or ALL).order_by("pk")
    return [json.loads(delivery.body_of(Delivery(event=row, kind=row.kind))) for row in rows]


def a_whole_game(run: Run, alice: User, bob: User) -> Game:
    """Challenged, accepted, turns, a stalemate offer declined, more turns, resigned."""
    challenge = run(create_challenge, alice, opponent="bob")
    accepted = run(accept_challenge, challenge.pk, bob)
    game = Game.objects.get(pk=accepted.game_id)
    for _ in range(3):
        run(play_turn, game, alice, bob)
    mover, waiting = mover_and_other(game, alice, bob)
    run(offer_stalemate, game_id=game.pk, user=waiting)
    run(answer_stalemate, game_id=game.pk, user=mover, accept=False)
    for _ in range(2):
        run(play_turn, game, alice, bob)
    run(resign, game_id=game.pk, user=bob)
    return game


def in_order_per_game(events: list[dict[str, Any]]) -> bool:
    seen: dict[int, int] = {}
    for event in events:
        if "game" in event:
            if event["version"] < seen.get(event["game"], 0):
                return False
            seen[event["game"]] = event["version"]
    return [e["id"] for e in events] == sorted(e["id"] for e in events)


# The whole life of a game, delivered.


@pytest.mark.django_db
def test_every_event_of_a_whole_game_arrives_once_in_order_and_signed(
    run: Run, alice: User, bob: User, hook_receiver: Receiver
) -> None:
    kinds = ["game_started", "your_turn", "move", "stalemate_offered", "game_over"]
    hook = hook_for(alice, hook_receiver, kinds)
    a_whole_game(run, alice, bob)

    received = hook_receiver.events()
    assert received == expected(alice, kinds)
    assert {e["kind"] for e in received} == set(kinds)  # each kind, and no other
    assert len({e["id"] for e in received}) == len(received)  # each once
    assert in_order_per_game(received)
    requests = hook_receiver.taken()
    assert all(r.signature_error == "" for r in requests)
    for request in requests:
        assert request.path == "/hooks/rbank?source=tests"
        assert request.headers["Content-Type"] == "application/json"
        assert request.headers["User-Agent"] == "RussianBank-Webhooks/1"
        assert request.headers["Rbank-Event"] == request.event["kind"]
        assert request.headers["Host"] == f"127.0.0.1:{hook_receiver.port}"
    ids = [int(r.headers["Rbank-Delivery"]) for r in requests]
    rows = Delivery.objects.filter(webhook=hook).order_by("pk")
    assert ids == [row.pk for row in rows]
    assert {(row.status, row.attempts, row.response_status) for row in rows} == {
        ("delivered", 1, 200)
    }
    assert all(row.response_body == '{"ok": true}' for row in rows)


@pytest.mark.django_db
def test_each_player_gets_their_own_events_only(
    run: Run, alice: User, bob: User, charlie: User, hook_receiver: Receiver
) -> None:
    hook_for(bob, hook_receiver)
    create_webhook(charlie, hook_receiver.url, ALL)  # charlie plays in no game here
    a_whole_game(run, alice, bob)
    assert hook_receiver.events() == expected(bob)
    assert {e["kind"] for e in hook_receiver.events()} >= {"challenge", "game_over"}


# Failures, retries, disabling.


@pytest.mark.django_db
def test_a_receiver_that_fails_then_recovers_gets_everything_once_in_order(
    run: Run, alice: User, bob: User, hook_receiver: Receiver, settings: Any
) -> None:
    settings.WEBHOOK_RETRY_BACKOFF = 60
    hook = hook_for(alice, hook_receiver)
    hook_receiver.fail_next = 3
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        game = run(deal, alice, bob, 11)
        run(play_turn, game, alice, bob)
        run(play_turn, game, alice, bob)
        # The first delivery failed; the later ones wait behind it.
        hook.refresh_from_db()
        assert hook.consecutive_failures == 1 and hook.retry_at == start + timedelta(seconds=60)
        assert hook_receiver.events() == []
        clock.shift(30)
        assert run(delivery.sweep) == 0  # its back-off is not over
        for wait in (30, 120, 240):  # 60 s, then doubled at each failure
            clock.shift(wait - 1)
            assert run(delivery.sweep) == 0
            clock.shift(1)
            assert run(delivery.sweep) == 1
    assert len(hook_receiver.requests) == len(expected(alice)) + 3
    assert hook_receiver.events() == expected(alice)
    assert in_order_per_game(hook_receiver.events())
    first, *rest = Delivery.objects.filter(webhook=hook).order_by("pk")
    assert (first.status, first.attempts) == ("delivered", 4)
    assert {(row.status, row.attempts) for row in rest} == {("delivered", 1)}
    after = Webhook.objects.get(pk=hook.pk)
    assert (after.consecutive_failures, after.retry_at, after.active) == (0, None, True)


@pytest.mark.django_db
def test_a_receiver_that_does_not_answer_in_time_is_a_failed_attempt(
    run: Run, alice: User, bob: User, hook_receiver: Receiver, settings: Any
) -> None:
    settings.WEBHOOK_TIMEOUT = 0.5
    hook = hook_for(alice, hook_receiver, ["game_started"])
    hook_receiver.fail_next, hook_receiver.hang = 1, 2.0
    run(deal, alice, bob, 12)
    row = Delivery.objects.get(webhook=hook)
    assert (row.status, row.attempts, row.response_status) == ("pending", 1, None)
    assert "timed out" in row.last_error.lower() and row.next_attempt_at is not None
    with time_machine.travel(row.next_attempt_at + timedelta(seconds=1)):
        assert run(delivery.sweep) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("delivered", 2)
    assert [r.event["kind"] for r in hook_receiver.taken()] == ["game_started"]


@pytest.mark.django_db
def test_a_delivery_gives_up_after_its_attempts_and_the_next_one_goes(
    run: Run, alice: User, bob: User, hook_receiver: Receiver, settings: Any
) -> None:
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    hook = hook_for(alice, hook_receiver, ["game_started", "move"])
    hook_receiver.fail_next = 2
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = run(deal, alice, bob, 13)
        run(play_turn, game, alice, bob)
        clock.shift(61)
        assert run(delivery.sweep) == 1
        clock.shift(121)
        assert run(delivery.sweep) == 1
    first, *rest = Delivery.objects.filter(webhook=hook).order_by("pk")
    assert (first.status, first.attempts, first.response_status) == ("failed", 2, 500)
    assert first.last_error == "HTTP 500 Internal Server Error"
    assert rest and {row.status for row in rest} == {"delivered"}


@pytest.mark.django_db
def test_repeated_failures_turn_the_webhook_off_and_email_its_owner_and_on_again_resumes(
    run: Run, alice: User, bob: User, hook_receiver: Receiver, settings: Any
) -> None:
    settings.WEBHOOK_DISABLE_AFTER = 3
    hook = hook_for(alice, hook_receiver)
    hook_receiver.fail_next, hook_receiver.fail_status = 1000, 503
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = run(deal, alice, bob, 14)
        for _ in range(2):
            clock.shift(3600)
            assert run(delivery.sweep) == 1
        hook.refresh_from_db()
        assert not hook.active and hook.disabled_at == timezone.now()
        assert hook.disabled_reason == "HTTP 503 Service Unavailable"
        clock.shift(3600)
        assert run(delivery.sweep) == 0  # off: nothing more is tried
        assert len(hook_receiver.requests) == 3
        # Events while it is off are not queued; the pending ones wait.
        waiting = Delivery.objects.filter(webhook=hook, status="pending").count()
        run(play_turn, game, alice, bob)
        assert Delivery.objects.filter(webhook=hook).count() == waiting

    (row,) = Notification.objects.filter(kind="webhook_disabled")
    assert (row.user, row.status) == (alice, "sent")
    (message,) = [m for m in mail.outbox if m.subject.startswith("Your webhook")]
    assert message.to == [alice.email]
    assert message.subject == "Your webhook is off after 3 failed deliveries"
    assert hook.url in message.body and "HTTP 503 Service Unavailable" in message.body
    assert "http://127.0.0.1:8000/account/webhooks/" in message.body

    hook_receiver.fail_next = 0
    answer = run(
        client_for(alice).patch, f"/api/v1/me/webhooks/{hook.pk}/", {"active": True}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json()["active"] is True and answer.json()["disabled_at"] is None
    sent_before_off = [e["id"] for e in expected(alice)][:waiting]
    assert [e["id"] for e in hook_receiver.events()] == sent_before_off
    assert not Delivery.objects.filter(webhook=hook).exclude(status="delivered").exists()


@pytest.mark.django_db
def test_a_delivery_whose_kind_was_unsubscribed_is_skipped(
    alice: User, bob: User, hook_receiver: Receiver, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    hook = hook_for(alice, hook_receiver, ["game_started", "your_turn"])
    monkeypatch.setattr("lib.outbox.dispatch", lambda *args: False)  # the broker is down
    run(deal, alice, bob, 15)
    update_webhook(alice, hook.pk, {"kinds": ["game_started"]})
    monkeypatch.undo()
    assert run(delivery.sweep) == 1  # the sweep queues what the broker did not take
    statuses = dict(Delivery.objects.filter(webhook=hook).values_list("kind", "status"))
    assert statuses == {"game_started": "delivered", "your_turn": "skipped"}
    assert [e["kind"] for e in hook_receiver.events()] == ["game_started"]


@pytest.mark.django_db
def test_one_worker_at_a_time_delivers_for_a_webhook_oldest_first(alice: User) -> None:
    hook = create_webhook(alice, "http://127.0.0.1:9/", ["move"])
    first, second = Delivery.objects.bulk_create(
        [Delivery(webhook=hook, kind="ping"), Delivery(webhook=hook, kind="ping")]
    )
    taken = delivery.claim(hook.pk)
    assert taken is not None and taken[1] == first
    # A second task finds the oldest claimed, and takes none behind it.
    assert delivery.claim(hook.pk) is None
    Delivery.objects.filter(pk=first.pk).update(status="delivered")
    taken = delivery.claim(hook.pk)
    assert taken is not None and taken[1] == second
    assert Delivery.objects.get(pk=second.pk).status == "sending"


@pytest.mark.django_db(transaction=True)
def test_racing_tasks_for_a_webhook_claim_its_oldest_delivery_once(alice: User) -> None:
    hook = create_webhook(alice, "http://127.0.0.1:9/", ["move"])
    first, _ = Delivery.objects.bulk_create(
        [Delivery(webhook=hook, kind="ping"), Delivery(webhook=hook, kind="ping")]
    )
    taken: list[int | None] = []

    def task() -> None:
        claimed = delivery.claim(hook.pk)
        taken.append(None if claimed is None else claimed[1].pk)

    race(4, task)
    assert sorted(taken, key=str) == [first.pk, None, None, None]


@pytest.mark.django_db
def test_the_daily_prune_deletes_old_deliveries(alice: User, settings: Any) -> None:
    hook = create_webhook(alice, "http://127.0.0.1:9/", ["move"])
    old = Delivery.objects.create(webhook=hook, kind="ping", status="delivered")
    Delivery.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
    recent = Delivery.objects.create(webhook=hook, kind="ping", status="delivered")
    assert delivery.prune() == 1
    assert list(Delivery.objects.all()) == [recent]


# The signature, and replays.


@pytest.mark.django_db
def test_a_replayed_delivery_is_refused_by_the_documented_check(
    run: Run, alice: User, bob: User, hook_receiver: Receiver
) -> None:
    hook = hook_for(alice, hook_receiver, ["game_started"])
    run(deal, alice, bob, 16)
    (original,) = hook_receiver.taken()
    assert original.signature_error == ""
    header, body = original.headers["Rbank-Signature"], original.body
    sent_at = verify(hook.secret, header, body)

    # Sent again, as recorded, six minutes later: the receiver's check refuses it.
    with time_machine.travel(sent_at + 360):
        replay = urllib.request.Request(
            hook_receiver.url,
            data=body,
            headers={"Rbank-Signature": header, "Content-Type": "application/json"},
        )
        urllib.request.urlopen(replay, timeout=10).close()
    assert "outside the tolerance" in hook_receiver.requests[-1].signature_error
    with pytest.raises(SignatureError, match="a replay"):
        verify(hook.secret, header, body, now=sent_at + 301)
    assert verify(hook.secret, header, body, now=sent_at + 299) == sent_at
    # Nor does a changed body, another secret, or a header without its parts pass.
    with pytest.raises(SignatureError, match="does not match"):
        verify(hook.secret, header, body.replace(b"game_started", b"game_over_"), now=sent_at)
    with pytest.raises(SignatureError, match="does not match"):
        verify("whsec_another", header, body, now=sent_at)
    for broken in ("", "t=,v1=", f"v1={header.split('v1=')[1]}", header.split(",")[0]):
        with pytest.raises(SignatureError):
            verify(hook.secret, broken, body, now=sent_at)


def documented_check() -> Callable[..., int]:
    """The check docs/webhooks.md gives receivers to copy, as they would copy it."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()
    code = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    names: dict[str, Any] = {}
    exec(code, names)
    check: Callable[..., int] = names["verify"]
    return check


@pytest.mark.django_db
def test_the_check_the_docs_give_accepts_a_delivery_and_refuses_a_replay(
    run: Run, alice: User, bob: User, hook_receiver: Receiver
) -> None:
    hook = hook_for(alice, hook_receiver, ["game_started"])
    run(deal, alice, bob, 25)
    (request,) = hook_receiver.taken()
    check = documented_check()
    header = request.headers["Rbank-Signature"]
    sent_at = check(hook.secret, header, request.body)
    with pytest.raises(ValueError, match="replay"):
        check(hook.secret, header, request.body, now=sent_at + 301)
    with pytest.raises(ValueError, match="does not match"):
        check(hook.secret, header, request.body + b" ")


def test_the_signature_is_stripes_scheme() -> None:
    body = b'{"id":1,"kind":"move"}'
    header = signing.sign("whsec_test", body, timestamp=1_800_000_000)
    import hashlib
    import hmac

    digest = hmac.new(b"whsec_test", b"1800000000." + body, hashlib.sha256).hexdigest()
    assert header == f"t=1800000000,v1={digest}"
    # Any v1 may match (room for two secrets while one is replaced).
    assert verify("whsec_test", f"t=1800000000,v1=00,v1={digest}", body, now=1_800_000_000)


# The guard against private addresses.


@pytest.fixture
def guarded(settings: Any) -> Any:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    return settings


def fake_dns(monkeypatch: pytest.MonkeyPatch, answers: dict[str, list[str]]) -> None:
    """Resolve these names to these addresses, and no other name (the socket module's
    own function, which the HTTP client's connection calls too with the address)."""

    real = socket.getaddrinfo

    def getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> list[Any]:
        if host in answers:
            return [(2 if "." in a else 10, 1, 6, "", (a, port)) for a in answers[host]]
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise OSError(f"unknown host {host}") from None
        return real(host, port, *args, **kwargs)  # the connection to the address checked

    monkeypatch.setattr("webhooks.addresses.socket.getaddrinfo", getaddrinfo)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://127.1.2.3:8000/admin/",
        "http://10.0.0.5/",
        "http://172.16.3.4/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0:8000/",
        "http://100.64.0.1/",
        "http://224.0.0.1/",
        "http://localhost:8000/",
    ],
)
@pytest.mark.django_db
def test_it_refuses_a_webhook_to_a_private_address(alice: User, guarded: Any, url: str) -> None:
    answer = client_for(alice).post(
        "/api/v1/me/webhooks/", {"url": url, "kinds": ["move"]}, format="json"
    )
    assert answer.status_code == 409, answer.json()
    assert answer.json()["error"] == "URL_REFUSED"
    assert "not a public address" in answer.json()["message"]
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("169.254.169.254", False),
        ("0.0.0.0", False),
        ("::1", False),
        ("::", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:10.0.0.1", False),
        ("fe80::1", False),
        ("fd00::1", False),
        ("2002:7f00:1::", False),  # 6to4 of 127.0.0.1
        ("ff02::1", False),
        ("93.184.216.34", True),
        ("2606:2800:220:1:248:1893:25c8:1946", True),
        ("::ffff:93.184.216.34", False),  # a mapped address is never a host's own
    ],
)
def test_it_tells_public_addresses_from_the_others(address: str, public: bool) -> None:
    assert addresses.is_public(address) is public


@pytest.mark.django_db
def test_a_name_that_resolves_to_a_private_address_is_refused(
    alice: User, guarded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_dns(
        monkeypatch,
        {
            "inside.example.com": ["::1"],
            "mixed.example.com": ["93.184.216.34", "::ffff:127.0.0.1"],
            "ok.example.com": ["93.184.216.34"],
        },
    )
    api = client_for(alice)
    for host in ("inside", "mixed", "nowhere"):
        answer = api.post(
            "/api/v1/me/webhooks/",
            {"url": f"https://{host}.example.com/", "kinds": ["move"]},
            format="json",
        )
        assert answer.json()["error"] == "URL_REFUSED", host
    answer = api.post(
        "/api/v1/me/webhooks/", {"url": "https://ok.example.com/", "kinds": ["move"]}, format="json"
    )
    assert answer.status_code == 201


@pytest.mark.django_db
def test_a_name_that_changes_its_address_after_registration_is_refused_at_delivery(
    run: Run,
    alice: User,
    bob: User,
    guarded: Any,
    monkeypatch: pytest.MonkeyPatch,
    hook_receiver: Receiver,
) -> None:
    """DNS rebinding: public when checked, the loopback when delivered to."""
    fake_dns(monkeypatch, {"rebind.example.com": ["93.184.216.34"]})
    url = f"http://rebind.example.com:{hook_receiver.port}/hooks"
    hook = create_webhook(alice, url, ["game_started"])
    fake_dns(monkeypatch, {"rebind.example.com": ["127.0.0.1"]})
    run(deal, alice, bob, 17)
    row = Delivery.objects.get(webhook=hook)
    assert (row.status, row.attempts) == ("pending", 1)
    assert row.last_error.startswith("refused: rebind.example.com resolves to 127.0.0.1")
    assert hook_receiver.requests == []


@pytest.mark.django_db
def test_a_delivery_connects_to_the_address_checked_with_the_urls_host_name(
    run: Run, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch, hook_receiver: Receiver
) -> None:
    fake_dns(monkeypatch, {"hooks.example.test": ["127.0.0.1"]})
    hook = create_webhook(
        alice, f"http://hooks.example.test:{hook_receiver.port}/in", ["game_started"]
    )
    hook_receiver.secret = hook.secret
    run(deal, alice, bob, 18)
    (request,) = hook_receiver.taken()
    assert request.headers["Host"] == f"hooks.example.test:{hook_receiver.port}"
    assert request.path == "/in" and request.signature_error == ""


@pytest.mark.django_db
def test_an_https_delivery_checks_the_certificate_of_the_urls_host_name(
    run: Run, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Connected to the address checked, the TLS server name and the certificate's
    check are still the URL's host name's."""
    ca, certificate, key = make_certificates(tmp_path, "hooks.example.test")
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(certificate, key)
    monkeypatch.setenv("SSL_CERT_FILE", str(ca))  # the test's authority, trusted
    fake_dns(
        monkeypatch, {"hooks.example.test": ["127.0.0.1"], "other.example.test": ["127.0.0.1"]}
    )
    with serving(tls) as receiver:
        good = create_webhook(
            alice, f"https://hooks.example.test:{receiver.port}/in", ["game_started"]
        )
        bad = create_webhook(
            alice, f"https://other.example.test:{receiver.port}/in", ["game_started"]
        )
        receiver.secret = good.secret
        run(deal, alice, bob, 26)
        (request,) = receiver.taken()
    assert request.headers["Host"] == f"hooks.example.test:{receiver.port}"
    assert request.signature_error == ""
    assert Delivery.objects.get(webhook=good).status == "delivered"
    refused = Delivery.objects.get(webhook=bad)
    assert refused.status == "pending" and "SSL" in refused.last_error
    assert "other.example.test" in refused.last_error  # the name the certificate lacks


@pytest.mark.django_db
def test_a_new_url_is_tried_at_once_without_its_predecessors_failures(
    run: Run, alice: User, bob: User, hook_receiver: Receiver
) -> None:
    hook = create_webhook(alice, "http://127.0.0.1:9/nothing-listens", ["game_started"])
    hook_receiver.secret = hook.secret
    run(deal, alice, bob, 27)
    hook.refresh_from_db()
    assert hook.consecutive_failures == 1 and hook.retry_at is not None
    answer = run(
        client_for(alice).patch,
        f"/api/v1/me/webhooks/{hook.pk}/",
        {"url": hook_receiver.url},
        format="json",
    )
    assert answer.status_code == 200 and answer.json()["consecutive_failures"] == 0
    assert [e["kind"] for e in hook_receiver.events()] == ["game_started"]


@pytest.mark.django_db
def test_an_address_refused_later_fails_the_attempt(
    run: Run, alice: User, bob: User, hook_receiver: Receiver, settings: Any
) -> None:
    hook = hook_for(alice, hook_receiver, ["game_started"])
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    run(deal, alice, bob, 19)
    row = Delivery.objects.get(webhook=hook)
    assert row.status == "pending"
    assert "127.0.0.1, which is not a public address" in row.last_error
    assert hook_receiver.requests == []


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/",
        "file:///etc/passwd",
        "https://user:pw@example.com/",
        "https://example.com@127.0.0.1/",
        "https://example.com/#fragment",
        "https://[::1]/",
        "https://exa mple.com/",
        "https://example.com:0/",
        "https://example.com:70000/",
        "example.com",
        "https://example.com/" + "a" * 2000,
    ],
)
@pytest.mark.django_db
def test_it_refuses_a_url_that_is_not_one_a_webhook_may_have(alice: User, url: str) -> None:
    answer = client_for(alice).post(
        "/api/v1/me/webhooks/", {"url": url, "kinds": ["move"]}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["error"] == "BAD_REQUEST"
    assert answer.json()["message"].startswith("url:")


@pytest.mark.django_db
def test_it_requires_https_when_set(alice: User, settings: Any) -> None:
    settings.WEBHOOK_REQUIRE_HTTPS = True
    api = client_for(alice)
    body = {"url": "http://a.example/", "kinds": ["move"]}
    answer = api.post("/api/v1/me/webhooks/", body, format="json")
    assert answer.status_code == 409 and "https://" in answer.json()["message"]
    body["url"] = "https://a.example/"
    answer = api.post("/api/v1/me/webhooks/", body, format="json")
    assert answer.status_code == 201


# The API.


@pytest.mark.django_db
def test_the_secret_is_shown_when_made_or_replaced_and_never_again(
    run: Run, alice: User, bob: User, hook_receiver: Receiver
) -> None:
    api = client_for(alice)
    made = api.post(
        "/api/v1/me/webhooks/",
        {"url": hook_receiver.url, "kinds": ["game_started", "move"]},
        format="json",
    )
    assert made.status_code == 201
    body = made.json()
    assert body["secret"].startswith("whsec_") and len(body["secret"]) > 40
    assert body["kinds"] == ["game_started", "move"] and body["active"] is True
    hook_id = body["id"]
    listed = api.get("/api/v1/me/webhooks/").json()
    assert listed["count"] == 1 and "secret" not in listed["results"][0]
    assert "secret" not in api.get(f"/api/v1/me/webhooks/{hook_id}/").json()
    changed = api.patch(f"/api/v1/me/webhooks/{hook_id}/", {"kinds": ["game_over"]}, format="json")
    assert changed.status_code == 200 and "secret" not in changed.json()
    assert body["secret"] not in str(api.get(f"/api/v1/me/webhooks/{hook_id}/deliveries/").json())

    replaced = api.post(f"/api/v1/me/webhooks/{hook_id}/secret/")
    assert replaced.status_code == 200
    new = replaced.json()["secret"]
    assert new != body["secret"] and new.startswith("whsec_")
    hook_receiver.secret = new
    api.patch(f"/api/v1/me/webhooks/{hook_id}/", {"kinds": ["game_started"]}, format="json")
    run(deal, alice, bob, 20)
    (request,) = hook_receiver.taken()
    assert request.signature_error == ""  # signed with the new secret
    with pytest.raises(SignatureError):
        verify(body["secret"], request.headers["Rbank-Signature"], request.body)


@pytest.mark.django_db
def test_the_delivery_log_ping_and_redelivery(
    run: Run, alice: User, bob: User, hook_receiver: Receiver
) -> None:
    hook = hook_for(alice, hook_receiver, ["game_started"])
    api = client_for(alice)
    run(deal, alice, bob, 21)
    pinged = run(api.post, f"/api/v1/me/webhooks/{hook.pk}/ping/")
    assert pinged.status_code == 201 and pinged.json()["kind"] == "ping"
    log = api.get(f"/api/v1/me/webhooks/{hook.pk}/deliveries/").json()
    assert log["count"] == 2
    ping_row, started = log["results"]  # newest first
    event = Event.objects.get(user=alice, kind="game_started")
    assert started["event"] == event.pk and started["game"] == event.game_id
    assert started["kind"] == "game_started" and started["status"] == "delivered"
    assert started["attempts"] == 1 and started["response_status"] == 200
    assert started["response_body"] == '{"ok": true}' and started["last_error"] == ""
    assert started["delivered_at"] and started["last_attempt_at"] and started["created_at"]
    assert isinstance(started["duration_ms"], int) and started["next_attempt_at"] is None
    assert ping_row["event"] is None and ping_row["status"] == "delivered"
    ping = hook_receiver.taken()[-1]
    assert ping.headers["Rbank-Event"] == "ping" and ping.signature_error == ""
    assert ping.event["kind"] == "ping" and ping.event["webhook"] == hook.pk

    again = run(api.post, f"/api/v1/me/webhooks/{hook.pk}/deliveries/{started['id']}/redeliver/")
    assert again.status_code == 201
    assert again.json()["event"] == event.pk and again.json()["id"] > ping_row["id"]
    bodies = [r.event for r in hook_receiver.taken()]
    assert bodies[0] == bodies[-1] and bodies[0]["id"] == event.pk  # the same event, again
    assert len({r.headers["Rbank-Delivery"] for r in hook_receiver.taken()}) == 3


@pytest.mark.django_db
def test_it_refuses_bad_bodies_and_too_many_webhooks(alice: User) -> None:
    api = client_for(alice)
    url = "https://hooks.example.com/rbank"
    for body, words in (
        ({"url": url}, "kinds"),
        ({"url": url, "kinds": []}, "kinds"),
        ({"url": url, "kinds": ["moves"]}, "kinds"),
        ({"kinds": ["move"]}, "url"),
        ({"url": url, "kinds": ["move"], "secret": "mine"}, "secret: unknown field"),
        ({"url": url, "kinds": ["move"], "active": "yes"}, "active"),
    ):
        answer = api.post("/api/v1/me/webhooks/", body, format="json")
        assert answer.status_code == 400, body
        assert answer.json()["error"] == "BAD_REQUEST" and words in answer.json()["message"]
    for n in range(5):
        body = {"url": f"{url}/{n}", "kinds": ["move"]}
        assert api.post("/api/v1/me/webhooks/", body, format="json").status_code == 201
    answer = api.post("/api/v1/me/webhooks/", {"url": url, "kinds": ["move"]}, format="json")
    assert answer.status_code == 409 and answer.json()["error"] == "TOO_MANY_WEBHOOKS"


@pytest.mark.django_db
def test_another_players_webhook_is_not_found(alice: User, charlie: User) -> None:
    hook = create_webhook(alice, "https://hooks.example.com/rbank", ["move"])
    row = Delivery.objects.create(webhook=hook, kind="ping")
    api = client_for(charlie)
    base = f"/api/v1/me/webhooks/{hook.pk}/"
    for answer in (
        api.get(base),
        api.patch(base, {"active": False}, format="json"),
        api.delete(base),
        api.post(base + "secret/"),
        api.post(base + "ping/"),
        api.get(base + "deliveries/"),
        api.post(base + f"deliveries/{row.pk}/redeliver/"),
    ):
        assert answer.status_code == 404 and answer.json()["error"] == "NOT_FOUND"
    assert api.get("/api/v1/me/webhooks/").json()["count"] == 0
    hook.refresh_from_db()
    assert hook.active and Delivery.objects.count() == 1
    assert client_for(None).get("/api/v1/me/webhooks/").status_code == 401


@pytest.mark.django_db
def test_an_off_webhook_queues_nothing_and_cannot_be_pinged(
    run: Run, alice: User, bob: User, hook_receiver: Receiver
) -> None:
    api = client_for(alice)
    made = api.post(
        "/api/v1/me/webhooks/",
        {"url": hook_receiver.url, "kinds": ALL, "active": False},
        format="json",
    )
    assert made.status_code == 201 and made.json()["active"] is False
    hook_id = made.json()["id"]
    run(deal, alice, bob, 22)
    assert not Delivery.objects.exists()
    answer = api.post(f"/api/v1/me/webhooks/{hook_id}/ping/")
    assert answer.status_code == 409 and answer.json()["error"] == "WEBHOOK_OFF"
    assert api.delete(f"/api/v1/me/webhooks/{hook_id}/").status_code == 204
    assert not Webhook.objects.exists()


# The page.


@pytest.mark.django_db
def test_the_page_makes_lists_and_deletes_webhooks_with_their_log(
    run: Run, alice: User, bob: User, hook_receiver: Receiver
) -> None:
    page = browser(alice)
    assert b'href="/account/webhooks/"' in page.get("/account/").content  # in the account's tabs
    made = page.post(
        "/account/webhooks/", {"url": hook_receiver.url, "kinds": ["game_started", "game_over"]}
    )
    assert made.status_code == 201 and made["Cache-Control"] == "no-store"
    hook = Webhook.objects.get(user=alice)
    assert hook.secret in made.content.decode()
    hook_receiver.secret = hook.secret
    run(deal, alice, bob, 23)
    shown = page.get("/account/webhooks/").content.decode()
    assert hook.secret not in shown and hook_receiver.url in shown
    assert "game_started" in shown and "delivered" in shown  # the log

    refused = page.post("/account/webhooks/", {"url": "ftp://x/", "kinds": ["move"]})
    assert refused.status_code == 400 and "not a URL a webhook can have" in refused.content.decode()
    page.post(f"/account/webhooks/{hook.pk}/switch/", {"active": "0"})
    hook.refresh_from_db()
    assert not hook.active
    assert browser(bob).post(f"/account/webhooks/{hook.pk}/delete/").status_code == 302
    assert Webhook.objects.filter(pk=hook.pk).exists()  # not bob's to delete
    page.post(f"/account/webhooks/{hook.pk}/delete/")
    assert not Webhook.objects.exists()


@pytest.mark.django_db
def test_the_pages_forms_need_the_csrf_token(alice: User) -> None:
    page = Client(enforce_csrf_checks=True)
    page.force_login(alice)
    answer = page.post("/account/webhooks/", {"url": "https://a.example/", "kinds": ["move"]})
    assert answer.status_code == 403 and not Webhook.objects.exists()
    assert Client().get("/account/webhooks/").status_code == 302  # signed out: to the login


# A real worker.


@pytest.fixture
def committed_users() -> Iterator[tuple[User, User]]:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-alice-123")
    bob = User.objects.create_user("bob", "bob@example.com", "pw-bob-123")
    yield alice, bob


@pytest.mark.django_db(transaction=True)
def test_a_worker_delivers_after_the_commit(
    worker: None, hook_receiver: Receiver, committed_users: tuple[User, User]
) -> None:
    alice, bob = committed_users
    hook_for(alice, hook_receiver)
    game = deal(alice, bob, 24)
    play_turn(game, alice, bob)
    count = len(expected(alice))
    assert wait_until(lambda: len(hook_receiver.taken()) >= count), "nothing delivered"
    assert hook_receiver.events() == expected(alice)
    assert all(r.signature_error == "" for r in hook_receiver.taken())
    assert wait_until(lambda: not Delivery.objects.exclude(status="delivered").exists(), seconds=10)
