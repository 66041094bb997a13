"""A league's seasons: divisions (level 1 at the top) play a round robin each, all
their games at once; when every game of the season is over, the top ``promoted`` of
each division move up and the bottom as many move down, the players who left are
taken out, the newcomers join the lowest division(s), and the next season starts."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from ..formats import league, roundrobin
from ..models import Competition, Division, Entry, Round, Season
from . import standings, telling
from .dealing import new_round, pair


def smallest_division(competition: Competition) -> int:
    """The fewest players a division may have: enough for its moves up and down."""
    return min(competition.division_size, max(2, 2 * competition.promoted))


def start_season(competition: Competition, number: int, seeded: Sequence[int]) -> None:
    """Season 1: the players, best seed first, fill the divisions from the top."""
    divisions = league.place_newcomers(
        [],
        list(seeded),
        size=competition.division_size,
        smallest=smallest_division(competition),
    )
    begin(competition, number, divisions)


def begin(competition: Competition, number: int, divisions: Sequence[Sequence[int]]) -> None:
    season = Season.objects.create(competition=competition, number=number)
    round_ = new_round(competition, number, season=season)
    pairings = []
    for level, members in enumerate(divisions, start=1):
        division = Division.objects.create(season=season, level=level, members=list(members))
        Entry.objects.filter(pk__in=members).update(position=level)
        tables = roundrobin.rounds(list(members), double=competition.double)
        pairings += pair(
            competition, round_, [game for table in tables for game in table], division
        )
    telling.round_started(competition, round_, pairings)


def end_season(competition: Competition, round_: Round) -> bool:
    """The season's final standings kept per division, the moves made, the next
    season begun; False when fewer than two players are left (the league ends)."""
    season = round_.season
    assert season is not None
    finals: list[list[int]] = []
    for division in season.divisions.order_by("level"):
        rows = standings.keep_final(competition, division)
        division.final_order = [row.standing.player for row in rows]
        division.save(update_fields=["final_order"])
        finals.append(division.final_order)
        telling.finished(competition, rows, season=season.number, division=division.level)
    season.finished_at = timezone.now()
    season.save(update_fields=["finished_at"])
    moves = min(competition.promoted, *(len(d) // 2 for d in finals)) if len(finals) > 1 else 0
    # A division left too small (its places taken by newcomers beyond size, say) moves
    # fewer: as many as every division can send both ways.
    moved = league.season_moves(finals, up=moves, down=moves)
    active = set(
        competition.entries.filter(withdrawn_at__isnull=True, player__isnull=False).values_list(
            "pk", flat=True
        )
    )
    staying = [[e for e in division if e in active] for division in moved]
    placed = {e for division in staying for e in division}
    newcomers = [
        e.pk for e in competition.entries.filter(pk__in=active - placed).order_by("-rating", "pk")
    ]
    divisions = league.place_newcomers(
        [d for d in staying if d],
        newcomers,
        size=competition.division_size,
        smallest=smallest_division(competition),
    )
    if sum(len(d) for d in divisions) < 2:
        return False
    begin(competition, season.number + 1, [d for d in divisions if d])
    return True
