"""What the seat to move may do: the standard game's legal moves (R4-R7).

``Generator.legal_moves`` lists every move the rules allow now. A family or an
option changes it by overriding one of the small hooks below (``families.py``
names them all), never by a test in this file: the standard game's path asks
no question about options.

Speed matters (the server replays games, the computer opponent searches), so
generation indexes flat tables: every card move of a layout is built once
(``tables.MoveTable``), and the faces a house top takes come from ``cards.py``.
"""

from __future__ import annotations

from .board import PLAYING, Board, SeatPiles
from .cards import ACE, FACE_MASK, FOUNDATION_NEXT, Face, make_card
from .moves import (
    DISCARD,
    END_MOVE,
    TURN_MOVE,
    Move,
)
from .tables import LoadRows, MaskTable

_ACES = tuple(make_card(ACE, suit) for suit in range(4))

#: (faces that fit, move rows, distance) for one loadable opponent pile (R5.4).
LoadTarget = tuple[tuple[Face, ...], tuple[tuple[Move, ...], ...], int]


class Generator(Board):
    """The legal moves of the standard game, and the hooks the variants override."""

    __slots__ = ()

    # ------------------------------------------------------ foundation priority

    def _foundation_wants(self) -> dict[Face, list[int]]:
        """Face -> the foundations it may go on (R5.1)."""
        want: dict[Face, list[int]] = {}
        empty: list[int] = []
        for i, pile in enumerate(self.foundations):
            if not pile:
                empty.append(i)
                continue
            face = FOUNDATION_NEXT[pile[-1] & FACE_MASK]
            if face:
                want.setdefault(face, []).append(i)
        if empty:
            for ace in _ACES:
                want[ace] = empty
        self._fwant = want
        return want

    def foundation_moves(self) -> list[Move]:
        """The foundation moves open to the mover: only reserve ones when P1 applies (P1, P2)."""
        moves = self._fmoves
        if moves is not None:
            return moves
        want = self._fwant if self._fwant is not None else self._foundation_wants()
        table = self._table.to_foundation
        seat = self.seats[self.to_move]
        self._p1 = False
        if seat.reserve:
            targets = want.get(seat.reserve[-1] & FACE_MASK)
            if targets:
                self._p1 = True
                self._fmoves = moves = [table[0][i] for i in targets]
                return moves
        moves = []
        if seat.turned is not None:
            targets = want.get(seat.turned & FACE_MASK)
            if targets:
                moves.extend(table[1][i] for i in targets)
        for h, pile in enumerate(self.houses):
            if pile:
                targets = want.get(pile[-1] & FACE_MASK)
                if targets:
                    row = table[h + 2]
                    moves.extend(row[i] for i in targets)
        self._more_foundation_moves(seat, want, moves)
        self._fmoves = moves
        return moves

    def _more_foundation_moves(
        self, seat: SeatPiles, want: dict[Face, list[int]], moves: list[Move]
    ) -> None:
        """Hook: foundation moves from the sources an option adds (V1, V14)."""

    # ------------------------------------------------------------ legal moves

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make now (a new list)."""
        if self.status != PLAYING:
            return []
        foundation = self.foundation_moves()
        if foundation:  # P1/P2: nothing else is allowed
            moves = self._foundation_only(foundation)
        else:
            seat = self.seats[self.to_move]
            forced = None
            if self.turn_moves < self.rules.max_turn_moves:
                moves, spaces = self._card_moves(seat)
                forced = self._forced_moves(moves)
            else:  # R7.6: past the cap, only the compulsory filling of spaces
                moves, spaces = self._capped_moves(seat)
            if forced is None:
                moves.extend(self._turn_actions(seat, spaces, moves))
            else:
                moves = forced
        self._legal = tuple(moves)
        return moves

    def _foundation_masks(self) -> list[int]:
        """Face -> the foundations it may go on, as bits (``_foundation_wants``)."""
        want = self._fwant if self._fwant is not None else self._foundation_wants()
        fmask = [0] * 64
        for face, targets in want.items():
            for i in targets:
                fmask[face] |= 1 << i
        self._fmask = fmask
        return fmask

    def plain_legal_moves(self) -> list[Move]:
        """``legal_moves`` of a class that overrides no hook of generation (the
        standard game without options; ``families.position_class`` puts it in place
        of ``legal_moves``): the same moves in the same order, each row of targets
        taken whole from the class's ``MaskTable``. Faces are never 0 here (no
        jokers), so 0 stands for an empty pile."""
        masks = self._masks
        if masks is None or self.status != PLAYING or self.turn_moves >= self.rules.max_turn_moves:
            return Generator.legal_moves(self)
        seats = self.seats
        mover = self.to_move
        seat = seats[mover]
        fmask = self._fmask if self._fmask is not None else self._foundation_masks()
        to_foundation = masks.to_foundation
        reserve = seat.reserve
        rf = reserve[-1] & FACE_MASK if reserve else 0
        if fmask[rf]:  # P1: the reserve card's foundation moves only
            self._legal = to_foundation[0][fmask[rf]]
            self._fmoves = list(self._legal)
            self._p1 = True
            return list(self._legal)
        turned = seat.turned
        tf = turned & FACE_MASK if turned is not None else 0
        state = self._houses_state
        self._houses_state = None
        if state is None:  # made afresh: each house's top, the houses each key takes
            key = masks.key
            where = [0] * masks.keys
            tops: list[Face] = []
            spaces = 0
            bit = 1
            for pile in self.houses:
                if pile:
                    top = pile[-1] & FACE_MASK
                    where[key[top]] |= bit
                    tops.append(top)
                else:
                    spaces |= bit
                    tops.append(0)
                bit <<= 1
            state = tops, where, spaces
        else:
            tops, where, spaces = state
        p2 = fmask[tf]  # P2: a card of the turned one or a house top goes on a foundation
        if not p2:
            for top in tops:  # a loop: cheaper than any(map(...)) over eight houses
                if fmask[top]:
                    p2 = 1
                    break
        if p2:  # P2: foundation moves only
            fmoves = list(to_foundation[1][fmask[tf]])
            for src, top in enumerate(tops, 2):
                fmoves += to_foundation[src][fmask[top]]
            self._fmoves = fmoves
            self._p1 = False
            self._legal = tuple(fmoves)
            return fmoves[:]
        self._houses_next = state
        # R5.4: the faces the opponent's reserve and waste take, and the moves there,
        # made once for each pair of their tops (a plain class has two seats).
        opp = seats[1 - mover]
        load_key = (
            opp.reserve[-1] & FACE_MASK if opp.reserve else 0,
            opp.waste[-1] & FACE_MASK if opp.waste else 0,
        )
        loads = self._load_cache.get(load_key)
        if loads is None:
            loads = self._load_cache[load_key] = self._plain_loads(masks, mover)
        need = masks.need
        to_house = masks.to_house
        moves: list[Move] = []
        for src, face in enumerate([rf, tf, *tops]):
            if face:
                row = to_house[src]
                targets = where[need[face]]
                if targets:
                    moves += row[targets]
                if spaces:
                    moves += row[spaces]
                if face in loads:
                    for rows, distance in loads[face]:
                        moves.append(rows[src][distance])
        if turned is not None:
            moves.append(DISCARD)
        elif seat.hand or seat.waste:
            if not (spaces and reserve):
                moves.append(TURN_MOVE)
        else:
            moves.append(END_MOVE)
        self._legal = tuple(moves)
        return moves

    def _plain_loads(self, masks: MaskTable, mover: int) -> dict[Face, LoadRows]:
        """Face -> the rows of its moves onto the opponents' reserves and wastes (R5.4)."""
        load_fits = self._load_fits
        seats = self.seats
        loads: dict[Face, LoadRows] = {}
        for distance, to_reserve, to_waste in masks.loads:
            opp = seats[(mover + distance) % len(seats)]
            if opp.reserve:
                for face in load_fits[opp.reserve[-1] & FACE_MASK]:
                    loads[face] = loads.get(face, ()) + to_reserve
            if opp.waste:
                for face in load_fits[opp.waste[-1] & FACE_MASK]:
                    loads[face] = loads.get(face, ()) + to_waste
        return loads

    def _foundation_only(self, foundation: list[Move]) -> list[Move]:
        """Hook: the legal moves while a foundation move is open (P1, P2)."""
        return foundation[:]

    def _tableau(
        self, seat: SeatPiles
    ) -> tuple[dict[Face, list[int]], list[int], list[tuple[int, Face]]]:
        """Hook: what the tableau offers: face -> the houses it may be built on, the
        spaces (empty houses), and the available cards as (source number, face)."""
        accepts: dict[Face, list[int]] = {}
        spaces: list[int] = []
        sources: list[tuple[int, Face]] = []
        house_fits = self._house_fits
        if seat.reserve:
            sources.append((0, seat.reserve[-1] & FACE_MASK))
        if seat.turned is not None:
            sources.append((1, seat.turned & FACE_MASK))
        for j, pile in enumerate(self.houses):
            if pile:
                top = pile[-1] & FACE_MASK
                sources.append((j + 2, top))
                for face in house_fits[top]:
                    targets = accepts.get(face)
                    if targets is None:
                        accepts[face] = [j]
                    else:
                        targets.append(j)
            else:
                spaces.append(j)
        return accepts, spaces, sources

    def _card_moves(self, seat: SeatPiles) -> tuple[list[Move], list[int]]:
        """Every card move building on a house (R5.2), into a space (R5.3) or loading
        an opponent (R5.4), and the spaces."""
        accepts, spaces, sources = self._tableau(seat)
        loads = self._load_targets()
        to_house = self._table.to_house
        moves: list[Move] = []
        append = moves.append
        for src, face in sources:
            row = to_house[src]
            targets = accepts.get(face)
            if targets:
                for j in targets:
                    append(row[j])
            if spaces:
                skip = src - 2
                for j in spaces:
                    if j != skip:
                        append(row[j])
            for fits, rows, distance in loads:
                if face in fits:
                    append(rows[src][distance])
        return self._more_card_moves(seat, accepts, moves), spaces

    def _more_card_moves(
        self, seat: SeatPiles, accepts: dict[Face, list[int]], moves: list[Move]
    ) -> list[Move]:
        """Hook: the card moves an option adds or takes away (V10, V14, G4)."""
        return moves

    def _capped_moves(self, seat: SeatPiles) -> tuple[list[Move], list[int]]:
        """R7.6: past the cap, the card moves left are the reserve filling spaces."""
        spaces = self._tableau(seat)[1]
        if not seat.reserve:
            return [], spaces
        row = self._table.to_house[0]
        return [row[j] for j in spaces], spaces

    def _forced_moves(self, moves: list[Move]) -> list[Move] | None:
        """Hook: the moves a compulsory move (V4, V5, V7, V12) leaves of ``moves``,
        or None when none is pending."""
        return None

    def _turn_actions(self, seat: SeatPiles, spaces: list[int], moves: list[Move]) -> list[Move]:
        """The discard, the turn or the end of the turn, as the cards allow (R4.4-R4.6)."""
        if seat.turned is not None:
            return [DISCARD]
        if seat.hand or seat.waste:
            return [TURN_MOVE] if self._may_turn(seat, spaces) else []
        return [END_MOVE]

    def _may_turn(self, seat: SeatPiles, spaces: list[int]) -> bool:
        """Hook: whether the other moves allow turning a hand card: P3 fills every
        space from the reserve first."""
        return not (spaces and seat.reserve)

    def _load_targets(self) -> list[LoadTarget]:
        """(faces that fit, move rows, distance) for each loadable opponent pile (R5.4)."""
        table = self._table
        loads = []
        seats = self.seats
        n = len(seats)
        for distance in range(1, n):
            opp = seats[(self.to_move + distance) % n]
            if opp.reserve:
                loads.append(
                    (self._load_fits[opp.reserve[-1] & FACE_MASK], table.to_opp_reserve, distance)
                )
            if opp.waste:
                loads.append(
                    (self._load_fits[opp.waste[-1] & FACE_MASK], table.to_opp_waste, distance)
                )
        return loads
