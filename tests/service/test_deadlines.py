"""Deadlines in games: the sweep forfeits idle seats, reminds, and never races a move."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.services import profile_of, start_vacation, update_profile, vacation_days_left
from games.clocks import TimeControl
from games.lobby.matches import start_match
from games.models import Game, Notification
from games.play.dealing import start_game
from games.play.sweep import remind, timeout_game
from games.sweep import sweep
from lib.errors import ServiceError
from tests.stored import entries_of, position_of

from .conftest import client_for, mover_and_other, play_turn

pytestmark = pytest.mark.django_db


def test_a_new_game_has_a_deadline_and_a_first_reminder(alice: User, bob: User) -> None:
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        game = start_game(alice, bob, seed=1, clock=TimeControl(days_per_turn=2))
        now = timezone.now()
    assert game.deadline == now + timedelta(days=2)
    assert game.reminder_at == game.deadline - timedelta(hours=24)


def test_the_sweep_forfeits_only_the_idle_seat_of_a_due_game(
    alice: User, bob: User, charlie: User
) -> None:
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        due = start_game(alice, bob, seed=1, clock=TimeControl(days_per_turn=1))
        fresh = start_game(alice, charlie, seed=2, clock=TimeControl(days_per_turn=3))
    idle = due.to_move
    with time_machine.travel("2026-11-24 09:00:30Z", tick=False):
        result = sweep()
    assert result["timed_out"] == 1
    due.refresh_from_db()
    fresh.refresh_from_db()
    assert due.status == "won" and due.ending == "timeout"
    position = position_of(due)
    assert position.winner == 1 - "AB".index(idle)
    assert position.score is not None
    assert position.score[position.winner] == 30 + 20 + position.seats["AB".index(idle)].count
    assert fresh.status == "playing"
    assert entries_of(due)[-1] == "times-out"
    assert {n.kind for n in Notification.objects.filter(game=due)} == {"timeout"}


def test_a_move_that_lands_before_the_sweep_is_never_forfeited(alice: User, bob: User) -> None:
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        game = start_game(alice, bob, seed=3, clock=TimeControl(days_per_turn=1))
    with time_machine.travel("2026-11-24 08:59:59Z", tick=False):
        play_turn(game, alice, bob)  # one second before the deadline
    # The sweep read the game as due a moment earlier; under the lock it is not.
    with time_machine.travel("2026-11-24 09:00:05Z", tick=False):
        assert timeout_game(game.pk) is False
    game.refresh_from_db()
    assert game.status == "playing" and game.deadline is not None
    # The new turn's deadline is after the sweep's moment (not today's date: the test
    # travels to a fixed day).
    assert game.deadline > datetime(2026, 11, 24, 9, 0, 5, tzinfo=UTC)


def test_reminders_come_at_the_players_hours(alice: User, bob: User) -> None:
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        game = start_game(alice, bob, seed=4, clock=TimeControl(days_per_turn=2))
    mover, _ = mover_and_other(game, alice, bob)
    update_profile(mover, {})  # the profile exists with the default 24 h and 2 h
    with time_machine.travel("2026-11-24 09:00:10Z", tick=False):
        assert sweep()["reminded"] == 1
    (first,) = Notification.objects.filter(kind="reminder")
    assert first.user == mover and first.context["hours_left"] == 24
    game.refresh_from_db()
    assert game.deadline is not None
    assert game.reminder_at == game.deadline - timedelta(hours=2)
    with time_machine.travel("2026-11-24 09:30Z", tick=False):
        assert remind(game.pk) is False  # not due yet
    with time_machine.travel("2026-11-25 07:00:10Z", tick=False):
        assert sweep()["reminded"] == 1
    game.refresh_from_db()
    assert game.reminder_at is None


def test_a_time_bank_spends_the_turn_and_adds_the_increment(alice: User, bob: User) -> None:
    control = TimeControl(
        control="bank", bank_initial_days=5, bank_increment_days=1, bank_cap_days=6
    )
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        game = start_game(alice, bob, seed=5, clock=control)
    mover = game.to_move
    assert game.deadline is not None
    with time_machine.travel("2026-11-25 09:00Z", tick=False):  # two days to play
        play_turn(game, alice, bob)
    bank = game.seat_rows[game.letters.index(mover)].bank
    assert bank == timedelta(days=5 - 2 + 1)
    # The opponent's clock starts with its own full bank.
    assert game.turn_started_at is not None
    assert game.deadline == game.turn_started_at + timedelta(days=5)


def test_the_bank_never_grows_past_its_cap(alice: User, bob: User) -> None:
    control = TimeControl(
        control="bank", bank_initial_days=6, bank_increment_days=3, bank_cap_days=6
    )
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        game = start_game(alice, bob, seed=6, clock=control)
        mover = game.to_move
        play_turn(game, alice, bob)
    assert game.seat_rows[game.letters.index(mover)].bank == timedelta(days=6)


def test_a_timed_out_match_game_deals_the_next_game_with_the_same_clock(
    alice: User, bob: User
) -> None:
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        match = start_match(alice, bob, target=500, clock=TimeControl(days_per_turn=1))
    with time_machine.travel("2026-11-24 10:00Z", tick=False):
        sweep()
    games = list(match.games.order_by("pk"))
    assert [g.status for g in games] == ["won", "playing"]
    assert games[1].days_per_turn == 1 and games[1].deadline is not None


def test_the_sweep_resends_outbox_rows_that_were_never_sent(
    game: Game, alice: User, bob: User, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        row = Notification.objects.create(
            user=alice, email=alice.email, kind="your_turn", game=game
        )
    with time_machine.travel("2026-11-23 09:05Z", tick=False):
        assert sweep()["resent"] == 1
    row.refresh_from_db()
    assert row.status == "sent"


def test_vacation_stops_the_players_clocks_and_tells_the_opponent(alice: User, bob: User) -> None:
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        game = start_game(alice, bob, seed=7, clock=TimeControl(days_per_turn=2))
        mover, other = mover_and_other(game, alice, bob)
        before = game.deadline
        assert before is not None
        start_vacation(mover, 5)
    game.refresh_from_db()
    assert game.deadline == before + timedelta(days=5)
    assert Notification.objects.get(kind="vacation").user == other
    with time_machine.travel("2026-11-26 09:00Z", tick=False):
        assert sweep()["timed_out"] == 0  # past the old deadline, not the new one


def test_a_turn_that_reaches_a_player_on_vacation_starts_when_it_ends(
    alice: User, bob: User
) -> None:
    with time_machine.travel("2026-11-23 09:00Z", tick=False):
        game = start_game(alice, bob, seed=8, clock=TimeControl(days_per_turn=2))
        _, waiting = mover_and_other(game, alice, bob)
        start_vacation(waiting, 3)
        play_turn(game, alice, bob)
    vacation_ends = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
    assert game.deadline == vacation_ends + timedelta(days=2)


def test_vacation_days_come_from_a_yearly_allowance(alice: User) -> None:
    with time_machine.travel("2026-03-01 09:00Z", tick=False):
        start_vacation(alice, 20)
        assert vacation_days_left(profile_of(alice), timezone.now()) == 10
    with (
        time_machine.travel("2026-04-01 09:00Z", tick=False),
        pytest.raises(ServiceError, match="1 to 10"),
    ):
        start_vacation(alice, 11)
    with time_machine.travel("2027-01-02 09:00Z", tick=False):
        start_vacation(alice, 30)  # a new year, a new allowance


def test_vacation_through_the_api(alice: User) -> None:
    client = client_for(alice)
    body = client.post("/api/v1/me/vacation/", {"days": 3}, format="json").json()
    assert body["vacation_until"] and body["vacation_days_left"] == 27
    again = client.post("/api/v1/me/vacation/", {"days": 3}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "ON_VACATION"
