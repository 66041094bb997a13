"""A Swiss round, paired as a maximum-weight matching (``networkx.max_weight_matching``).

**The order** (``swiss_order.py``). Players who have not withdrawn are ranked by points,
then the rating at the start, then the lower id (higher first). A *score group* is the
players on the same points. Each group, with whoever floated down from the group above
first, is *folded*: each player of its top half, in order, followed by the first player
of its bottom half left who may meet them (not met before, no seat clash), so the
Dutch-like ideal (the top half against the bottom half, in order, with the usual
transpositions) pairs neighbours of the folded order; players left without such a
partner close the group. Before that, a group floats its lowest players down to the
next: those due one seat beyond what the others can give them (more due B than the group
has players due A or neither, or the reverse); then, while the groups below (with those
floats) have more players due one seat than players able to take the other, the lowest
it can spare of those they lack; then one player when the count is odd (the lowest due
neither seat if any).

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
(the last with the one before) and tried again. A segment merged past ``MERGED``
players (rare: a seat imbalance the floats did not settle) widens its window to
``WIDEST`` at most and keeps the clashes its own counts force, which bounds the time of
a round (a few hundred milliseconds for 1,000 players on a slow machine). So:

* the result is exactly the maximum-weight matching over the candidate edges, and the
  segments share no edge, so each segment's maximum is the maximum of the whole;
* tiers 1, 2 and 4 are optimal over every pairing whenever each segment met its bounds
  and none was merged past ``MERGED`` (the common case: the segment bounds add up to the
  bound of the whole field); tier 5 is optimal over the candidate edges only: those left
  out are the longest in the folded order, each dearer in tier 5 than any edge kept with
  the same score difference, which makes them unlikely, not impossible, to improve it;
* a repeat is paired only when the segments fail and then a matching of the whole field
  over every edge but the repeats, the bye chosen inside it among the eligible (tier 3),
  pairs not everyone; then repeats are allowed, at the top tier's price.
  Those fallbacks match a complete graph: fine for the small fields where they happen
  (a field of 1,000 always has a pairing without repeats in its first rounds).

Known limits: the seats stay within one while the field has room (the simulated events
of tests/competitions/test_swiss.py, odd and even fields of up to 41 players over half
as many rounds, never leave a difference of two); late in a small field, when no
pairing avoids both a repeat and a clash, the repeat is avoided and a player may reach a
difference of two; in simulated 999-player events over 10 rounds, one round in about 40
left a single such difference (a segment merged past ``MERGED``), and withdrawals, which
take players away from their opponents' balance, make that a little more frequent (17
withdrawals a round in 1,000: two rounds in ten).

Deterministic: the same players give the same graph, built in the same order, and the
same matching; the order they are given in does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from competitions.formats.swiss_order import (
    SwissPlayer,
    clash,
    fewest_clashes,
    folded,
    rank_key,
    swiss_players,
)

__all__ = ["Pairing", "SwissPlayer", "pair_round", "ranked", "swiss_players"]

#: Players per segment matched on its own (an even number).
SEGMENT = 32
#: Candidate neighbours either side in the folded order at first.
WINDOW = 6
#: A segment merged past this many players: its window stops at WIDEST neighbours.
MERGED = 4 * SEGMENT
WIDEST = 16


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
    return sorted((p for p in players if not p.withdrawn), key=rank_key)


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
        whole = _match(folded(field), window=len(field), repeats=False, with_bye=bye is not None)
        if not whole.perfect:
            whole = _match(folded(field), window=len(field), repeats=True, with_bye=bye is not None)
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
    segments = _segments(folded(pool))
    kept: list[list[tuple[SwissPlayer, SwissPlayer]]] = []
    number = 0
    while number < len(segments):
        segment = segments[number]
        # a segment merged past MERGED is matched over a narrower window at most, and
        # keeps the clashes its own counts force: the cost stays bounded
        widest = len(segment) - 1 if len(segment) <= MERGED else min(len(segment) - 1, WIDEST)
        window = min(WINDOW, widest)
        while True:
            outcome = _match([segment], window=window, repeats=False, with_bye=False)
            # clashes only as many as the rest of the field forces, wherever they fall
            forced = fewest_clashes([p for later in segments[number:] for p in later])
            if len(segment) > MERGED:
                forced = max(forced, fewest_clashes(segment))
            good = outcome.perfect and outcome.clashes <= forced
            whole = window >= widest or fewest_clashes(segment) > forced
            if good and (outcome.score == _score_bound(segment) or whole):
                kept.append(outcome.pairs)
                number += 1
                break
            if not whole:
                window = min(2 * window, widest)
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


def _score_bound(segment: Sequence[SwissPlayer]) -> int:
    points = sorted((p.points for p in segment), reverse=True)
    return sum(_score_gap(a, b) for a, b in zip(points[::2], points[1::2], strict=False))


def _score_gap(a: float, b: float) -> int:
    half_points = round(2 * abs(a - b))
    return half_points * half_points


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
                + (clash_unit if clash(a, b) else 0)
                + _score_gap(a.points, b.points) * score_unit
                + (j - i) * distance_unit
            )
            graph.add_edge(i, j, weight=top - penalty)
    bye_node = len(order)
    if with_bye:
        fewest = min(p.byes for p in order)
        eligible = sorted(
            (i for i, p in enumerate(order) if p.byes == fewest), key=lambda i: rank_key(order[i])
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
        clashes=sum(clash(a, b) for a, b in pairs),
        score=sum(_score_gap(a.points, b.points) for a, b in pairs),
    )
