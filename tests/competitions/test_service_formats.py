"""Each format run through the services: a knockout's bracket with its byes and its
ties as matches, a league season's moves and the next season, a ladder's challenges;
withdrawals, timeouts and a deleted account as the stated policy says; a result told
twice counted once; the standings of 1,000 players in one query."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.services import delete_account
from competitions.models import Competition, Division, Entry, Pairing, Round, Season
from competitions.services import entering, ladder, standings
from competitions.subscribers import game_ended
from games.models import Game
from games.play.happenings import GameEnded
from games.play.store import engine_game
from games.play.sweep import due_deadlines
from lib.errors import ServiceError

from .entrants import filled, lose, open_games, play_out, players

pytestmark = pytest.mark.django_db


def test_a_knockout_seeds_by_rating_and_gives_the_top_seeds_the_byes() -> None:
    event = filled(6, format="knockout")
    first = list(Pairing.objects.filter(round__competition=event, round__number=1).order_by("pk"))
    assert len(first) == 4 and sum(p.bye for p in first) == 2
    play_out(event)
    assert event.status == Competition.Status.FINISHED
    assert event.round_rows.count() == 3  # 6 -> 4 -> 2 -> 1
    champion = event.entries.get(place=1)
    final = Pairing.objects.get(round__competition=event, round__number=3)
    assert champion.pk == final.seat_a_id  # seat B resigned every game


def test_a_knockout_tie_is_a_match_and_its_winner_goes_through() -> None:
    event = filled(2, format="knockout", match_target=1)
    pairing = Pairing.objects.get(round__competition=event)
    assert pairing.match is not None and pairing.game is None
    for _ in range(20):
        games = open_games(event) or list(pairing.match.games.filter(status="playing"))
        if not games:
            break
        lose(games[0])
    event.refresh_from_db()
    pairing.refresh_from_db()
    assert pairing.decided and event.status == Competition.Status.FINISHED
    assert pairing.points_a == 1.0 and pairing.score_a >= 1


def test_a_league_season_moves_players_and_the_next_one_starts_by_itself() -> None:
    league = filled(8, format="league", division_size=4, promoted=1)
    season = Season.objects.get(competition=league, number=1)
    top, bottom = Division.objects.filter(season=season).order_by("level")
    assert len(top.members) == 4 and len(bottom.members) == 4
    assert len(open_games(league)) == 12  # 6 games in each division, all at once
    for game in open_games(league):
        lose(game)
    league.refresh_from_db()
    assert league.status == Competition.Status.RUNNING and league.current_round == 2
    top.refresh_from_db()
    bottom.refresh_from_db()
    nxt = Season.objects.get(competition=league, number=2)
    new_top, new_bottom = nxt.divisions.order_by("level")
    # Exactly one each way: the last of the top division for the first of the bottom.
    assert set(new_top.members) == set(top.final_order[:3]) | {bottom.final_order[0]}
    assert set(new_bottom.members) == set(bottom.final_order[1:]) | {top.final_order[3]}
    assert len(open_games(league)) == 12


def test_a_ladder_challenge_won_from_below_takes_the_place() -> None:
    event = filled(4, format="ladder", reach=2)
    order = ladder.order(event)
    bottom = Entry.objects.get(pk=order[3])
    second = Entry.objects.get(pk=order[1])
    assert bottom.player is not None and second.player is not None
    with pytest.raises(Exception, match="places above"):
        ladder.challenge(event.pk, bottom.player, Entry.objects.get(pk=order[0]).name)
    pairing = ladder.challenge(event.pk, bottom.player, second.name)
    assert pairing.game is not None
    lose(pairing.game, "B")  # the challenger (seat A) wins
    assert ladder.order(event) == [order[0], order[3], order[1], order[2]]


def test_a_withdrawal_after_the_start_forfeits_the_games_in_play() -> None:
    event = filled(4, format="round_robin")
    quitter = event.entries.order_by("pk").first()
    assert quitter is not None and quitter.player is not None
    entering.withdraw(event.pk, quitter.player)
    mine = Pairing.objects.filter(
        round__competition=event, seat_a=quitter
    ) | Pairing.objects.filter(round__competition=event, seat_b=quitter)
    assert mine.count() == 3 and all(p.decided and p.forfeit for p in mine)
    play_out(event)
    assert event.status == Competition.Status.FINISHED
    quitter.refresh_from_db()
    assert quitter.withdrawn_at is not None and quitter.place == 4


def test_a_timeout_withdraws_the_player_from_the_rest_of_a_swiss() -> None:
    event = filled(4, format="swiss", rounds=3)
    game = open_games(event)[0]
    late = game.user_at("AB".index(game.to_move))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    due_deadlines(timezone.now())
    entry = event.entries.get(player=late)
    assert entry.withdrawn_at is not None
    play_out(event)
    assert event.status == Competition.Status.FINISHED
    later = Pairing.objects.filter(round__competition=event, round__number__gt=1)
    assert not later.filter(seat_a=entry).exists() and not later.filter(seat_b=entry).exists()


def test_a_deleted_account_leaves_its_competitions_with_its_results_kept() -> None:
    event = filled(4, format="round_robin")
    gone = event.entries.order_by("pk").first()
    assert gone is not None and gone.player is not None
    delete_account(gone.player)
    gone.refresh_from_db()
    assert gone.player is None and gone.withdrawn_at is not None and gone.name == "p0001"
    play_out(event)
    assert event.status == Competition.Status.FINISHED


def test_a_game_ended_told_twice_is_counted_once() -> None:
    event = filled(2, format="round_robin", double=True)
    game = open_games(event)[0]
    lose(game)
    game.refresh_from_db()
    pairing = Pairing.objects.get(game=game)
    decided_at = pairing.decided_at
    game_ended(GameEnded(game, engine_game(game)))
    pairing.refresh_from_db()
    assert pairing.decided_at == decided_at
    assert Pairing.objects.filter(round__competition=event, decided_at__isnull=False).count() == 1


@pytest.mark.parametrize(
    ("terms", "code"),
    [
        ({"rules": "three-player"}, "TWO_PLAYER_RULES_ONLY"),
        ({"format": "swiss", "rounds": None}, "BAD_REQUEST"),
        ({"min_players": 8, "max_players": 4}, "TERMS_CLASH"),
        ({"options": {"no_such_option": True}}, "BAD_REQUEST"),
    ],
)
def test_terms_that_cannot_be_played_are_refused(terms: dict[str, Any], code: str) -> None:
    maker = User.objects.create_user("maker", "m@example.com", "pw-maker-123")
    values = {"name": "Cup", "format": "round_robin", **terms}
    if "options" in values:
        values["rule_options"] = values.pop("options")
    with pytest.raises(ServiceError) as refused:
        entering.create_competition(maker, entering.Terms(**values))
    assert refused.value.code == code


def test_a_player_makes_at_most_three_at_once_and_staff_without_limit() -> None:
    maker, staff = players(2, "m")
    staff.is_staff = True
    staff.save()
    for n in range(3):
        entering.create_competition(maker, entering.Terms(name=f"Cup {n}", rounds=3))
        entering.create_competition(staff, entering.Terms(name=f"Staff {n}", rounds=3))
    with pytest.raises(ServiceError) as refused:
        entering.create_competition(maker, entering.Terms(name="One more", rounds=3))
    assert refused.value.code == "TOO_MANY_COMPETITIONS"
    assert entering.create_competition(staff, entering.Terms(name="More", rounds=3)).by_staff


def test_entry_is_refused_when_full_out_of_range_or_private() -> None:
    maker, alice, bob, carol = players(4, "e")
    full = entering.create_competition(
        maker,
        entering.Terms(
            name="Small", rounds=2, max_players=3, starts_at=timezone.now() + timedelta(days=1)
        ),
    )
    entering.enter(full.pk, alice)
    entering.enter(full.pk, bob)
    entering.enter(full.pk, carol)
    with pytest.raises(ServiceError, match="full"):
        entering.enter(full.pk, maker)
    strong = entering.create_competition(
        maker, entering.Terms(name="Strong", rounds=2, min_rating=1800)
    )
    with pytest.raises(ServiceError) as low:
        entering.enter(strong.pk, alice)
    assert low.value.code == "RATING_OUT_OF_RANGE"
    private = entering.create_competition(
        maker, entering.Terms(name="Friends", rounds=2, public=False, invited=[bob.username])
    )
    with pytest.raises(ServiceError) as hidden:
        entering.enter(private.pk, alice)
    assert hidden.value.status == 404
    entering.enter(private.pk, bob)
    entering.enter(private.pk, alice, token=private.token)
    entering.withdraw(private.pk, alice)
    assert not private.entries.filter(player=alice).exists()


def test_a_dated_competition_starts_at_the_sweep_or_is_cancelled_when_too_few() -> None:
    from competitions.services.starting import sweep

    maker, alice, bob = players(3, "d")
    soon = timezone.now() + timedelta(hours=1)
    ready = entering.create_competition(
        maker, entering.Terms(name="Ready", rounds=1, starts_at=soon)
    )
    empty = entering.create_competition(
        maker, entering.Terms(name="Empty", rounds=1, starts_at=soon, min_players=3)
    )
    for player in (alice, bob):
        entering.enter(ready.pk, player)
        entering.enter(empty.pk, player)
    assert sweep(timezone.now())["competitions_started"] == 0
    assert sweep(soon + timedelta(minutes=1))["competitions_started"] == 2
    ready.refresh_from_db()
    empty.refresh_from_db()
    assert ready.status == Competition.Status.RUNNING and len(open_games(ready)) == 1
    assert empty.status == Competition.Status.CANCELLED


def test_computer_players_enter_and_a_bye_is_no_game() -> None:
    from accounts.bots import bot_player

    event = entering.create_competition(
        User.objects.create_user("host", "h@example.com", "pw-host-123"),
        entering.Terms(name="With the computer", rounds=1, max_players=3),
    )
    entering.enter(event.pk, bot_player("easy"))
    entering.enter(event.pk, bot_player("strong"))
    entering.enter(event.pk, players(1, "h")[0])
    bye = Pairing.objects.get(round__competition=event, bye=True)
    assert bye.game is None and bye.match is None and bye.seat_b is None and bye.points_a == 1.0


def test_the_standings_of_a_thousand_players_are_one_query(django_assert_num_queries: Any) -> None:
    maker = User.objects.create_user("big", "big@example.com", "pw-big-123")
    event = entering.create_competition(
        maker, entering.Terms(name="Big", rounds=3, max_players=1000)
    )
    Competition.objects.filter(pk=event.pk).update(status=Competition.Status.RUNNING)
    event.refresh_from_db()
    entries = Entry.objects.bulk_create(
        Entry(competition=event, name=f"x{n}", rating=1000 + n) for n in range(1000)
    )
    for number in (1, 2, 3):
        round_ = Round.objects.create(competition=event, number=number)
        Pairing.objects.bulk_create(
            Pairing(
                round=round_,
                seat_a=entries[i],
                seat_b=entries[(i + number * 7) % 1000],
                points_a=1.0,
                points_b=0.0,
                decided_at=timezone.now(),
            )
            for i in range(0, 1000, 2)
        )
    with django_assert_num_queries(1):
        table = standings.table(event)
    assert len(table.rows) == 1000 and [row.standing.rank for row in table.rows[:3]] == [1, 2, 3]


def test_a_newcomer_joins_a_running_league_next_season_and_a_ladder_at_once() -> None:
    league = filled(4, format="league", division_size=4, promoted=1, max_players=4)
    Competition.objects.filter(pk=league.pk).update(max_players=6)
    (late,) = players(1, "late")
    newcomer = entering.enter(league.pk, late)
    assert Season.objects.filter(competition=league).count() == 1  # not started again
    for game in open_games(league):
        lose(game)
    newest = Season.objects.get(competition=league, number=2)
    assert newcomer.pk in [m for d in newest.divisions.all() for m in d.members]
    ladder_event = filled(2, prefix="q", format="ladder")
    Competition.objects.filter(pk=ladder_event.pk).update(max_players=4)
    joined = entering.enter(ladder_event.pk, players(1, "lad")[0])
    joined.refresh_from_db()
    assert joined.position == 3
