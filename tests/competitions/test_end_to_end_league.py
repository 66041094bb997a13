"""A whole league season played end to end with real processes: a Celery worker plays
the computer players' turns, random movers play the people's; one game is lost on time
(its loser forfeits the rest of the season and is not in the next), one player
withdraws. When the season's last game ends, the top of the lower division and the
bottom of the upper one swap places and season 2 starts by itself."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.bots import bot_player, level_of
from competitions.models import Competition, Division, Pairing, Season
from competitions.services.entering import Terms, create_competition, enter, withdraw
from games.models import Game
from games.tasks import sweep_deadlines
from tests.service.conftest import wait_until

from .entrants import players
from .movers import play_until, worker

__all__ = ["worker"]

pytestmark = [pytest.mark.process, pytest.mark.django_db(transaction=True)]


def test_a_whole_league_season_and_the_next_one_starting(worker: None) -> None:
    rng = random.Random(28)
    host = User.objects.create_user("host", "host@example.com", "pw-host-123")
    league = create_competition(
        host,
        Terms(name="Club league", format="league", division_size=4, promoted=1, max_players=8),
    )
    people = players(6, "l")
    for player in [bot_player("easy"), bot_player("medium"), *people]:
        enter(league.pk, player)
    league.refresh_from_db()
    season = Season.objects.get(competition=league, number=1)
    upper, lower = Division.objects.filter(season=season).order_by("level")
    assert len(upper.members) == len(lower.members) == 4

    # One person in the lower division runs out of time; one in the upper withdraws.
    late_game = next(
        game
        for game in Game.objects.filter(
            pairing__division=lower, status=Game.Status.PLAYING
        ).order_by("pk")
        if not level_of(game.user_at("AB".index(game.to_move)))
    )
    late = late_game.user_at("AB".index(late_game.to_move))
    Game.objects.filter(pk=late_game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    sweep_deadlines.delay()
    assert wait_until(lambda: league.entries.get(player=late).withdrawn_at is not None)
    quitter = next(
        e.player
        for e in league.entries.filter(pk__in=upper.members).select_related("player__profile")
        if e.player is not None and not level_of(e.player) and e.player != late
    )
    withdraw(league.pk, quitter)

    play_until(league, lambda c: c.current_round >= 2, rng)
    upper.refresh_from_db()
    lower.refresh_from_db()
    first = Pairing.objects.filter(round__season=season)
    assert first.count() == 12 and not first.filter(decided_at__isnull=True).exists()
    assert not Game.objects.filter(pairing__in=first, status=Game.Status.PLAYING).exists()
    nxt = Season.objects.get(competition=league, number=2)
    new_upper, new_lower = nxt.divisions.order_by("level")
    gone = {league.entries.get(player=late).pk, league.entries.get(player=quitter).pk}
    # One up, one down: the rest stay where they were; the two who left are gone.
    assert set(new_upper.members) == (set(upper.final_order[:3]) | {lower.final_order[0]}) - gone
    assert set(new_lower.members) == (set(lower.final_order[1:]) | {upper.final_order[3]}) - gone
    assert league.status == Competition.Status.RUNNING
    assert Game.objects.filter(pairing__round__season=nxt).exists()
    kept = league.entries.filter(pk__in=lower.final_order).order_by("place")
    assert [e.pk for e in kept] == lower.final_order and kept[0].place == 1
