"""The competitions' services: a Swiss, a round robin, a knockout, a league season and
a ladder run through the games' own services (docs/competitions.md)."""

from __future__ import annotations

import pytest

from competitions.models import Competition, Entry, Pairing
from competitions.services.entering import enter, start_now
from lib.errors import ServiceError

from .entrants import filled, open_games, play_out, players

pytestmark = pytest.mark.django_db


def test_a_swiss_starts_when_full_and_plays_its_rounds_to_the_end() -> None:
    swiss = filled(5, format="swiss", rounds=3)
    assert swiss.status == Competition.Status.RUNNING
    first = Pairing.objects.filter(round__competition=swiss, round__number=1)
    assert first.count() == 3 and first.filter(bye=True).count() == 1
    play_out(swiss)
    assert swiss.status == Competition.Status.FINISHED
    assert swiss.round_rows.count() == 3
    places = sorted(place or 0 for place in swiss.entries.values_list("place", flat=True))
    assert places == [1, 2, 3, 4, 5]
    byes = Pairing.objects.filter(round__competition=swiss, bye=True)
    assert byes.count() == 3 and len({p.seat_a_id for p in byes}) == 3


def test_a_round_robin_deals_every_game_at_once() -> None:
    event = filled(4, format="round_robin")
    assert len(open_games(event)) == 6
    play_out(event)
    assert event.status == Competition.Status.FINISHED
    assert Entry.objects.filter(competition=event, place=1).count() == 1


def test_its_maker_starts_it_early_once_its_fewest_players_have_entered() -> None:
    event = filled(3, format="swiss", rounds=2, max_players=16, min_players=4)
    assert event.status == Competition.Status.OPEN  # not full, no date
    maker = event.creator
    assert maker is not None
    with pytest.raises(ServiceError) as few:
        start_now(event.pk, maker)
    assert few.value.code == "TOO_FEW_PLAYERS" and "3 have entered" in few.value.message
    (fourth,) = players(1, "late")
    enter(event.pk, fourth)
    with pytest.raises(ServiceError) as not_maker:
        start_now(event.pk, fourth)
    assert not_maker.value.status == 403
    start_now(event.pk, maker)
    event.refresh_from_db()
    assert event.status == Competition.Status.RUNNING
    assert len(open_games(event)) == 2  # round 1 dealt: four players, two games
    with pytest.raises(ServiceError) as again:
        start_now(event.pk, maker)
    assert again.value.code == "NOT_OPEN"
