"""A running tournament: its rounds paired and dealt, the next one when every game of
the last is over, its end; and a withdrawal after the start (docs/competitions.md,
"Withdrawals, timeouts and vacations")."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from games.models import Game, Match, MatchSeat
from games.play.services import resign

from ..formats import knockout, roundrobin, swiss
from ..models import Competition, Entry, Format, Pairing, Round
from . import standings, telling
from .dealing import new_round, pair


def seeded(entries: Sequence[Entry]) -> list[int]:
    """Entry ids, best seed first: the higher rating at the start, then the earlier entry."""
    return [e.pk for e in sorted(entries, key=lambda e: (-e.rating, e.pk))]


def first_round(competition: Competition, entries: Sequence[Entry]) -> None:
    if competition.format == Format.LEAGUE:
        from .league import start_season

        start_season(competition, 1, seeded(entries))
        return
    if competition.format == Format.ROUND_ROBIN:
        # Correspondence: every game of the Berger tables at once, in one round.
        tables = roundrobin.rounds(seeded(entries), double=competition.double)
        round_ = new_round(competition, 1)
        pairings = pair(competition, round_, [game for table in tables for game in table])
    elif competition.format == Format.KNOCKOUT:
        round_ = new_round(competition, 1)
        bracket = knockout.bracket(seeded(entries))
        # The bracket's order is kept by the pairings' ids: bulk_create writes in order.
        pairings = pair(competition, round_, bracket)
    else:
        round_, pairings = swiss_round(competition, 1)
    telling.round_started(competition, round_, pairings)
    advance(competition)


def swiss_round(competition: Competition, number: int) -> tuple[Round, list[Pairing]]:
    players = standings.swiss_players(competition)
    paired = swiss.pair_round(players)
    round_ = new_round(competition, number)
    slots: list[tuple[int, int | None]] = [*paired.games]
    if paired.bye is not None:
        slots.append((paired.bye, None))
    return round_, pair(competition, round_, slots)


def advance(competition: Competition) -> None:
    """Called after a pairing is decided, under the competition's row lock: once every
    pairing of the current round is, the next round is dealt, or the event ends.
    Idempotent: a round already over is not closed twice."""
    competition.refresh_from_db()
    if competition.status != Competition.Status.RUNNING or competition.format == Format.LADDER:
        return
    round_ = competition.round_rows.filter(number=competition.current_round).first()
    if round_ is None or round_.finished_at is not None:
        return
    pairings = list(round_.pairings.order_by("pk"))
    if any(not p.decided for p in pairings):
        return
    round_.finished_at = timezone.now()
    round_.save(update_fields=["finished_at"])
    if competition.format == Format.LEAGUE:
        from .league import end_season

        if end_season(competition, round_):
            advance(competition)  # a season of forfeits only is over at once
        else:
            finish(competition)
        return
    following: tuple[Round, list[Pairing]] | None = None
    if competition.format == Format.SWISS:
        active = competition.entries.filter(withdrawn_at__isnull=True).count()
        if round_.number < (competition.rounds or 0) and active >= 2:
            following = swiss_round(competition, round_.number + 1)
    elif competition.format == Format.KNOCKOUT:
        winners = [knockout_winner(p) for p in pairings]
        if len(winners) > 1:
            nxt = new_round(competition, round_.number + 1)
            following = (nxt, pair(competition, nxt, knockout.next_round(winners)))
    if following is None:
        finish(competition)
        return
    telling.round_started(competition, *following)
    advance(competition)  # a round of forfeits only (withdrawn players) is over at once


def knockout_winner(pairing: Pairing) -> int:
    """The entry that goes through: the bye's, the winner's; after a stalemate (a
    single game) the higher card score, then the higher seed."""
    if pairing.seat_b_id is None:
        return pairing.seat_a_id
    a, b = pairing.seat_a, pairing.seat_b
    assert b is not None
    key_a = (pairing.points_a, pairing.score_a, a.rating, -a.pk)
    key_b = (pairing.points_b, pairing.score_b, b.rating, -b.pk)
    return a.pk if key_a >= key_b else b.pk


def finish(competition: Competition) -> None:
    """The final standings kept on the entries; the players told their places."""
    rows = standings.keep_final(competition)
    competition.status = Competition.Status.FINISHED
    competition.finished_at = timezone.now()
    competition.save(update_fields=["status", "finished_at"])
    telling.finished(competition, rows)


def withdraw_entry(competition: Competition, entry: Entry) -> None:
    """After the start, the entry withdraws: its games in play are resigned (a knockout
    tie's match conceded), it is never paired again, and in a ladder it leaves its
    place (those below move up). The resignations end games, whose ``GameEnded``
    records each result and may end the round."""
    if entry.withdrawn_at is not None:
        return
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    if competition.format == Format.LADDER:
        from .ladder import leave

        leave(competition, entry)
    if entry.player is not None:
        forfeit_games(competition, entry, entry.player)
    advance(competition)


def forfeit_games(competition: Competition, entry: Entry, player: User) -> None:
    open_pairings = Pairing.objects.filter(
        Q(seat_a=entry) | Q(seat_b=entry), round__competition=competition, decided_at__isnull=True
    )
    for pairing in open_pairings:
        if pairing.match_id is not None:
            concede_match(pairing.match_id, player)
        game_ids = Game.objects.filter(
            Q(pk=pairing.game_id) | Q(match_id=pairing.match_id, match__isnull=False),
            status=Game.Status.PLAYING,
        ).values_list("pk", flat=True)
        for game_id in list(game_ids):
            resign(game_id=game_id, user=player)


def concede_match(match_id: int, player: User) -> None:
    """A knockout tie's match is conceded: the opponent's total is raised to the target
    (ahead of the player's), so the game resigned next ends the match (R8.7 as the
    matches count it) instead of dealing another."""
    match = Match.objects.select_for_update().get(pk=match_id)
    rows = list(MatchSeat.objects.filter(match=match))
    mine = max(row.total for row in rows if row.user_id == player.pk)
    for row in rows:
        if row.user_id != player.pk:
            row.total = max(row.total, match.target, mine + 1)
    MatchSeat.objects.bulk_update(rows, ["total"])
