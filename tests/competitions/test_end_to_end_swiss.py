"""A whole Swiss played end to end with real processes: a Celery worker plays the
computer players' turns and sends the e-mails, random movers play the people's, one
game is lost on time through the deadline sweep (its loser leaves the tournament) and
one player withdraws in the middle of a round. The standings kept at the end are a
recomputation from the games' results."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.bots import bot_player, level_of
from competitions.formats.results import Entrant, GameResult
from competitions.formats.standings import standings as recompute
from competitions.models import Competition, Pairing
from competitions.services.entering import Terms, create_competition, enter, withdraw
from games.models import Event, Game, Notification
from games.tasks import sweep_deadlines
from tests.service.conftest import wait_until

from .entrants import players
from .movers import play_until, worker

__all__ = ["worker"]

pytestmark = [pytest.mark.process, pytest.mark.django_db(transaction=True)]


def test_a_whole_swiss_with_computers_a_timeout_and_a_withdrawal(worker: None) -> None:
    rng = random.Random(2026)
    host = User.objects.create_user("host", "host@example.com", "pw-host-123")
    swiss = create_competition(host, Terms(name="Winter Swiss", rounds=3, max_players=6))
    people = players(4, "s")
    for player in [bot_player("easy"), bot_player("medium"), *people]:
        enter(swiss.pk, player)
    swiss.refresh_from_db()
    assert swiss.status == Competition.Status.RUNNING

    # Round 1: a person to move in one game runs out of time (the minute sweep, on the
    # worker); they forfeit the game and leave the tournament.
    late_game = next(
        game
        for game in Game.objects.filter(pairing__round__competition=swiss).order_by("pk")
        if not level_of(game.user_at("AB".index(game.to_move)))
    )
    late = late_game.user_at("AB".index(late_game.to_move))
    Game.objects.filter(pk=late_game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    sweep_deadlines.delay()
    assert wait_until(lambda: swiss.entries.get(player=late).withdrawn_at is not None)
    play_until(swiss, lambda c: c.current_round >= 2, rng)

    # Round 2: a person withdraws while their game is played.
    quitter_pairing = (
        Pairing.objects.filter(
            round__competition=swiss, round__number=2, bye=False, decided_at__isnull=True
        )
        .exclude(seat_a__player__profile__bot_level__gt="")
        .first()
    )
    assert quitter_pairing is not None and quitter_pairing.seat_a.player is not None
    quitter = quitter_pairing.seat_a.player
    withdraw(swiss.pk, quitter)
    play_until(swiss, lambda c: c.status == Competition.Status.FINISHED, rng)

    pairings = list(
        Pairing.objects.filter(round__competition=swiss).select_related("round", "game")
    )
    assert swiss.round_rows.count() == 3
    for number in (1, 2, 3):
        this_round = [p for p in pairings if p.round.number == number]
        seated = [e for p in this_round for e in (p.seat_a_id, p.seat_b_id) if e is not None]
        assert len(seated) == len(set(seated))  # nobody twice in a round
        assert sum(p.bye for p in this_round) <= 1
    met = [frozenset((p.seat_a_id, p.seat_b_id)) for p in pairings if not p.bye]
    assert len(met) == len(set(met))  # no pair met twice
    assert all(p.game is None and p.match is None for p in pairings if p.bye)
    gone = {swiss.entries.get(player=late).pk, swiss.entries.get(player=quitter).pk}
    later = [p for p in pairings if p.round.number == 3]
    assert not gone & {e for p in later for e in (p.seat_a_id, p.seat_b_id)}
    assert any(p.forfeit for p in pairings)
    for pairing in pairings:
        if pairing.game is not None:  # each result is its game's
            assert pairing.game.status != Game.Status.PLAYING
            if pairing.game.winner:
                assert (pairing.points_a == 1.0) == (pairing.game.winner == "A")

    # The standings kept on the entries are those the results give.
    entries = list(swiss.entries.all())
    again = recompute(
        "swiss",
        [Entrant(e.pk, e.rating) for e in entries],
        [
            GameResult(
                p.seat_a_id,
                p.seat_b_id,
                (p.points_a or 0.0, p.points_b or 0.0),
                (p.score_a, p.score_b),
                p.round.number,
                p.forfeit,
            )
            for p in pairings
            if not p.bye and p.seat_b_id is not None
        ],
        dict(Counter(p.seat_a_id for p in pairings if p.bye)),
    )
    assert [(s.player, s.rank, s.points) for s in again] == sorted(
        ((e.pk, e.place, e.points) for e in entries), key=lambda row: row[1] or 0
    )

    # The people heard it all: by e-mail (sent by the worker) and as events.
    def sent(kind: str) -> int:
        return Notification.objects.filter(kind=kind, status="sent").count()

    assert wait_until(lambda: sent("competition_finished") == len(people))
    assert sent("competition_started") == len(people)
    assert sent("competition_round") >= len(people)
    kinds = set(Event.objects.values_list("kind", flat=True))
    assert {"tournament_started", "round_started", "tournament_finished"} <= kinds
