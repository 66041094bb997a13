"""How many moves it takes to clear cards off a house: the search behind the strict
rules of RULES.md §9 (V4 release a buried card, V6 make a space, V7 uncover a
face-down card).

A *clearing* takes the cards above some point of one house off it, top card first
(or a run of them at once under V10), each to a foundation it fits, onto a house
top that takes it, into an empty house (where the rule allows it), or onto an
opponent's pile it loads. Nothing else moves: the strict rules ask a player to move
*the covering cards* elsewhere, not to rearrange the whole layout. That keeps the
question finite and cheap, and a player can check it by eye.

Houses are interchangeable for the question, so the search keeps their top cards
as a sorted tuple, and counts empty houses and empty foundations; a memo makes
every state cost one visit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import ACE, FOUNDATION_NEXT, Face

#: The cost of a clearing that cannot be done.
IMPOSSIBLE: Final = 1 << 30


@dataclass(frozen=True, slots=True)
class Layout:
    """What a clearing may use, besides the cards being cleared (all faces)."""

    #: Top cards of the houses that may take a card (the cleared house excluded).
    tops: tuple[Face, ...]
    #: Empty houses that may take a card.
    empties: int
    #: Top cards of the opponents' piles that may be loaded.
    loads: tuple[Face, ...]
    #: The faces the non-empty foundations take next, and the number of empty ones.
    wanted: tuple[Face, ...]
    empty_foundations: int


def _replace(values: tuple[Face, ...], old: Face, new: Face) -> tuple[Face, ...]:
    listed = list(values)
    listed.remove(old)
    listed.append(new)
    return tuple(sorted(listed))


def after_foundation(layout: Layout, face: Face) -> Layout | None:
    """The layout once ``face`` has gone to a foundation, or None if it fits none."""
    nxt = FOUNDATION_NEXT[face]
    if face in layout.wanted:
        wanted = list(layout.wanted)
        wanted.remove(face)
        empties = layout.empty_foundations
    elif face & 15 == ACE and layout.empty_foundations:
        wanted = list(layout.wanted)
        empties = layout.empty_foundations - 1
    else:
        return None
    if nxt:
        wanted.append(nxt)
    return Layout(layout.tops, layout.empties, layout.loads, tuple(sorted(wanted)), empties)


def fewest_moves(
    cards: Sequence[Face],
    layout: Layout,
    *,
    house_fits: Sequence[tuple[Face, ...]],
    load_fits: Sequence[tuple[Face, ...]],
    groups: bool,
) -> int:
    """The fewest moves that take every card of ``cards`` (bottom to top) off their
    house, or ``IMPOSSIBLE``. ``house_fits[t]`` lists the faces a house topped by
    ``t`` takes, ``load_fits[t]`` those a loaded pile topped by ``t`` takes; with
    ``groups`` (V10) a run of cards, each fitting the one below it, may move onto a
    house top in one move."""
    memo: dict[tuple[int, Layout], int] = {}
    # Without group moves every card costs one move: any clearing is a fewest one,
    # so the search may stop at the first it finds.
    exact = not groups

    def solve(rest: int, lay: Layout) -> int:
        if rest == 0:
            return 0
        key = (rest, lay)
        known = memo.get(key)
        if known is not None:
            return known
        face = cards[rest - 1]
        best = IMPOSSIBLE
        for nxt_rest, nxt in _moves(rest, face, lay):
            cost = 1 + solve(nxt_rest, nxt)
            if cost < best:
                best = cost
                if exact:
                    break
        memo[key] = best
        return best

    def _moves(rest: int, face: Face, lay: Layout) -> list[tuple[int, Layout]]:
        out: list[tuple[int, Layout]] = []
        up = after_foundation(lay, face)
        if up is not None:
            out.append((rest - 1, up))
        for top in sorted(set(lay.tops)):
            if face in house_fits[top]:
                out.append((rest - 1, _with_tops(lay, _replace(lay.tops, top, face))))
        if lay.empties:
            tops = tuple(sorted((*lay.tops, face)))
            out.append((rest - 1, Layout(tops, lay.empties - 1, lay.loads, *_found(lay))))
        for top in sorted(set(lay.loads)):
            if face in load_fits[top]:
                loads = _replace(lay.loads, top, face)
                out.append((rest - 1, Layout(lay.tops, lay.empties, loads, *_found(lay))))
        if groups:
            m = rest - 1
            while m > 0 and cards[m] in house_fits[cards[m - 1]]:
                m -= 1
                low = cards[m]
                for top in sorted(set(lay.tops)):
                    if low in house_fits[top] and face not in house_fits[top]:
                        out.append((m, _with_tops(lay, _replace(lay.tops, top, face))))
        return out

    return solve(len(cards), layout)


def _found(lay: Layout) -> tuple[tuple[Face, ...], int]:
    return lay.wanted, lay.empty_foundations


def _with_tops(lay: Layout, tops: tuple[Face, ...]) -> Layout:
    return Layout(tops, lay.empties, lay.loads, lay.wanted, lay.empty_foundations)
