"""What the pages and the API show of a competition, read in a few queries whatever its
size: its entries, its standings (one query), its rounds' pairings with their games."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from lib.occasions import Occasion

from ..formats.standings import Standing
from ..models import Competition, Entry, Format, Pairing, Season
from . import standings

#: The tie-breaks' column headings (docs/competitions.md says what each is).
TIEBREAK_NAMES: dict[str, Promise] = {
    "sonneborn_berger": pgettext_lazy("tie-break", "Sonneborn-Berger"),
    "buchholz": pgettext_lazy("tie-break", "Buchholz"),
    "direct": pgettext_lazy("tie-break", "Direct encounter"),
    "wins": pgettext_lazy("tie-break", "Wins"),
    "count": pgettext_lazy("tie-break", "Count"),
    "stage": pgettext_lazy("tie-break", "Round reached"),
}


def with_counts(found: QuerySet[Competition]) -> QuerySet[Competition]:
    return found.annotate(
        players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True))
    ).select_related("creator")


def pairings_by_round(competition: Competition) -> list[tuple[int, list[Pairing]]]:
    rows = (
        Pairing.objects.filter(round__competition=competition)
        .select_related("round", "seat_a", "seat_b", "game", "match", "division")
        .order_by("round__number", "division__level", "pk")
    )
    rounds: dict[int, list[Pairing]] = defaultdict(list)
    for pairing in rows:
        rounds[pairing.round.number].append(pairing)
    return sorted(rounds.items(), reverse=True)


def crosstable(table: standings.Table) -> list[dict[str, Any]]:
    """Round robin and league: each row's points against each other row, in order."""
    order = [row.standing.player for row in table.rows]
    cells: dict[tuple[int, int], list[float]] = defaultdict(list)
    for result in table.results:
        cells[(result.first, result.second)].append(result.points[0])
        cells[(result.second, result.first)].append(result.points[1])
    return [
        {
            "row": row,
            "cells": [
                None if other == row.standing.player else cells.get((row.standing.player, other))
                for other in order
            ],
        }
        for row in table.rows
    ]


def by_round(
    table: standings.Table, rounds: list[tuple[int, list[Pairing]]]
) -> list[dict[str, Any]]:
    """A Swiss's or knockout's crosstable: for each player in standing order, each
    round's points and the opponent's rank (None: no game that round)."""
    rank = {row.standing.player: row.standing.rank for row in table.rows}
    numbers = sorted(number for number, _pairings in rounds)
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    for number, pairings in rounds:
        for p in pairings:
            if p.bye or p.seat_b_id is None:
                cells[(p.seat_a_id, number)] = {"bye": True}
                continue
            for me, other, points in (
                (p.seat_a_id, p.seat_b_id, p.points_a),
                (p.seat_b_id, p.seat_a_id, p.points_b),
            ):
                cells[(me, number)] = {"points": points, "against": rank.get(other)}
    return [
        {"row": row, "cells": [cells.get((row.standing.player, n)) for n in numbers]}
        for row in table.rows
    ]


def page_context(competition: Competition, user: User | None) -> dict[str, Any]:
    entries = list(competition.entries.select_related("player").order_by("-rating", "pk"))
    mine = next((e for e in entries if user is not None and e.player_id == user.pk), None)
    context: dict[str, Any] = {
        "competition": competition,
        "entries": entries,
        "active_count": sum(1 for e in entries if e.withdrawn_at is None),
        "mine": mine,
        "rounds": pairings_by_round(competition),
        "tables": [],
        "ladder": [],
    }
    names = TIEBREAK_NAMES
    if competition.format == Format.LADDER:
        context["ladder"] = sorted(
            (e for e in entries if e.position is not None and e.withdrawn_at is None),
            key=lambda e: e.position or 0,
        )
        context["tables"].append((None, ladder_table(competition, context["ladder"]), [], []))
    elif competition.format == Format.LEAGUE:
        season = Season.objects.filter(competition=competition).order_by("-number").first()
        if season is not None:
            for division in season.divisions.order_by("level"):
                table = standings.table(competition, division)
                context["tables"].append(
                    (division.level, table, crosstable(table), [names[t] for t in table.tiebreaks])
                )
            context["season"] = season
    elif competition.status != Competition.Status.OPEN:
        table = standings.table(competition)
        crossed = crosstable(table) if competition.format == Format.ROUND_ROBIN else []
        context["tables"].append((None, table, crossed, [names[t] for t in table.tiebreaks]))
        if competition.format in (Format.SWISS, Format.KNOCKOUT):
            context["by_round"] = by_round(table, context["rounds"])
            context["round_numbers"] = sorted(number for number, _p in context["rounds"])
    return context


def ladder_table(competition: Competition, ladder: list[Entry]) -> standings.Table:
    """A ladder's standings: its order (the rank is the place on it), with each
    player's challenges played, won and their points beside."""
    played = {row.standing.player: row.standing for row in standings.table(competition).rows}
    rows = []
    for entry in ladder:
        got = played.get(entry.pk)
        rows.append(
            standings.Row(
                Standing(
                    player=entry.pk,
                    rank=entry.position or 0,
                    played=got.played if got else 0,
                    wins=got.wins if got else 0,
                    points=got.points if got else 0.0,
                    tiebreaks=(),
                ),
                entry.name,
                entry.player.get_username() if entry.player else None,
                False,
            )
        )
    return standings.Table("ladder", (), rows, [], {})


def entry_of(competition: Competition, user: User) -> Entry | None:
    return competition.entries.filter(player=user).first()


def game_occasion(game: Any) -> Occasion | None:
    """The competition a game is played for, with its round, for the game's page
    (``lib.occasions``; registered in ``competitions.apps``). One query."""
    which = Q(game_id=game.pk)
    if game.match_id is not None:
        which |= Q(match_id=game.match_id)
    pairing = Pairing.objects.filter(which).select_related("round__competition").first()
    if pairing is None:
        return None
    competition, number = pairing.round.competition, pairing.round.number
    words = {"name": competition.name, "number": number}
    if competition.format == Format.LEAGUE:
        label = _("%(name)s, season %(number)s") % words
    elif competition.format in (Format.SWISS, Format.KNOCKOUT):
        label = _("%(name)s, round %(number)s") % words
    elif competition.format == Format.LADDER:
        label = _("%(name)s: a ladder challenge") % words
    else:
        label = str(competition.name)
    return Occasion(label=label, url=reverse("competition", args=[competition.pk]))
