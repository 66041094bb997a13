"""An outbox that gives up: every e-mail arrives once, or ends failed.

A real SMTP server (aiosmtpd) in the test process hangs, refuses and comes back while
fake time (time-machine) runs the minute sweep minute by minute; the sending tasks run
eagerly, in the sweep's call. The socket timeouts are real: a hung server costs
EMAIL_TIMEOUT of real time per attempt, so the tests make it short.
"""

from __future__ import annotations

import logging
import smtplib
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth.models import User
from django.template import TemplateDoesNotExist, TemplateSyntaxError

from accounts.services import update_profile
from games.lobby.challenges import create_challenge
from games.models import Game, Notification
from games.notify.notifications import is_permanent, notify, send
from games.play.dealing import start_game
from games.play.stalemate import offer_stalemate
from games.sweep import sweep
from games.tasks import send_digests

from .smtp import Inbox, free_port, silent_smtp, smtp_inbox

pytestmark = pytest.mark.django_db
__all__ = ["silent_smtp", "smtp_inbox"]

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
#: The back-off of the defaults (60 s doubling, at most an hour): the minutes after the
#: first attempt at which the sweep makes the next ones.
ATTEMPT_MINUTES = [0, 1, 3, 7, 15, 31, 63, 123]


@pytest.fixture
def clock(settings: Any) -> Iterator[time_machine.Traveller]:
    """Fake time from START, standing still unless moved; a short SMTP timeout."""
    settings.EMAIL_TIMEOUT = 0.25
    settings.EMAIL_MAX_ATTEMPTS = 8
    settings.EMAIL_RETRY_BACKOFF = 60
    settings.EMAIL_RETRY_BACKOFF_MAX = 3600
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def at_once(django_capture_on_commit_callbacks: Any) -> Callable[[], Any]:
    """Run a service's on-commit hooks (the sending task, eagerly) as it commits."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def sweep_minutes(
    clock: time_machine.Traveller,
    minutes: range,
    before_each: Callable[[int], None] = lambda minute: None,
) -> None:
    """Run the minute sweep at each of ``minutes`` after START; after each, no row may
    be left claimed (the tasks ran in the sweep's call)."""
    for minute in minutes:
        clock.move_to(START + timedelta(minutes=minute))
        before_each(minute)
        sweep()
        assert not Notification.objects.filter(status="sending").exists(), minute


def attempt_log(row: Notification, log: dict[int, tuple[int, str]], minute: int) -> None:
    """Note the minute of each new attempt at ``row``, with its error."""
    row.refresh_from_db()
    if row.attempts and row.attempts not in {attempts for attempts, _ in log.values()}:
        log[minute] = (row.attempts, row.last_error)


def test_it_delivers_every_email_once_through_an_hour_long_outage(
    alice: User,
    bob: User,
    charlie: User,
    smtp_inbox: Inbox,
    silent_smtp: int,
    settings: Any,
    clock: time_machine.Traveller,
    at_once: Callable[[], Any],
) -> None:
    up, refused = settings.EMAIL_PORT, free_port()
    smtp_inbox.refuse["ghost@example.com"] = "550 5.1.1 no such user"

    def outage(minute: int) -> None:
        """Hung for 10 minutes, then refusing connections, then answering 451 to every
        message, and back at the hour."""
        settings.EMAIL_PORT = silent_smtp if minute < 10 else refused if minute < 30 else up
        smtp_inbox.fail_next = 10**6 if minute < 60 else 0

    outage(0)
    game = start_game(alice, bob, seed=11)
    with at_once():
        offer_stalemate(game_id=game.pk, user=alice)  # to bob
        create_challenge(alice, opponent="charlie")
        create_challenge(charlie, email="ghost@example.com")  # an address that is no more
    offer, invitation, dead = Notification.objects.order_by("pk")
    assert (offer.email, invitation.email, dead.email) == (
        bob.email,
        charlie.email,
        "ghost@example.com",
    )
    attempts: dict[int, tuple[int, str]] = {}
    attempt_log(offer, attempts, 0)
    for minute in range(1, 181):
        sweep_minutes(clock, range(minute, minute + 1), outage)
        attempt_log(offer, attempts, minute)

    # Each e-mail that can arrive arrived once; the dead address failed at its first answer.
    assert Counter(str(m["To"]) for m in smtp_inbox.messages) == {bob.email: 1, charlie.email: 1}
    assert smtp_inbox.data_commands == 4  # the two at minute 31 (451) and at 63
    for row in (offer, invitation):
        row.refresh_from_db()
        assert row.status == "sent" and row.attempts == 7
        assert row.sent_at == START + timedelta(minutes=63)
        assert row.next_attempt_at is None
    dead.refresh_from_db()
    assert dead.status == "failed" and dead.attempts == 6 and dead.next_attempt_at is None
    assert dead.last_error == "ghost@example.com: 550 5.1.1 no such user"
    # The attempts came at the back-off's minutes, each failing as the server did.
    assert list(attempts) == ATTEMPT_MINUTES[:7]
    errors = [error for _, error in attempts.values()]
    # smtplib words the timeout on the greeting as a disconnection.
    assert errors[:4] == ["SMTPServerDisconnected: Connection unexpectedly closed: timed out"] * 4
    assert errors[4].startswith("ConnectionRefusedError:")
    assert errors[5] == "451 try again later"


def test_it_gives_up_after_the_last_attempt_and_never_sends_it_later(
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    clock: time_machine.Traveller,
    at_once: Callable[[], Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    smtp_inbox.fail_next = 10**6  # down, for longer than the attempts last
    game = start_game(alice, bob, seed=12)
    with at_once():
        offer_stalemate(game_id=game.pk, user=alice)
    row = Notification.objects.get()
    seen: list[int] = []

    def watch(minute: int) -> None:
        if minute == 150:
            smtp_inbox.fail_next = 0  # back, too late
        seen.append(smtp_inbox.data_commands)

    with caplog.at_level(logging.WARNING, logger="games.notify.notifications"):
        sweep_minutes(clock, range(1, 301), watch)
    row.refresh_from_db()
    assert row.status == "failed" and row.attempts == 8
    assert row.last_error == "451 try again later" and row.next_attempt_at is None
    assert smtp_inbox.messages == [] and smtp_inbox.data_commands == 8
    # The eighth and last attempt came at minute 123; none after it.
    assert seen[123 - 1] == 7 and seen[124 - 1] == 8 and seen[-1] == 8
    records = [r for r in caplog.records if r.name == "games.notify.notifications"]
    (gave_up,) = [r for r in records if r.levelno == logging.ERROR]
    assert gave_up.getMessage() == (
        "e-mail gave up id=1 kind=stalemate_offer attempts=8 permanent=False "
        "error='451 try again later'"
    ).replace("id=1", f"id={row.pk}")
    assert len([r for r in records if r.levelno == logging.WARNING]) == 7


def test_it_fails_a_dead_address_at_once_and_retries_a_busy_one(
    alice: User,
    charlie: User,
    smtp_inbox: Inbox,
    clock: time_machine.Traveller,
    at_once: Callable[[], Any],
) -> None:
    smtp_inbox.refuse = {
        "ghost@example.com": "550 5.1.1 no such user",
        charlie.email: "450 4.2.1 mailbox busy",
    }
    with at_once():
        create_challenge(alice, email="ghost@example.com")
        create_challenge(alice, opponent="charlie")
    dead, busy = Notification.objects.order_by("pk")
    dead.refresh_from_db()
    assert (dead.status, dead.attempts) == ("failed", 1)
    assert dead.last_error == "ghost@example.com: 550 5.1.1 no such user"
    busy.refresh_from_db()
    assert (busy.status, busy.attempts) == ("pending", 1)
    assert busy.last_error == "charlie@example.com: 450 4.2.1 mailbox busy"
    assert busy.next_attempt_at == START + timedelta(minutes=1)
    smtp_inbox.refuse.clear()
    sweep_minutes(clock, range(1, 60))
    assert [str(m["To"]) for m in smtp_inbox.messages] == [charlie.email]
    dead.refresh_from_db()
    busy.refresh_from_db()
    assert (dead.status, dead.attempts, busy.status, busy.attempts) == ("failed", 1, "sent", 2)


def test_it_gives_a_server_that_takes_the_message_and_never_answers_up_and_sends_once(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    settings: Any,
    at_once: Callable[[], Any],
) -> None:
    settings.EMAIL_TIMEOUT = 0.5
    smtp_inbox.hang_data = True
    started = time.monotonic()
    with at_once():
        offer_stalemate(game_id=game.pk, user=alice)
    assert time.monotonic() - started < 10  # the timeout's half second, not the lease's
    row = Notification.objects.get()
    row.refresh_from_db()
    assert row.status == "pending" and row.attempts == 1
    assert row.last_error == "SMTPServerDisconnected: Connection unexpectedly closed: timed out"
    assert row.claimed_at is not None and row.next_attempt_at is not None
    assert row.next_attempt_at - row.claimed_at >= timedelta(seconds=60)  # the back-off
    smtp_inbox.hang_data = False
    assert send(row.pk) is True
    assert send(row.pk) is False
    assert smtp_inbox.data_commands == 2
    assert [str(m["To"]) for m in smtp_inbox.messages] == [bob.email]


@pytest.mark.parametrize(
    ("kind", "error"),
    [("broken", "TemplateSyntaxError"), ("unheard_of", "TemplateDoesNotExist")],
)
def test_it_fails_an_email_whose_template_does_not_render(
    kind: str,
    error: str,
    game: Game,
    bob: User,
    smtp_inbox: Inbox,
    settings: Any,
    tmp_path: Path,
    clock: time_machine.Traveller,
    at_once: Callable[[], Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    (tmp_path / "emails").mkdir()
    (tmp_path / "emails" / "broken-subject.txt").write_text("{% if %}a bad tag{% endif %}")
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}
    ]
    with caplog.at_level(logging.ERROR, logger="games.notify.notifications"), at_once():
        notify(kind, user=bob, game=game)
    row = Notification.objects.get()
    assert row.status == "failed" and row.attempts == 1 and row.next_attempt_at is None
    assert row.last_error.startswith(f"{error}: ")
    (record,) = [r for r in caplog.records if r.name == "games.notify.notifications"]
    assert (
        record.levelno == logging.ERROR and record.exc_info is not None
    )  # the traceback, for whoever mends the template
    sweep_minutes(clock, range(1, 24 * 60, 60))
    row.refresh_from_db()
    assert row.status == "failed" and row.attempts == 1
    assert smtp_inbox.data_commands == 0


def test_it_retries_a_digest_after_its_back_off_and_fails_one_to_a_dead_address(
    game: Game,
    alice: User,
    bob: User,
    smtp_inbox: Inbox,
    clock: time_machine.Traveller,
) -> None:
    for player in (alice, bob):
        update_profile(player, {"notifications": {"stalemate_offer": "daily_digest"}})
    offer_stalemate(game_id=game.pk, user=alice)  # bob's digest
    notify("stalemate_offer", user=alice, game=game)  # alice's digest
    smtp_inbox.fail_next = 1
    smtp_inbox.refuse[alice.email] = "550 5.1.1 no such user"
    assert set(Notification.objects.values_list("status", "next_attempt_at")) == {("digest", None)}
    send_digests()  # the daily run: bob's server says 451, alice's address is dead
    bobs = Notification.objects.filter(user=bob)
    assert set(bobs.values_list("status", "attempts", "last_error")) == {
        ("digest", 1, "451 try again later")
    }
    assert set(bobs.values_list("next_attempt_at", flat=True)) == {START + timedelta(minutes=1)}
    alices = Notification.objects.filter(user=alice)
    assert set(alices.values_list("status", "attempts")) == {("failed", 1)}
    sweep_minutes(clock, range(1, 30))
    assert [str(m["To"]) for m in smtp_inbox.messages] == [bob.email]
    assert set(bobs.values_list("status", "attempts")) == {("sent", 2)}
    assert set(alices.values_list("status", "attempts")) == {("failed", 1)}


@pytest.mark.parametrize(
    ("error", "permanent"),
    [
        (smtplib.SMTPRecipientsRefused({"a@example.com": (550, b"no such user")}), True),
        (smtplib.SMTPRecipientsRefused({"a@example.com": (450, b"mailbox busy")}), False),
        (smtplib.SMTPDataError(554, b"message refused"), True),
        (smtplib.SMTPDataError(451, b"try again later"), False),
        (smtplib.SMTPSenderRefused(553, b"not our sender", "games@localhost"), False),
        (smtplib.SMTPAuthenticationError(535, b"bad password"), False),
        (smtplib.SMTPServerDisconnected("gone"), False),
        (ConnectionRefusedError(111, "Connection refused"), False),
        (TimeoutError("timed out"), False),
        (SoftTimeLimitExceeded(), False),
        (TemplateSyntaxError("bad tag"), True),
        (TemplateDoesNotExist("emails/x-subject.txt"), True),
        (UnicodeEncodeError("ascii", "é", 0, 1, "no"), True),
    ],
)
def test_it_tells_permanent_failures_from_temporary_ones(
    error: BaseException, permanent: bool
) -> None:
    assert is_permanent(error) is permanent
