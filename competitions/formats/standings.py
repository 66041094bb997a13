"""Standings: points, then the tie-breaks each system names, then the starting rating.

Every player is ranked 1..n with no shared rank. The order is the points (byes
included, each worth ``BYE_POINTS``), then the tie-breaks in the order
``TIEBREAKS[system]`` names them, all higher first, then the higher starting rating,
then the lower id. A knockout orders by the stage reached instead of the points.

The tie-breaks:

* ``sonneborn_berger``: the sum, over a player's games, of the points they scored in
  the game times their opponent's final points (a win counts the beaten opponent's whole
  score, a stalemate half of it).
* ``buchholz``: full Buchholz (nothing cut): the sum of the final points of every
  opponent met, once per game. A bye has no opponent and adds nothing.
* ``direct``: the points a player scored in the games between the players tied with them
  on the points and on every tie-break named before it; 0 for a player tied with no one.
* ``wins``: the games won (points 1), forfeits included.
* ``count``: the sum of the player's own card scores over their games.
* ``stage`` (knockout): the last round the player played, plus one when they won that
  round's tie: more points than the opponent in its games, or as many and a higher
  count (a match to a target score is won on the count); a first-round bye counts as
  having reached round 2.

Byes add to the points, never to ``played``, ``wins``, Sonneborn-Berger or Buchholz.
Forfeits count as the games they were recorded as. One pass over the results and one sort:
1,000 players with 10 rounds take a few milliseconds (bench/tournaments.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from competitions.formats.results import BYE_POINTS, Entrant, GameResult


@dataclass(frozen=True)
class Standing:
    player: int
    rank: int  # 1-based; never shared: the last resort is the rating, then the lower id
    played: int
    wins: int
    points: float  # including byes
    tiebreaks: tuple[float, ...]  # in the order TIEBREAKS[system] names them


TIEBREAKS: dict[str, tuple[str, ...]] = {
    "round_robin": ("sonneborn_berger", "direct", "wins", "count"),
    "league": ("sonneborn_berger", "direct", "wins", "count"),
    "swiss": ("buchholz", "sonneborn_berger", "direct", "count"),
    "knockout": ("stage", "wins", "count"),
}

#: The systems whose first sort key is a tie-break (the stage), not the points.
ORDERED_BY_FIRST_TIEBREAK = frozenset({"knockout"})


@dataclass
class _Tally:
    played: int = 0
    wins: int = 0
    points: float = 0.0
    count: int = 0
    last_round: int = 0
    # the last round played: points scored less conceded, then card scores likewise
    last_round_margin: tuple[float, int] = (0.0, 0)


def standings(
    system: str,
    entrants: Sequence[Entrant],
    results: Sequence[GameResult],
    byes: Mapping[int, int] = {},
) -> list[Standing]:
    """Every entrant ranked; ``byes`` maps a player to the byes they had."""
    names = TIEBREAKS[system]
    rating = {e.player: e.rating for e in entrants}
    if len(rating) != len(entrants):
        raise ValueError("an entrant is listed twice")
    tally = {player: _Tally() for player in rating}
    for player, count in byes.items():
        if player not in tally:
            raise ValueError(f"a bye for {player}, who did not enter")
        tally[player].points += BYE_POINTS * count
    for game in results:
        if game.first not in tally or game.second not in tally or game.first == game.second:
            raise ValueError(f"a game between {game.first} and {game.second}")
        _add(tally[game.first], game, seat=0)
        _add(tally[game.second], game, seat=1)

    values: dict[str, dict[int, float]] = {}
    if "buchholz" in names or "sonneborn_berger" in names:
        buchholz = dict.fromkeys(tally, 0.0)
        berger = dict.fromkeys(tally, 0.0)
        for game in results:
            first_total, second_total = tally[game.first].points, tally[game.second].points
            buchholz[game.first] += second_total
            buchholz[game.second] += first_total
            berger[game.first] += game.points[0] * second_total
            berger[game.second] += game.points[1] * first_total
        values["buchholz"], values["sonneborn_berger"] = buchholz, berger
    values["wins"] = {p: float(t.wins) for p, t in tally.items()}
    values["count"] = {p: float(t.count) for p, t in tally.items()}
    values["stage"] = {p: _stage(t, byes.get(p, 0)) for p, t in tally.items()}

    if "direct" in names:
        before = names[: names.index("direct")]
        values["direct"] = _direct(system, tally, values, before, results)

    def primary(player: int) -> tuple[float, ...]:
        if system in ORDERED_BY_FIRST_TIEBREAK:
            return ()
        return (tally[player].points,)

    def key(player: int) -> tuple[float, ...]:
        breaks = tuple(values[name][player] for name in names)
        return (*(-v for v in primary(player)), *(-v for v in breaks), -rating[player], player)

    order = sorted(tally, key=key)
    return [
        Standing(
            player=player,
            rank=rank,
            played=tally[player].played,
            wins=tally[player].wins,
            points=tally[player].points,
            tiebreaks=tuple(values[name][player] for name in names),
        )
        for rank, player in enumerate(order, start=1)
    ]


def _add(tally: _Tally, game: GameResult, *, seat: int) -> None:
    scored, conceded = game.points[seat], game.points[1 - seat]
    count, counted_against = game.scores[seat], game.scores[1 - seat]
    tally.played += 1
    tally.points += scored
    tally.count += count
    if scored == 1.0:
        tally.wins += 1
    if game.round > tally.last_round:
        tally.last_round, tally.last_round_margin = game.round, (0.0, 0)
    if game.round == tally.last_round:
        points, cards = tally.last_round_margin
        tally.last_round_margin = (points + scored - conceded, cards + count - counted_against)


def _stage(tally: _Tally, byes: int) -> float:
    reached = tally.last_round + (1 if tally.last_round_margin > (0.0, 0) else 0)
    return float(max(reached, 2 if byes else 1))


def _direct(
    system: str,
    tally: Mapping[int, _Tally],
    values: Mapping[str, Mapping[int, float]],
    before: Sequence[str],
    results: Sequence[GameResult],
) -> dict[int, float]:
    """Points scored against the others of one's tie group (same points and earlier breaks)."""

    def group_key(player: int) -> tuple[float, ...]:
        lead = () if system in ORDERED_BY_FIRST_TIEBREAK else (tally[player].points,)
        return (*lead, *(values[name][player] for name in before))

    group = {player: group_key(player) for player in tally}
    sizes: dict[tuple[float, ...], int] = defaultdict(int)
    for key in group.values():
        sizes[key] += 1
    direct = dict.fromkeys(tally, 0.0)
    for game in results:
        key = group[game.first]
        if key == group[game.second] and sizes[key] > 1:
            direct[game.first] += game.points[0]
            direct[game.second] += game.points[1]
    return direct
