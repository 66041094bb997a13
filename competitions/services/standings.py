"""Standings: every result of a competition (or a league division's season) read in one
query, then ranked by the formats' tie-breaks (``competitions.formats.standings``).
A finished competition's (a season's) are kept on its entries and read from there."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import Q

from ..formats.results import Entrant, GameResult
from ..formats.standings import TIEBREAKS, Standing
from ..formats.standings import standings as rank
from ..formats.swiss import SwissPlayer
from ..models import Competition, Division, Entry, Format, Pairing

#: The formats' system for each format (a league's division plays a round robin).
SYSTEMS = {
    Format.ROUND_ROBIN: "round_robin",
    Format.SWISS: "swiss",
    Format.KNOCKOUT: "knockout",
    Format.LEAGUE: "league",
    Format.LADDER: "round_robin",
}

COLUMNS = (
    "round__number",
    "seat_a_id",
    "seat_b_id",
    "points_a",
    "points_b",
    "score_a",
    "score_b",
    "forfeit",
    "bye",
    "seat_a__rating",
    "seat_a__name",
    "seat_a__withdrawn_at",
    "seat_a__player__username",
    "seat_b__rating",
    "seat_b__name",
    "seat_b__withdrawn_at",
    "seat_b__player__username",
)


@dataclass(frozen=True)
class Row:
    """A line of the standings as pages and the API show it."""

    standing: Standing
    name: str
    username: str | None
    withdrawn: bool


@dataclass(frozen=True)
class Table:
    system: str
    tiebreaks: tuple[str, ...]
    rows: list[Row]
    results: list[GameResult]
    byes: dict[int, int]


def _read(competition: Competition, division: Division | None = None) -> Table:
    """The one query: the pairings joined to both seats' entries."""
    system = SYSTEMS[Format(competition.format)]
    pairings = Pairing.objects.filter(round__competition=competition)
    if division is not None:
        pairings = pairings.filter(division=division)
    entrants: dict[int, Entrant] = {}
    names: dict[int, tuple[str, str | None, bool]] = {}
    results: list[GameResult] = []
    byes: Counter[int] = Counter()
    for values in pairings.order_by("pk").values_list(*COLUMNS):
        row = dict(zip(COLUMNS, values, strict=True))
        for seat in ("a", "b"):
            entry = row[f"seat_{seat}_id"]
            if entry is not None and entry not in entrants:
                entrants[entry] = Entrant(entry, row[f"seat_{seat}__rating"])
                names[entry] = (
                    row[f"seat_{seat}__name"],
                    row[f"seat_{seat}__player__username"],
                    row[f"seat_{seat}__withdrawn_at"] is not None,
                )
        if row["bye"]:
            byes[row["seat_a_id"]] += 1
        elif row["points_a"] is not None:
            results.append(
                GameResult(
                    first=row["seat_a_id"],
                    second=row["seat_b_id"],
                    points=(row["points_a"], row["points_b"]),
                    scores=(row["score_a"], row["score_b"]),
                    round=row["round__number"],
                    forfeit=row["forfeit"],
                )
            )
    ranked = rank(system, list(entrants.values()), results, dict(byes))
    rows = [Row(standing, *names[standing.player]) for standing in ranked]
    return Table(system, TIEBREAKS[system], rows, results, dict(byes))


def table(competition: Competition, division: Division | None = None) -> Table:
    """The standings as they stand: computed while it runs (one query), kept once over."""
    if competition.status == Competition.Status.FINISHED and division is None:
        return _kept(competition)
    return _read(competition, division)


def _kept(competition: Competition) -> Table:
    system = SYSTEMS[Format(competition.format)]
    entries = (
        competition.entries.filter(place__isnull=False).select_related("player").order_by("place")
    )
    rows = [
        Row(
            Standing(
                player=e.pk,
                rank=e.place or 0,
                played=e.played,
                wins=e.wins,
                points=e.points or 0.0,
                tiebreaks=tuple(e.tiebreaks),
            ),
            e.name,
            e.player.get_username() if e.player else None,
            e.withdrawn_at is not None,
        )
        for e in entries
    ]
    return Table(system, TIEBREAKS[system], rows, [], {})


def keep_final(competition: Competition, division: Division | None = None) -> list[Row]:
    """The final standings written on the entries (place, points, tie-breaks)."""
    rows = _read(competition, division).rows
    entries = Entry.objects.in_bulk([row.standing.player for row in rows])
    for row in rows:
        entry = entries[row.standing.player]
        entry.place = row.standing.rank
        entry.points = row.standing.points
        entry.tiebreaks = list(row.standing.tiebreaks)
        entry.played = row.standing.played
        entry.wins = row.standing.wins
    Entry.objects.bulk_update(entries.values(), ["place", "points", "tiebreaks", "played", "wins"])
    return rows


def swiss_players(competition: Competition) -> list[SwissPlayer]:
    """Every entry as the Swiss pairing reads it: points, opponents, seats and byes so
    far (two queries: the entries and the pairings)."""
    entries = list(competition.entries.all())
    points: defaultdict[int, float] = defaultdict(float)
    seats_a: Counter[int] = Counter()
    seats_b: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    opponents: dict[int, set[int]] = {e.pk: set() for e in entries}
    rows = Pairing.objects.filter(round__competition=competition).values_list(
        "seat_a_id", "seat_b_id", "points_a", "points_b", "bye"
    )
    for a, b, pa, pb, bye in rows:
        if bye:
            byes[a] += 1
            points[a] += pa or 0.0
            continue
        opponents[a].add(b)
        opponents[b].add(a)
        seats_a[a] += 1
        seats_b[b] += 1
        points[a] += pa or 0.0
        points[b] += pb or 0.0
    return [
        SwissPlayer(
            player=e.pk,
            rating=e.rating,
            points=points[e.pk],
            opponents=frozenset(opponents[e.pk]),
            seats_a=seats_a[e.pk],
            seats_b=seats_b[e.pk],
            byes=byes[e.pk],
            withdrawn=e.withdrawn_at is not None or e.player_id is None,
        )
        for e in entries
    ]


def involving(entry: Entry) -> Q:
    return Q(seat_a=entry) | Q(seat_b=entry)
