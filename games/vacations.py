"""Vacations: a player stops the clocks of all their games for a few days a year.

A vacation moves the clocks of the player's games, so it is a games service; it
reads and writes the player's profile through ``accounts``. The account pages and
the API call it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from accounts.services import profile_of
from rbank_site.errors import ServiceError

from .deadlines import next_reminder
from .models import SEATS, Game
from .notifications import notify


def vacation_days_left(profile: Profile, now: datetime) -> int:
    used = profile.vacation_days_used if profile.vacation_year == now.year else 0
    return max(0, profile.vacation_allowance_days - used)


def start_vacation(user: User, days: int, now: datetime | None = None) -> Profile:
    """Stop the player's clocks for ``days`` days, out of a yearly allowance.

    Every game where it is the player's turn has its clock moved on by the vacation
    (deadline, turn start, reminders: a time bank is not charged for it); a turn
    that passes to the player during the vacation starts its clock when it ends
    (``start_turn``). Opponents are told. Days taken are spent, even if the player
    plays during the vacation.
    """
    now = now or timezone.now()
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
        if profile.vacation_until is not None and profile.vacation_until > now:
            raise ServiceError(409, "ON_VACATION", "you are already on vacation")
        left = vacation_days_left(profile, now)
        if not 1 <= days <= left:
            raise ServiceError(
                400, "BAD_REQUEST", f"you can take 1 to {left} vacation days this year"
            )
        if profile.vacation_year != now.year:
            profile.vacation_year, profile.vacation_days_used = now.year, 0
        profile.vacation_days_used += days
        profile.vacation_until = now + timedelta(days=days)
        profile.save()
        pause = timedelta(days=days)
        games = (
            Game.objects.select_for_update(of=("self",))
            .prefetch_related(SEATS)
            .filter(status=Game.Status.PLAYING, seats__user=user)
        )
        for game in games:
            seat = game.seat_of(user.pk)
            assert seat is not None
            if game.to_move == game.letters[seat] and game.deadline is not None:
                game.deadline += pause
                if game.turn_started_at is not None:
                    game.turn_started_at += pause
                game.reminder_at = next_reminder(game, seat, now)
                game.version += 1
                game.save(update_fields=["deadline", "turn_started_at", "reminder_at", "version"])
            for other, opponent in enumerate(game.players):
                if other != seat:
                    notify(
                        "vacation",
                        user=opponent,
                        game=game,
                        until=profile.vacation_until.isoformat(),
                        days=days,
                    )
        return profile
