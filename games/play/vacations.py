"""A player's vacation, as the games see it: the clocks of their games move on.

``accounts.services.start_vacation`` spends the days; this receiver of its
``vacation_started`` signal moves the clocks and tells the opponents, in the same
transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User

from games.models import SEATS, Game
from games.play.deadlines import next_reminder
from games.play.happenings import PlayerAway, publish


def pause_clocks(
    sender: object, *, user: User, days: int, until: datetime, now: datetime, **kwargs: Any
) -> None:
    """Every game where it is the player's turn has its clock moved on by the vacation
    (deadline, turn start, reminders: a time bank is not charged for it); a turn that
    passes to the player during the vacation starts its clock when it ends
    (``deadlines.start_turn``). The opponents are told."""
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
        publish(PlayerAway(game, seat, until=until, days=days))
