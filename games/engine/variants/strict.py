"""pagat's stricter rules, which ask whether cards *can* be cleared off a house
(the search is ``clearing.py``): release a buried card that fits a foundation
(V4, S8), make every space before turning (V6, S9), uncover a face-down house
card (V7, S10)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from ..board import SeatPiles
from ..cards import FACE_MASK, FOUNDATION_NEXT, Card, Face, card_name
from ..clearing import IMPOSSIBLE, Layout, after_foundation, fewest_moves
from ..errors import IllegalMove
from ..moves import CARD, HOUSE, Move, pile_name
from ..position import Position
from ..referee import acting
from ..rules import RELEASE_FEWEST
from .tableau import group_start

_MoveFor = Callable[[int], Move]


@dataclass(frozen=True, slots=True)
class Release:
    """V4: the moves that begin a release, and the first target's house and index."""

    moves: list[Move]
    house: int
    index: int


_NO_RELEASE: Final = Release([], 0, 0)


def _swap(values: tuple[Face, ...], old: Face, new: Face) -> tuple[Face, ...]:
    listed = list(values)
    listed.remove(old)
    listed.append(new)
    return tuple(sorted(listed))


def _row_picker(rows: tuple[tuple[Move, ...], ...], distance: int) -> _MoveFor:
    return lambda source: rows[source][distance]


class Clearing(Position):
    """The first moves of clearing cards off a house, for the strict rules below."""

    __slots__ = ()

    def _clearing_moves(
        self, h: int, start: int, blocked: Iterable[int], *, empty_houses: bool
    ) -> list[tuple[Move, int]]:
        """The first moves of clearing house ``h`` down to index ``start`` (every card
        from there up moved off, clearing.py), each with the fewest moves the whole
        clearing then takes. Houses in ``blocked`` take no card; empty houses do only
        with ``empty_houses``."""
        pile = self.houses[h]
        cards = [c & FACE_MASK for c in pile[start:]]
        if not cards:
            return []
        houses = self.houses
        blocked = set(blocked) | {h}
        if self.retired_house is not None:  # G3: it takes no card
            blocked.add(self.retired_house)
        tops = {j: p[-1] & FACE_MASK for j, p in enumerate(houses) if p and j not in blocked}
        empty = [j for j, p in enumerate(houses) if not p and j not in blocked]
        if not empty_houses:
            empty = []
        loads = self._clearing_loads()
        wanted: list[Face] = []
        empty_foundations = 0
        for foundation in self.foundations:
            if not foundation:
                empty_foundations += 1
            elif FOUNDATION_NEXT[foundation[-1] & FACE_MASK]:
                wanted.append(FOUNDATION_NEXT[foundation[-1] & FACE_MASK])
        base = Layout(
            tuple(sorted(tops.values())),
            len(empty),
            tuple(sorted(face for face, _ in loads)),
            tuple(sorted(wanted)),
            empty_foundations,
        )
        groups = self.rules.group_moves
        fits = self._house_fits
        table = self._table
        face = cards[-1]
        rest = len(cards) - 1
        firsts: list[tuple[Move, int, Layout]] = []
        up = after_foundation(base, face)
        if up is not None:
            want = self._fwant if self._fwant is not None else self._foundation_wants()
            for target in want.get(face, []):
                firsts.append((table.to_foundation[h + 2][target], rest, up))
        others = (base.empties, base.loads, base.wanted, base.empty_foundations)
        for j, top in tops.items():
            if face in fits[top]:
                firsts.append(
                    (table.to_house[h + 2][j], rest, Layout(_swap(base.tops, top, face), *others))
                )
            elif groups:  # V10: a run from lower down may fit
                k = group_start(self.houses, fits, h, j)
                if k is not None and k >= start:
                    lay = Layout(_swap(base.tops, top, face), *others)
                    firsts.append((table.to_house[h + 2][j], k - start, lay))
        if empty:
            lay = Layout(
                tuple(sorted((*base.tops, face))),
                base.empties - 1,
                base.loads,
                base.wanted,
                base.empty_foundations,
            )
            firsts.extend((table.to_house[h + 2][j], rest, lay) for j in empty)
        for top, move_for in loads:
            if face in self._load_fits[top]:
                lay = Layout(
                    base.tops,
                    base.empties,
                    _swap(base.loads, top, face),
                    base.wanted,
                    base.empty_foundations,
                )
                firsts.append((move_for(h + 2), rest, lay))
        out = []
        for move, left, lay in firsts:
            cost = fewest_moves(
                cards[:left], lay, house_fits=fits, load_fits=self._load_fits, groups=groups
            )
            if cost < IMPOSSIBLE:
                out.append((move, cost + 1))
        return out

    def _clearing_loads(self) -> list[tuple[Face, _MoveFor]]:
        """The opponents' piles a house card may load: (top face, source -> move)."""
        out: list[tuple[Face, _MoveFor]] = []
        if not self._house_loads_now():  # G4, V14
            return out
        seats = self.seats
        n = len(seats)
        table = self._table
        for distance in range(1, n):
            opp = seats[(self.to_move + distance) % n]
            for pile, rows in (
                (opp.reserve, table.to_opp_reserve),
                (opp.waste, table.to_opp_waste),
            ):
                if pile:
                    out.append((pile[-1] & FACE_MASK, _row_picker(rows, distance)))
        return out


class StrictRelease(Clearing):
    """V4: with no foundation move open, a buried house card that fits a foundation
    must be released when its covering cards can all be moved off (S8); under
    ``fewest``, by one of the shortest releases (docs/variants.md)."""

    __slots__ = ()

    def _forced_moves(self, moves: list[Move]) -> list[Move] | None:
        release = self._release_moves()
        if release is not None:
            return release.moves[:]
        return super()._forced_moves(moves)

    def _compulsion_refusal(self, move: Move, action: str, card: Card | None) -> IllegalMove | None:
        release = self._release_moves()
        if release is None:
            return super()._compulsion_refusal(move, action, card)
        if move.kind == CARD and move in release.moves:
            return None
        house = self.houses[release.house]
        above = len(house) - release.index - 1
        return IllegalMove(
            "S8",
            "release_buried",
            card=card_name(house[release.index]),
            house=pile_name(HOUSE, release.house),
            covering="one_card" if above == 1 else "some_cards",
            above=above,
            how="in_fewest_moves" if self.rules.strict_release == RELEASE_FEWEST else "first",
            **acting(action, card),
        )

    def _release_moves(self) -> Release | None:
        """The moves that begin releasing a buried house card that fits a
        foundation, when its covering cards can all be moved off.

        A house's target is its highest card below the top that fits a foundation.
        Any first move of a complete release counts; under ``fewest`` only those of
        the shortest releases. A covering card may not go onto a house that has a
        target of its own (two piles could otherwise trade a card back and forth,
        each trade "releasing" one of them). Checked only when no foundation move is
        open, so the cards on top fit no foundation.
        """
        key = (self.turns, self.turn_moves)
        if self._rmoves is not None and self._rmoves[0] == key:
            cached = self._rmoves[1]
            assert isinstance(cached, Release)
            return cached if cached.moves else None
        want = self._fwant if self._fwant is not None else self._foundation_wants()
        targets: dict[int, int] = {}
        for h, pile in enumerate(self.houses):
            for i in range(len(pile) - 2, -1, -1):
                if pile[i] & FACE_MASK in want:
                    targets[h] = i
                    break
        plans: list[tuple[int, int, int, Move]] = []
        for h, i in targets.items():
            for move, cost in self._clearing_moves(h, i + 1, targets, empty_houses=True):
                plans.append((cost, h, i, move))
        if plans and self.rules.strict_release == RELEASE_FEWEST:
            least = min(p[0] for p in plans)
            plans = [p for p in plans if p[0] == least]
        if not plans:
            self._rmoves = (key, _NO_RELEASE)
            return None
        _, house, index, _ = plans[0]
        release = Release(list(dict.fromkeys(p[3] for p in plans)), house, index)
        self._rmoves = (key, release)
        return release


class UncoverCompulsory(Clearing):
    """V7, pagat's fourth strict rule: with no foundation move open, the face-up cards
    on a face-down house card must be moved off when they all can be (S10)."""

    __slots__ = ()

    def _forced_moves(self, moves: list[Move]) -> list[Move] | None:
        uncover = self._uncover_moves()
        if uncover:
            return uncover[:]
        return super()._forced_moves(moves)

    def _compulsion_refusal(self, move: Move, action: str, card: Card | None) -> IllegalMove | None:
        uncover = self._uncover_moves()
        if not uncover:
            return super()._compulsion_refusal(move, action, card)
        if move.kind == CARD and move in uncover:
            return None
        return IllegalMove(
            "S10", "uncover_first", house=pile_name(HOUSE, uncover[0].si), **acting(action, card)
        )

    def _uncover_moves(self) -> list[Move]:
        """The moves that begin uncovering a face-down house card, when every face-up
        card on it can be moved off. Cards may go into empty houses but not onto
        another house with face-down cards, so cards only ever leave those houses and
        the uncovering ends (the same reason as for V4)."""
        key = (self.turns, self.turn_moves)
        if self._umoves is not None and self._umoves[0] == key:
            return self._umoves[1]
        targets = [h for h, down in enumerate(self.houses_down) if down]
        moves = list(
            dict.fromkeys(
                move
                for h in targets
                for move, _ in self._clearing_moves(h, 0, targets, empty_houses=True)
            )
        )
        self._umoves = (key, moves)
        return moves


class MakeSpaces(Clearing):
    """V6: while the reserve has cards, no hand card is turned as long as a house
    could be emptied by moving its cards elsewhere (S9); P3 then fills it."""

    __slots__ = ()

    def _may_turn(self, seat: SeatPiles, spaces: list[int]) -> bool:
        return super()._may_turn(seat, spaces) and not self._space_moves()

    def _space_refusal(self, seat: SeatPiles) -> IllegalMove | None:
        refusal = super()._space_refusal(seat)
        if refusal is not None:
            return refusal
        moves = self._space_moves()
        if not moves:
            return None
        return IllegalMove("S9", "make_spaces", house=pile_name(HOUSE, moves[0].si))

    def space_moves(self) -> list[Move]:
        return self._space_moves()[:]

    def _space_moves(self) -> list[Move]:
        """The first moves of emptying a house, while the reserve has cards and no
        house is empty (P3 comes first then) and the turn is under the R7.6 cap.
        Houses with face-down cards (V7) cannot be emptied by their face-up cards."""
        key = (self.turns, self.turn_moves)
        if self._smoves is not None and self._smoves[0] == key:
            return self._smoves[1]
        moves: list[Move] = []
        seat = self.seats[self.to_move]
        stock = seat.reserve_down if self.rules.stock_face_down else []  # V14: face down
        if (
            (seat.reserve or stock)
            and not self.spaces()
            and self.turn_moves < self.rules.max_turn_moves
        ):
            for h in range(len(self.houses)):
                if not self.houses_down[h]:  # V7: face-down cards keep the house
                    moves.extend(m for m, _ in self._clearing_moves(h, 0, (), empty_houses=False))
        self._smoves = (key, moves)
        return moves
