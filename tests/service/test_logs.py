"""What the service logs, and where its errors are reported: a line per event that
matters (refused moves with their code, timeouts, stalemates, Stop! calls, failed
e-mails), each on its module's logger, as ``event key=value``; every error e-mailed
to ADMINS."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from config.settings import env_addresses
from games.models import Game, Notification
from games.notify.notifications import send
from games.play.dealing import start_game
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.play.stops import call_stop_on
from games.sweep import sweep
from lib.errors import ServiceError
from lib.logs import fields
from tests.stop_scenes import classic_game

from .conftest import client_for, mover_and_other
from .smtp import free_port

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def lines(caplog: pytest.LogCaptureFixture, logger: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == logger]


def test_it_writes_values_as_key_value_pairs_quoting_what_could_be_misread() -> None:
    assert fields(game=12, user="alice", move="H2 H7", note="") == (
        "game=12 user=alice move='H2 H7' note=''"
    )
    assert fields(move="a=b\nforged line") == "move='a=b\\nforged line'"


def test_it_logs_a_refused_move_at_info_with_its_code(
    alice: User, bob: User, game: Game, caplog: pytest.LogCaptureFixture
) -> None:
    mover, other = mover_and_other(game, alice, bob)
    with caplog.at_level(logging.INFO, logger="games"):
        answer = client_for(mover).post(
            f"/api/v1/games/{game.pk}/moves/", {"moves": ["H1-H1"]}, format="json"
        )
        client_for(other).post(f"/api/v1/games/{game.pk}/moves/", {"moves": ["T"]}, format="json")
    code = answer.json()["error"]
    assert answer.status_code == 409
    refused = [r for r in caplog.records if r.getMessage().startswith("refused ")]
    assert [(r.name, r.levelno) for r in refused] == [("games.play.services", logging.INFO)] * 2
    assert refused[0].getMessage() == (
        f"refused action=move game={game.pk} user={mover.username} code={code} move=H1-H1 index=0"
    )
    assert refused[1].getMessage() == (
        f"refused action=move game={game.pk} user={other.username} code=NOT_YOUR_TURN"
    )


def test_it_logs_a_timeout_and_the_game_it_ends(
    alice: User, bob: User, caplog: pytest.LogCaptureFixture
) -> None:
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        game = start_game(alice, bob, seed=1)
    with (
        time_machine.travel("2026-11-27 09:00Z", tick=False),
        caplog.at_level(logging.INFO, logger="games"),
    ):
        assert sweep()["timed_out"] == 1
    game.refresh_from_db()
    assert lines(caplog, "games.play.sweep") == [
        f"timeout game={game.pk} seat={game.to_move} deadline=2026-11-26T09:00:00+00:00"
    ]
    over = lines(caplog, "games.play.services")
    assert len(over) == 1 and over[0].startswith(
        f"game over game={game.pk} status=won ending=timeout score="
    )


def test_it_logs_a_stalemate_offered_answered_and_agreed(
    alice: User, bob: User, game: Game, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="games"):
        offer_stalemate(game_id=game.pk, user=alice)
        with pytest.raises(ServiceError):
            offer_stalemate(game_id=game.pk, user=alice)
        answer_stalemate(game_id=game.pk, user=bob, accept=True)
    assert lines(caplog, "games.play.stalemate") == [
        f"stalemate offered game={game.pk} seat=A",
        f"refused action=stalemate-offer game={game.pk} user=alice code=ALREADY_OFFERED",
        f"stalemate answered game={game.pk} seat=B accept=True",
    ]
    assert lines(caplog, "games.play.services") == [
        f"game over game={game.pk} status=stalemate ending=agreed score=0,0",
    ]


def test_it_logs_stop_calls_right_and_wrong(
    alice: User, bob: User, caplog: pytest.LogCaptureFixture
) -> None:
    game, _offender, caller, _moves = classic_game(alice, bob, [None, "S2"])
    seat = game.letters[game.seat_of(caller.pk) or 0]
    with caplog.at_level(logging.INFO, logger="games"):
        with pytest.raises(ServiceError):
            call_stop_on(game_id=game.pk, user=caller, move_number=1)  # move 1 was clean
        outcome = call_stop_on(game_id=game.pk, user=caller, move_number=2)
    wrong, right = lines(caplog, "games.play.stops")
    assert wrong == (
        f"refused action=stop game={game.pk} user={caller.username} code=WRONG_STOP "
        "wrong_calls=1 turn_lost=False"
    )
    assert right == (
        f"stop called game={game.pk} seat={seat} move=2 code=S2 correction={outcome.correction}"
    )


def test_it_warns_when_an_e_mail_cannot_be_sent(
    alice: User, bob: User, game: Game, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    row = Notification.objects.create(user=bob, email=bob.email, kind="stalemate_offer", game=game)
    with caplog.at_level(logging.INFO, logger="games"):
        assert send(row.pk) is False  # it waits for its next attempt
    (line,) = lines(caplog, "games.notify.notifications")
    assert line.startswith(f"e-mail failed id={row.pk} kind=stalemate_offer attempt=1 error=")
    assert "ConnectionRefusedError" in line
    assert [r.levelno for r in caplog.records if r.name == "games.notify.notifications"] == [
        logging.WARNING
    ]


def test_it_reads_admins_from_one_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADMINS", "Ann Ops <ann@example.com>, bob@example.com,")
    assert env_addresses("ADMINS") == [("Ann Ops", "ann@example.com"), ("", "bob@example.com")]
    monkeypatch.delenv("ADMINS")
    assert env_addresses("ADMINS") == []


@pytest.mark.urls("tests.service.failing_urls")
def test_it_e_mails_a_server_error_to_the_admins(settings: Any) -> None:
    settings.ADMINS = [("Ann Ops", "ann@example.com")]
    answer = Client(raise_request_exception=False).get("/api/v1/fail/")
    assert answer.status_code == 500
    assert answer.json() == {"error": "SERVER_ERROR", "message": "something went wrong on our side"}
    (report,) = mail.outbox
    assert report.to == ["ann@example.com"]
    assert "/api/v1/fail/" in report.subject and "ZeroDivisionError" in report.body


def test_it_e_mails_an_error_in_a_task_to_the_admins(settings: Any) -> None:
    from tests.service.failing_urls import failing_task

    settings.ADMINS = [("Ann Ops", "ann@example.com")]
    result = failing_task.apply()
    assert result.failed()
    (report,) = mail.outbox
    assert report.to == ["ann@example.com"] and "ZeroDivisionError" in report.body


def run_django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh process with the production logging set-up."""
    environ = {k: v for k, v in os.environ.items() if k not in ("LOG_LEVEL", "SENTRY_DSN")}
    environ |= {"DJANGO_SETTINGS_MODULE": "config.settings_test", **env}
    prelude = "import django, logging; django.setup()\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_logs_the_apps_events_on_the_console_at_the_level_asked() -> None:
    code = "logging.getLogger('games.play.services').info('refused action=move code=S4')"
    shown = run_django(code)
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr.strip().endswith("INFO games.play.services refused action=move code=S4")
    quiet = run_django(code, LOG_LEVEL="warning")
    assert quiet.returncode == 0 and quiet.stderr == ""
