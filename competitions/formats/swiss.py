"""A Swiss round, paired as a maximum-weight matching (``networkx.max_weight_matching``).

**The order.** Players who have not withdrawn are ranked by points, then the rating at
the start, then the lower id (higher first). A *score group* is the players on the same
points. Each group, with whoever floated down from the group above first, is *folded*:
each player of its top half, in order, followed by the first player of its bottom half
left who may meet them (not met before, no seat clash), so the Dutch-like ideal (the top
half against the bottom half, in order, with the usual transpositions) pairs neighbours
of the folded order; players left without such a partner close the group. Before that,
a group floats its lowest players down to the next: those due one seat beyond what the
others can give them (more due B than the group has players due A or neither, or the
reverse), then its lowest player when the count is odd.

**The bye.** With an odd count, the lowest-ranked player among those with the fewest byes
(nobody gets a second bye while someone has none) sits out and scores ``BYE_POINTS``;
if another of those leaves fewer seat clashes unavoidable, the lowest such one.

**The weights**, in strict tiers: a unit of each tier outweighs the largest possible
total of every tier below it, so the matching minimises them in this order:

1. a repeat pairing (only when no pairing without one exists: see below);
2. a seat clash: two players due the same seat (both with more games at A, or both at
   B). The player with more games at A takes B (then the one with more games at A in
   all; then the higher-ranked takes A on odd boards, B on even ones), so without clashes
   everyone's seats stay within one;
3. the bye (only in the fallback that chooses it inside the matching): how many eligible
   players are ranked below the one who sits out;
4. the score difference, squared, in half points: equal scores first, and a float goes to
   the next group rather than two groups down;
5. the distance in the folded order: the top half against the bottom half in order.

**The edges** (speed: networkx's blossom algorithm is pure Python; on 1,000 players even
a graph with each player's 4 neighbours takes over a second, a complete one minutes). The
folded order is cut into *segments* at the ends of the score groups, and groups longer
than ``SEGMENT`` players into near-equal pieces of whole pairs. Each segment is matched on
its own, at first with each player's ``WINDOW`` neighbours either side in the folded
order as candidates, repeats left out. The segment's result is kept when it pairs
everyone, with no more seat clashes than its counts force (none, unless more of it are
due one seat than can take the other), and its score tier equals its lower bound (its
scores sorted and summed over neighbours: no pairing does better, since pairing sorted
values with their neighbours minimises the sum of squared differences). Otherwise the
window doubles, up to the whole segment (where any perfect matching with the fewest
clashes is kept), and a segment that cannot be paired so is merged with the next one
(the last with the one before) and tried again. So:

* the result is exactly the maximum-weight matching over the candidate edges, and the
  segments share no edge, so each segment's maximum is the maximum of the whole;
* tiers 1, 2 and 4 are optimal over every pairing whenever each segment met its bounds
  (the common case: the segment bounds add up to the bound of the whole field); tier 5
  is optimal over the candidate edges only: those left out are the longest in the folded
  order, each dearer in tier 5 than any edge kept with the same score difference, which
  makes them unlikely, not impossible, to improve it;
* a repeat is paired only after the whole field, as one segment with every edge, has
  no perfect matching without repeats; then the bye too is chosen inside the matching
  (tier 3), and only if that also fails are repeats allowed, at the top tier's price.
  Those fallbacks match a complete graph: fine for the small fields where they happen
  (a field of 1,000 always has a pairing without repeats in its first rounds).

Known limit: with an odd field, players who had a bye have played one game fewer; when
those able to take a seat are in other score groups than those due it, a clash may be
left (a seat difference of two). With an even field and no withdrawals, the simulated
events of tests/competitions/test_swiss.py keep every seat difference within one.

Deterministic: the same players give the same graph, built in the same order, and the
same matching; the order they are given in does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

import networkx as nx

from competitions.formats.results import BYE_POINTS

#: Players per segment matched on its own (an even number).
SEGMENT = 32
#: Candidate neighbours either side in the folded order at first.
WINDOW = 6


@dataclass(frozen=True)
class SwissPlayer:
    player: int
    rating: float
    points: float
    opponents: frozenset[int]
    seats_a: int  # games played at seat A
    seats_b: int
    byes: int
    withdrawn: bool = False  # never paired


@dataclass(frozen=True)
class Pairing:
    games: list[tuple[int, int]]  # (seat A, seat B), the highest-ranked pair first
    bye: int | None


@dataclass(frozen=True)
class _Outcome:
    pairs: list[tuple[SwissPlayer, SwissPlayer]]
    bye: SwissPlayer | None
    perfect: bool
    clashes: int
    score: int


def ranked(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    """The players still in, best first: points, rating, then the lower id."""
    if len({p.player for p in players}) != len(players):
        raise ValueError("a player is listed twice")
    return sorted((p for p in players if not p.withdrawn), key=_rank_key)


def pair_round(players: Sequence[SwissPlayer]) -> Pairing:
    """The next round's games and bye (see the module's description)."""
    field = ranked(players)
    if len(field) < 2:
        return Pairing(games=[], bye=field[0].player if field else None)
    bye: SwissPlayer | None = None
    pool = field
    if len(field) % 2:
        bye = _choose_bye(field)
        pool = [p for p in field if p is not bye]
    pairs = _pair_in_segments(pool)
    if pairs is None:
        whole = _match(_folded(field), window=len(field), repeats=False, with_bye=bye is not None)
        if not whole.perfect:
            whole = _match(
                _folded(field), window=len(field), repeats=True, with_bye=bye is not None
            )
        pairs, bye = whole.pairs, whole.bye
    rank = {p.player: number for number, p in enumerate(field)}
    boards = sorted(
        (tuple(sorted(pair, key=lambda p: rank[p.player])) for pair in pairs),
        key=lambda pair: rank[pair[0].player],
    )
    games = [_seat(higher, lower, board) for board, (higher, lower) in enumerate(boards)]
    return Pairing(games=games, bye=bye.player if bye else None)


def _choose_bye(field: Sequence[SwissPlayer]) -> SwissPlayer:
    """The lowest-ranked of those with the fewest byes, unless another of them leaves
    fewer seat clashes unavoidable (tier 2 above tier 3): then the lowest such one."""
    fewest = min(p.byes for p in field)
    eligible = [p for p in reversed(field) if p.byes == fewest]
    due_b = sum(1 for p in field if p.seats_a > p.seats_b)
    due_a = sum(1 for p in field if p.seats_a < p.seats_b)
    rest = len(field) - 1

    def clashes_without(p: SwissPlayer) -> int:
        b = due_b - (p.seats_a > p.seats_b)
        a = due_a - (p.seats_a < p.seats_b)
        return max(0, b - (rest - b), a - (rest - a)) // 2

    return min(eligible, key=clashes_without)  # min keeps the first (lowest) of equals


def _rank_key(p: SwissPlayer) -> tuple[float, float, int]:
    return (-p.points, -p.rating, p.player)


def _seat(higher: SwissPlayer, lower: SwissPlayer, board: int) -> tuple[int, int]:
    """The player with more games at A takes B; then more A in all; then by board."""
    lead_higher = higher.seats_a - higher.seats_b
    lead_lower = lower.seats_a - lower.seats_b
    if lead_higher != lead_lower:
        first = lower if lead_higher > lead_lower else higher
    elif higher.seats_a != lower.seats_a:
        first = lower if higher.seats_a > lower.seats_a else higher
    else:
        first = higher if board % 2 == 0 else lower
    second = lower if first is higher else higher
    return (first.player, second.player)


def _folded(field: Sequence[SwissPlayer]) -> list[list[SwissPlayer]]:
    """The folded order, a block per score group (the float from above first).

    Each top-half player, in order, is followed by the first bottom-half player left who
    can meet them (not met before, no seat clash): the Dutch ideal with its usual
    transpositions. Players left without such a partner close the block.
    """
    blocks: list[list[SwissPlayer]] = []
    carry: list[SwissPlayer] = []
    for _, group in groupby(field, key=lambda p: p.points):
        members = carry + list(group)
        carry = _floats(members)
        half = len(members) // 2
        bottom = members[half:]
        block: list[SwissPlayer] = []
        unmatched: list[SwissPlayer] = []
        for top in members[:half]:
            partner = next((b for b in bottom if _may_meet(top, b)), None)
            if partner is None:
                unmatched.append(top)
            else:
                bottom.remove(partner)
                block += [top, partner]
        blocks.append(block + sorted(unmatched + bottom, key=_rank_key))
    if carry and len(carry) % 2 == 0 and blocks:
        blocks[-1] += carry  # more due one seat than the field can balance: clashes
    elif carry:
        blocks.append(carry)
    return blocks


def _floats(members: list[SwissPlayer]) -> list[SwissPlayer]:
    """Takes out of ``members`` (ranked) who floats down to the next group: the lowest
    players due the seat more of the group is due than the others can give them, then
    the lowest player of an odd group."""
    leads = [p.seats_a - p.seats_b for p in members]
    due_b = sum(1 for lead in leads if lead > 0)
    due_a = sum(1 for lead in leads if lead < 0)
    free = len(members) - due_b - due_a
    floating: list[SwissPlayer] = []
    for sign, excess in ((1, due_b - due_a - free), (-1, due_a - due_b - free)):
        for p in reversed(members[:]):
            if excess <= 0:
                break
            if (p.seats_a - p.seats_b) * sign > 0:
                members.remove(p)
                floating.append(p)
                excess -= 1
    if len(members) % 2:
        floating.append(members.pop())
    return sorted(floating, key=_rank_key)


def _may_meet(a: SwissPlayer, b: SwissPlayer) -> bool:
    return b.player not in a.opponents and not _clash(a, b)


def _segments(blocks: list[list[SwissPlayer]]) -> list[list[SwissPlayer]]:
    """Each block, cut into near-equal pieces of at most SEGMENT players (whole pairs)."""
    pieces: list[list[SwissPlayer]] = []
    for block in blocks:
        pairs = len(block) // 2
        count = max(1, -(-len(block) // SEGMENT))
        start = 0
        for number in range(count):
            length = 2 * (pairs // count + (1 if number < pairs % count else 0))
            pieces.append(block[start : start + length])
            start += length
        pieces[-1] += block[start:]  # an odd block (the last carry) keeps its player
    return [piece for piece in pieces if piece]


def _pair_in_segments(pool: list[SwissPlayer]) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    segments = _segments(_folded(pool))
    kept: list[list[tuple[SwissPlayer, SwissPlayer]]] = []
    number = 0
    while number < len(segments):
        segment = segments[number]
        window = min(WINDOW, len(segment) - 1)
        while True:
            outcome = _match([segment], window=window, repeats=False, with_bye=False)
            good = outcome.perfect and outcome.clashes == _fewest_clashes(segment)
            whole = window >= len(segment) - 1 or _fewest_clashes(segment) > 0
            if good and (outcome.score == _score_bound(segment) or whole):
                kept.append(outcome.pairs)
                number += 1
                break
            if not whole:
                window = min(2 * window, len(segment) - 1)
                continue
            if number + 1 < len(segments):  # merge with the next segment
                segments[number : number + 2] = [segment + segments[number + 1]]
            elif number > 0:  # the last: merge with the one before, matched again
                kept.pop()
                segments[number - 1 : number + 1] = [segments[number - 1] + segment]
                number -= 1
            elif outcome.perfect:  # the whole field: these clashes cannot be avoided
                kept.append(outcome.pairs)
                number += 1
            else:
                return None
            break
    return [pair for pairs in kept for pair in pairs]


def _fewest_clashes(segment: Sequence[SwissPlayer]) -> int:
    """The clashes no pairing of the segment avoids: half the players due one seat
    beyond those who can take the other (those due it, or due neither)."""
    due_b = sum(1 for p in segment if p.seats_a > p.seats_b)
    due_a = sum(1 for p in segment if p.seats_a < p.seats_b)
    return max(0, due_b - (len(segment) - due_b), due_a - (len(segment) - due_a)) // 2


def _score_bound(segment: Sequence[SwissPlayer]) -> int:
    points = sorted((p.points for p in segment), reverse=True)
    return sum(_score_gap(a, b) for a, b in zip(points[::2], points[1::2], strict=False))


def _score_gap(a: float, b: float) -> int:
    half_points = round(2 * abs(a - b))
    return half_points * half_points


def _clash(a: SwissPlayer, b: SwissPlayer) -> bool:
    lead_a, lead_b = a.seats_a - a.seats_b, b.seats_a - b.seats_b
    return (lead_a > 0 and lead_b > 0) or (lead_a < 0 and lead_b < 0)


def _match(
    blocks: list[list[SwissPlayer]], *, window: int, repeats: bool, with_bye: bool
) -> _Outcome:
    """The maximum-weight matching over each player's ``window`` neighbours either side."""
    order = [p for block in blocks for p in block]
    size = len(order) + 1
    widest_gap = max((_score_gap(order[0].points, p.points) for p in order), default=0)
    # Tier units, lowest first: each exceeds the largest total of the tiers below it.
    distance_unit = 1
    lower = size * size
    score_unit = lower + 1
    lower += size * max(widest_gap, 1) * score_unit
    bye_unit = lower + 1
    lower += size * bye_unit
    clash_unit = lower + 1
    lower += size * clash_unit
    repeat_unit = lower + 1
    top = lower + size * repeat_unit + 1

    graph = nx.Graph()
    graph.add_nodes_from(range(len(order)))
    for i, a in enumerate(order):
        for j in range(i + 1, min(len(order), i + window + 1)):
            b = order[j]
            met = b.player in a.opponents
            if met and not repeats:
                continue
            penalty = (
                (repeat_unit if met else 0)
                + (clash_unit if _clash(a, b) else 0)
                + _score_gap(a.points, b.points) * score_unit
                + (j - i) * distance_unit
            )
            graph.add_edge(i, j, weight=top - penalty)
    bye_node = len(order)
    if with_bye:
        fewest = min(p.byes for p in order)
        eligible = sorted(
            (i for i, p in enumerate(order) if p.byes == fewest), key=lambda i: _rank_key(order[i])
        )
        for below, i in enumerate(reversed(eligible)):
            graph.add_edge(i, bye_node, weight=top - below * bye_unit)
    matching = nx.max_weight_matching(graph, maxcardinality=True)

    pairs: list[tuple[SwissPlayer, SwissPlayer]] = []
    bye: SwissPlayer | None = None
    for i, j in sorted(tuple(sorted(edge)) for edge in matching):
        if j == bye_node:
            bye = order[i]
        else:
            pairs.append((order[i], order[j]))
    paired = 2 * len(pairs) + (1 if bye else 0)
    return _Outcome(
        pairs=pairs,
        bye=bye,
        perfect=paired == len(order),
        clashes=sum(_clash(a, b) for a, b in pairs),
        score=sum(_score_gap(a.points, b.points) for a, b in pairs),
    )


def swiss_players(
    ratings: dict[int, float],
    games: Sequence[tuple[int, int, float, float]],
    byes: dict[int, int] | None = None,
    withdrawn: frozenset[int] = frozenset(),
) -> list[SwissPlayer]:
    """The field from its history: ``games`` as (seat A, seat B, A's points, B's points)."""
    points = {player: 0.0 for player in ratings}
    opponents: dict[int, set[int]] = {player: set() for player in ratings}
    seats_a = dict.fromkeys(ratings, 0)
    seats_b = dict.fromkeys(ratings, 0)
    byes = byes or {}
    for first, second, first_points, second_points in games:
        points[first] += first_points
        points[second] += second_points
        opponents[first].add(second)
        opponents[second].add(first)
        seats_a[first] += 1
        seats_b[second] += 1
    return [
        SwissPlayer(
            player=player,
            rating=rating,
            points=points[player] + BYE_POINTS * byes.get(player, 0),
            opponents=frozenset(opponents[player]),
            seats_a=seats_a[player],
            seats_b=seats_b[player],
            byes=byes.get(player, 0),
            withdrawn=player in withdrawn,
        )
        for player, rating in ratings.items()
    ]
