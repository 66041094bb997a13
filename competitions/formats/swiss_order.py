"""The order a Swiss round is paired in (competitions/formats/swiss.py explains it):
the players ranked, the seats they are due, the floats between score groups, and the
folded order in which ideal partners are neighbours."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from competitions.formats.results import BYE_POINTS


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


def rank_key(p: SwissPlayer) -> tuple[float, float, int]:
    return (-p.points, -p.rating, p.player)


def folded(field: Sequence[SwissPlayer]) -> list[list[SwissPlayer]]:
    """The folded order, a block per score group (the float from above first).

    Each top-half player, in order, is followed by the first bottom-half player left who
    can meet them (not met before, no seat clash): the Dutch ideal with its usual
    transpositions. Players left without such a partner close the block.
    """
    groups = [list(group) for _, group in groupby(field, key=lambda p: p.points)]
    # The seats of the groups below each one: their imbalance (due B less due A) and
    # how many are due neither; the floats of a group make up what those cannot.
    below: list[tuple[int, int]] = []
    imbalance = free = 0
    for group in reversed(groups):
        below.append((imbalance, free))
        imbalance += sum(due(p) for p in group)
        free += sum(1 for p in group if due(p) == 0)
    below.reverse()
    blocks: list[list[SwissPlayer]] = []
    carry: list[SwissPlayer] = []
    for group, (imbalance_below, free_below) in zip(groups, below, strict=True):
        members = carry + group
        carry = floats(members, imbalance_below, free_below)
        half = len(members) // 2
        bottom = members[half:]
        block: list[SwissPlayer] = []
        unmatched: list[SwissPlayer] = []
        for top in members[:half]:
            partner = next((b for b in bottom if may_meet(top, b)), None)
            if partner is None:
                unmatched.append(top)
            else:
                bottom.remove(partner)
                block += [top, partner]
        blocks.append(block + sorted(unmatched + bottom, key=rank_key))
    if carry and len(carry) % 2 == 0 and blocks:
        blocks[-1] += carry  # more due one seat than the field can balance: clashes
    elif carry:
        blocks.append(carry)
    return blocks


def due(p: SwissPlayer) -> int:
    """1 when due seat B (more games at A), -1 when due A, 0 when due neither."""
    lead = p.seats_a - p.seats_b
    return (lead > 0) - (lead < 0)


def balanced(members: Sequence[SwissPlayer]) -> bool:
    """Whether the players can be paired among themselves without a seat clash."""
    imbalance = sum(due(p) for p in members)
    return abs(imbalance) <= sum(1 for p in members if due(p) == 0)


def floats(members: list[SwissPlayer], imbalance_below: int, free_below: int) -> list[SwissPlayer]:
    """Takes out of ``members`` (ranked) who floats down to the next group: the lowest
    players due the seat more of the group is due than the others can give them; then,
    while the groups below, with these floats, have more due one seat than can take the
    other, the lowest players due that other seat or neither whom the group can spare;
    then one player of an odd group (the lowest due neither seat, else the lowest of
    those the groups below can take, else the lowest)."""
    floating: list[SwissPlayer] = []

    def lacking() -> tuple[int, int]:
        """(the seat the groups below want, how many they lack)."""
        total = imbalance_below + sum(due(p) for p in floating)
        free = free_below + sum(1 for p in floating if due(p) == 0)
        return (-1 if total > 0 else 1), max(0, abs(total) - free)

    def float_down(p: SwissPlayer) -> None:
        members.remove(p)
        floating.append(p)

    due_b = sum(1 for p in members if due(p) > 0)
    due_a = sum(1 for p in members if due(p) < 0)
    free = len(members) - due_b - due_a
    for sign, excess in ((1, due_b - due_a - free), (-1, due_a - due_b - free)):
        for p in [q for q in reversed(members) if due(q) == sign][: max(0, excess)]:
            float_down(p)
    for p in reversed(members[:]):
        wanted, count = lacking()
        if count <= 0:
            break
        if due(p) in (wanted, 0) and balanced([q for q in members if q is not p]):
            float_down(p)
    if len(members) % 2:
        wanted, count = lacking()
        kinds = ([0, wanted] if count > 0 else [0, wanted, -wanted]) + [-wanted]
        odd_one = next(p for kind in kinds for p in reversed(members) if due(p) == kind)
        float_down(odd_one)
    return sorted(floating, key=rank_key)


def may_meet(a: SwissPlayer, b: SwissPlayer) -> bool:
    return b.player not in a.opponents and not clash(a, b)


def fewest_clashes(segment: Sequence[SwissPlayer]) -> int:
    """The clashes no pairing of the segment avoids: half the players due one seat
    beyond those who can take the other (those due it, or due neither)."""
    due_b = sum(1 for p in segment if p.seats_a > p.seats_b)
    due_a = sum(1 for p in segment if p.seats_a < p.seats_b)
    return max(0, due_b - (len(segment) - due_b), due_a - (len(segment) - due_a)) // 2


def clash(a: SwissPlayer, b: SwissPlayer) -> bool:
    lead_a, lead_b = a.seats_a - a.seats_b, b.seats_a - b.seats_b
    return (lead_a > 0 and lead_b > 0) or (lead_a < 0 and lead_b < 0)


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
