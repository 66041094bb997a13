"""The position: every pile, whose turn, and the rules of RULES.md §4-8 that move cards.

``Position`` is mutable, like a chess board: ``push`` applies a move after
checking it, ``legal_moves`` lists what the seat to move may do. Both use the
same predicates, so a move is generated exactly when ``push`` accepts it.

Speed matters (the server replays games, the computer opponent searches), so
the hot paths index flat tables (``cards``) and keep two small caches, both
dropped whenever the cards they describe move:

* ``_fwant``: face -> foundations it fits; changes only when a foundation grows.
* ``_fmoves``: the foundation moves open to the mover (P1/P2); changes every move.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Final

from .cards import (
    ACE,
    FACE_MASK,
    FOUNDATION_NEXT,
    JOKER,
    Card,
    Face,
    card_label,
    house_fits_table,
    is_red,
    load_fits_table,
    make_card,
    rank_of,
)
from .clearing import IMPOSSIBLE, Layout, after_foundation, fewest_moves
from .errors import PRIORITY_VIOLATIONS, IllegalMove
from .moves import (
    CARD,
    DISCARD,
    END,
    END_MOVE,
    FOUNDATION,
    HOUSE,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    TURN,
    TURN_MOVE,
    TURN_STOCK,
    TURN_STOCK_MOVE,
    TURNED,
    WASTE,
    Move,
    parse_move,
    pile_name,
)
from .rules import PRESETS, RELEASE_FEWEST, RELEASE_OFF, Rules
from .shuffle import reshuffle_stream

PLAYING: Final = "playing"
WON: Final = "won"
STALEMATE: Final = "stalemate"

# How a finished game ended (the position document's "engine.ending").
BY_CARDS: Final = "cards"  # R8.1
BY_STALEMATE: Final = "stalemate"  # R8.4
BY_TURN_LIMIT: Final = "turn_limit"  # R8.4 backstop
BY_AGREEMENT: Final = "agreed"  # R8.5
BY_RESIGNATION: Final = "resigned"  # R8.6
BY_TIMEOUT: Final = "timeout"  # R8.6

_ACES: Final = tuple(make_card(ACE, suit) for suit in range(4))

#: V14 (Foster p.17, docs/variants.md): how many times a seat's waste must have become
#: its hand before a playable reserve card (``STOCK_RUNS``), and a playable turned card
#: or own waste top (``HAND_RUNS``), must be played (Stop! code S11).
STOCK_RUNS: Final = 2
HAND_RUNS: Final = 3


class SeatPiles:
    """One seat's own piles: reserve, hand (face down), waste, and the turned hand card.

    Under V9 the whole reserve starts face down, in ``reserve_down``; ``reserve`` is
    empty until it is turned up (then ``reserve_down`` is), so every rule that reads
    the reserve sees a face-down one as unavailable. Under V14 (Foster's stock)
    ``reserve_down`` holds the face-down cards and ``reserve`` the face-up ones on top
    of them (the card turned with ``TR``, and cards the opponent loaded on it): the
    whole pile, bottom to top, is ``reserve_down + reserve``.
    """

    __slots__ = ("hand", "reserve", "reserve_down", "turned", "waste")

    def __init__(
        self,
        reserve: list[Card] | None = None,
        hand: list[Card] | None = None,
        waste: list[Card] | None = None,
        turned: Card | None = None,
        reserve_down: list[Card] | None = None,
    ) -> None:
        self.reserve: list[Card] = reserve if reserve is not None else []
        self.hand: list[Card] = hand if hand is not None else []
        self.waste: list[Card] = waste if waste is not None else []
        self.turned: Card | None = turned
        self.reserve_down: list[Card] = reserve_down if reserve_down is not None else []

    def copy(self) -> SeatPiles:
        return SeatPiles(
            self.reserve[:], self.hand[:], self.waste[:], self.turned, self.reserve_down[:]
        )

    @property
    def count(self) -> int:
        """The count of R8.2/R8.3: 1 per hand and waste card, 2 per reserve card."""
        reserve = len(self.reserve) + len(self.reserve_down)
        return len(self.hand) + len(self.waste) + (self.turned is not None) + 2 * reserve

    @property
    def has_cards(self) -> bool:
        return (
            bool(self.reserve or self.hand or self.waste or self.reserve_down)
            or self.turned is not None
        )

    def cards(self) -> Iterator[Card]:
        yield from self.reserve
        yield from self.reserve_down
        yield from self.hand
        yield from self.waste
        if self.turned is not None:
            yield self.turned

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatPiles):
            return NotImplemented
        return (self.reserve, self.hand, self.waste, self.turned, self.reserve_down) == (
            other.reserve,
            other.hand,
            other.waste,
            other.turned,
            other.reserve_down,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable


@dataclass(frozen=True, slots=True)
class _MoveTable:
    """Every card move of a layout, built once, so generation only appends.

    Sources are numbered 0 = reserve, 1 = turned card, 2 + h = house h,
    2 + houses = the mover's own waste (available only with V1), 3 + houses = the
    next seat's waste (only in Foster's games, G4 and V14) and 4 + houses = the next
    seat's reserve (V14).
    """

    to_foundation: tuple[tuple[Move, ...], ...]
    to_house: tuple[tuple[Move, ...], ...]
    to_opp_reserve: tuple[tuple[Move, ...], ...]
    to_opp_waste: tuple[tuple[Move, ...], ...]


@cache
def _move_table(foundations: int, houses: int, seats: int) -> _MoveTable:
    sources = [(RESERVE, 0), (TURNED, 0)] + [(HOUSE, h) for h in range(houses)]
    sources += [(WASTE, 0), (OPP_WASTE, 1), (OPP_RESERVE, 1)]

    def row(kind: int, count: int, start: int = 0) -> tuple[tuple[Move, ...], ...]:
        return tuple(
            tuple(Move(CARD, s, si, kind, i) for i in range(start, count)) for s, si in sources
        )

    return _MoveTable(
        row(FOUNDATION, foundations),
        row(HOUSE, houses),
        row(OPP_RESERVE, seats, 0),
        row(OPP_WASTE, seats, 0),
    )


@dataclass(frozen=True, slots=True)
class _Release:
    """V4: the moves that begin a release, and the first target's house and index."""

    moves: list[Move]
    house: int
    index: int


_NO_RELEASE: Final = _Release([], 0, 0)
_MoveFor = Callable[[int], Move]


def _row_picker(rows: tuple[tuple[Move, ...], ...], distance: int) -> _MoveFor:
    return lambda source: rows[source][distance]


def _swap(values: tuple[Face, ...], old: Face, new: Face) -> tuple[Face, ...]:
    listed = list(values)
    listed.remove(old)
    listed.append(new)
    return tuple(sorted(listed))


def _after_tops(lay: Layout) -> tuple[int, tuple[Face, ...], tuple[Face, ...], int]:
    return lay.empties, lay.loads, lay.wanted, lay.empty_foundations


class Position:
    """A complete position, as the referee sees it (hidden cards included)."""

    __slots__ = (
        "_borrow",
        "_closed",
        "_compel",
        "_down",
        "_early_loads",
        "_extras",
        "_fill_waste",
        "_fmoves",
        "_fwant",
        "_groups",
        "_house_fits",
        "_jokers",
        "_lenient",
        "_load_fits",
        "_load_houses",
        "_no_waste_spaces",
        "_one_card",
        "_own_waste",
        "_p1",
        "_rdown",
        "_release",
        "_retire",
        "_rmoves",
        "_runs",
        "_smoves",
        "_spaces",
        "_special",
        "_stock",
        "_table",
        "_tail",
        "_take",
        "_track",
        "_turn_rules",
        "_umoves",
        "_waste_row",
        "ending",
        "foundations",
        "houses",
        "houses_down",
        "new_hands",
        "quiet_turns",
        "reshuffle_key",
        "reshuffles",
        "retired_house",
        "rules",
        "score",
        "seats",
        "set_aside",
        "status",
        "to_move",
        "turn_card_moved",
        "turn_moves",
        "turn_own_played",
        "turn_productive",
        "turnovers",
        "turns",
        "winner",
    )

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        foundations: list[list[Card]] | None = None,
        houses: list[list[Card]] | None = None,
        seats: list[SeatPiles] | None = None,
        to_move: int = 0,
        houses_down: list[list[Card]] | None = None,
    ) -> None:
        self.rules: Rules = rules if rules is not None else PRESETS["pagat"]
        r = self.rules
        self.foundations: list[list[Card]] = foundations or [[] for _ in range(r.foundations)]
        self.houses: list[list[Card]] = houses or [[] for _ in range(r.houses)]
        #: V7: each house's face-down cards, bottom to top, under its face-up ones
        #: (``houses`` holds only face-up cards). A house never lies empty on top of
        #: face-down cards: the top one is turned up at once.
        self.houses_down: list[list[Card]] = houses_down or [[] for _ in range(r.houses)]
        self.seats: list[SeatPiles] = seats or [SeatPiles() for _ in range(r.seats)]
        if (
            len(self.foundations),
            len(self.houses),
            len(self.seats),
            len(self.houses_down),
        ) != (r.foundations, r.houses, r.seats, r.houses):
            raise ValueError("pile counts do not match the rules' layout")
        self.to_move: int = to_move
        self.status: str = PLAYING
        self.winner: int | None = None
        self.score: list[int] | None = None
        self.ending: str | None = None
        # Turn counters: moves this turn (R7.6), and whether the turn was productive (R8.4).
        self.turn_moves: int = 0
        self.turn_productive: bool = False
        # R8.4 counters since the last productive turn: waste turnovers and turns taken, per seat.
        self.turnovers: list[int] = [0] * r.seats
        self.quiet_turns: list[int] = [0] * r.seats
        self.turns: int = 0  # completed turns in the game (R8.4 backstop)
        # V13: the secret keying the reshuffles (never shown to a player), and how many
        # times each seat's waste has been shuffled into a new hand.
        self.reshuffle_key: str | None = None
        self.reshuffles: list[int] = [0] * r.seats
        #: G3: the jokers put aside, out of the game, and the house that left play
        #: when it was the first to be emptied (None until then).
        self.set_aside: list[Card] = []
        self.retired_house: int | None = None
        # V14: how many times each seat's waste has become its hand (never reset), and
        # whether a card has moved this turn, and a card of the mover's own.
        self.new_hands: list[int] = [0] * r.seats
        self.turn_card_moved: bool = False
        self.turn_own_played: bool = False
        self._table: _MoveTable = _move_table(r.foundations, r.houses, r.seats)
        self._init_options()
        self._fwant: dict[Face, list[int]] | None = None
        self._fmoves: list[Move] | None = None
        # V4/V6 searches, kept with the (turns, turn_moves) they were made at: every
        # move changes that pair, so the standard game pays nothing to drop them.
        self._rmoves: tuple[tuple[int, int], _Release] | None = None
        self._smoves: tuple[tuple[int, int], list[Move]] | None = None
        self._umoves: tuple[tuple[int, int], list[Move]] | None = None
        self._p1: bool = False

    def _init_options(self) -> None:
        """Copy what the options change into slots, read on the hot paths (RULES.md §9)."""
        r = self.rules
        #: V1: the own waste's top is a source, numbered as in ``_MoveTable``.
        self._own_waste: bool = r.own_waste_available
        self._waste_row: int = 2 + r.houses
        #: V4: buried cards that fit a foundation must be released ("on" or "fewest").
        self._release: str = r.strict_release
        #: V6: before turning, every space that can be made must be made.
        self._spaces: bool = r.make_spaces
        #: V14: the reserve is a face-down stock, turned by hand (TR).
        self._stock: bool = r.stock_face_down
        #: V9: reserves may lie face down until their seat's first turn (not with V14's
        #: stock, whose face-down cards are turned one at a time by hand).
        self._rdown: bool = (
            r.reserve_face_down or any(s.reserve_down for s in self.seats)
        ) and not self._stock
        #: V7: there are (or may be) face-down house cards to turn up.
        self._down: bool = r.face_down_tableau > 0 or any(self.houses_down)
        #: V4, V5, V7 or V12: a compulsory move besides the foundation moves may be pending.
        self._compel: bool = (
            r.compulsory_loading
            or r.reserve_to_house_compulsory
            or r.strict_release != RELEASE_OFF
            or (r.uncover_compulsory and self._down)
        )
        #: V10: a house move may take a run of cards from below the top.
        self._groups: bool = r.group_moves
        #: R5.2, or V11, or G4 (in suit, up or down, King next to Ace): the faces each
        #: house top takes; and those each loaded pile's top takes (R5.4, G4).
        self._house_fits: tuple[tuple[Face, ...], ...] = house_fits_table(
            r.houses_same_suit, r.build_both_ways, r.wrap_ranks
        )
        self._load_fits: tuple[tuple[Face, ...], ...] = load_fits_table(r.wrap_ranks)
        #: G4: house cards may not load; the opponent's waste top may be built on a
        #: house; empty houses are filled from the own waste; a whole suit is closed.
        self._load_houses: bool = r.load_from_houses
        self._borrow: bool = r.take_opponent_waste
        self._fill_waste: bool = r.fill_from_waste and r.own_waste_available
        self._closed: bool = r.complete_suits_closed
        #: G3: a joker may show; the first emptied house leaves play.
        self._jokers: bool = r.jokers > 0
        self._retire: bool = r.retire_first_empty_house
        #: V14: the opponent's reserve and waste tops are available; no waste card goes
        #: into a space; house cards load only before the mover's own cards; one card
        #: turned before the first card move; compulsory play after the runs (S11).
        self._take: bool = r.take_from_opponent
        self._no_waste_spaces: bool = r.waste_never_fills_spaces
        self._early_loads: bool = r.house_loads_first
        self._one_card: bool = r.one_card_first
        self._runs: bool = r.compulsory_after_runs
        #: V14: the turn's flags are kept; the end of ``legal_moves`` is ``_v14_tail``.
        self._track: bool = r.house_loads_first or r.one_card_first
        self._tail: bool = self._stock or self._one_card or self._runs
        #: Any of these: ``legal_moves`` then calls ``_extra_moves``.
        self._extras: bool = (
            not r.load_from_houses
            or r.take_opponent_waste
            or r.complete_suits_closed
            or self._take
            or self._no_waste_spaces
            or self._early_loads
        )
        #: Any option that adds to or filters the card moves, or that changes when a
        #: hand card may be turned: the standard game tests one flag for each group.
        self._special: bool = self._groups or self._extras or self._compel
        self._turn_rules: bool = r.lenient_turn or self._spaces or self._fill_waste
        #: V8: the first action of a turn may be T whatever the priorities say.
        self._lenient: bool = r.lenient_turn

    # ------------------------------------------------------------------ basics

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.rules = self.rules
        other.foundations = [p[:] for p in self.foundations]
        other.houses = [p[:] for p in self.houses]
        other.houses_down = [p[:] for p in self.houses_down]
        other.seats = [s.copy() for s in self.seats]
        other.to_move = self.to_move
        other.status = self.status
        other.winner = self.winner
        other.score = None if self.score is None else self.score[:]
        other.ending = self.ending
        other.turn_moves = self.turn_moves
        other.turn_productive = self.turn_productive
        other.turnovers = self.turnovers[:]
        other.quiet_turns = self.quiet_turns[:]
        other.turns = self.turns
        other.reshuffle_key = self.reshuffle_key
        other.reshuffles = self.reshuffles[:]
        other.set_aside = self.set_aside[:]
        other.retired_house = self.retired_house
        other._jokers = self._jokers
        other._retire = self._retire
        other.new_hands = self.new_hands[:]
        other.turn_card_moved = self.turn_card_moved
        other.turn_own_played = self.turn_own_played
        other._table = self._table
        other._own_waste = self._own_waste
        other._waste_row = self._waste_row
        other._lenient = self._lenient
        other._house_fits = self._house_fits
        other._load_fits = self._load_fits
        other._load_houses = self._load_houses
        other._borrow = self._borrow
        other._fill_waste = self._fill_waste
        other._closed = self._closed
        other._stock = self._stock
        other._take = self._take
        other._no_waste_spaces = self._no_waste_spaces
        other._early_loads = self._early_loads
        other._one_card = self._one_card
        other._runs = self._runs
        other._track = self._track
        other._tail = self._tail
        other._extras = self._extras
        other._special = self._special
        other._turn_rules = self._turn_rules
        other._compel = self._compel
        other._release = self._release
        other._spaces = self._spaces
        other._down = self._down
        other._rdown = self._rdown
        other._groups = self._groups
        other._fwant = None
        other._fmoves = None
        other._rmoves = None
        other._smoves = None
        other._umoves = None
        other._p1 = False
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self._public_fields())

    __hash__ = None  # type: ignore[assignment]  # mutable

    @staticmethod
    def _public_fields() -> Iterable[str]:
        return (name for name in Position.__slots__ if not name.startswith("_"))

    def __repr__(self) -> str:
        return (
            f"<Position {self.rules.preset} to_move={self.seat_name(self.to_move)} {self.status}>"
        )

    def seat_name(self, seat: int) -> str:
        return self.rules.seat_names[seat]

    @property
    def mover(self) -> SeatPiles:
        return self.seats[self.to_move]

    @property
    def is_over(self) -> bool:
        return self.status != PLAYING

    def opponent(self, distance: int = 1) -> int:
        return (self.to_move + distance) % self.rules.seats

    def cards(self) -> Iterator[Card]:
        """Every card in the position, in no particular order."""
        piles = [*self.foundations, *self.houses, *self.houses_down, self.set_aside]
        for seat in self.seats:
            piles += (seat.reserve, seat.reserve_down, seat.hand, seat.waste)
        turned = [s.turned for s in self.seats if s.turned is not None]
        return chain(chain.from_iterable(piles), turned)

    def parse(self, text: str) -> Move:
        """Read a move in the notation, relative to the seat to move."""
        r = self.rules
        return parse_move(
            text, self.to_move, seats=r.seats, foundations=r.foundations, houses=r.houses
        )

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
        moves = []
        self._p1 = False
        if seat.reserve:
            targets = want.get(seat.reserve[-1] & FACE_MASK)
            if targets:
                self._p1 = True
                self._fmoves = moves = [table[0][i] for i in targets]
                return moves
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
        if self._own_waste and seat.waste:  # V1
            targets = want.get(seat.waste[-1] & FACE_MASK)
            if targets:
                row = table[self._waste_row]
                moves.extend(row[i] for i in targets)
        if self._take:  # V14: the opponent's waste and reserve tops
            opp = self.seats[(self.to_move + 1) % len(self.seats)]
            for pile, source in (
                (opp.waste, self._waste_row + 1),
                (opp.reserve, self._waste_row + 2),
            ):
                if pile:
                    targets = want.get(pile[-1] & FACE_MASK)
                    if targets:
                        row = table[source]
                        moves.extend(row[i] for i in targets)
        self._fmoves = moves
        return moves

    # ------------------------------------------------------------ legal moves

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make now (a new list)."""
        if self.status != PLAYING:
            return []
        foundation = self.foundation_moves()
        if foundation:  # P1/P2: nothing else is allowed
            if self._lenient and self._lenient_turn_open():
                return [*foundation, TURN_MOVE]
            return foundation[:]
        seat = self.seats[self.to_move]
        houses = self.houses
        table = self._table
        moves: list[Move] = []

        accepts: dict[Face, list[int]] = {}  # face -> houses it may be built on
        empty: list[int] = []
        sources: list[tuple[int, Face]] = []  # (source number, face); see _MoveTable
        house_fits = self._house_fits
        retired = -1 if self.retired_house is None else self.retired_house  # G3
        if seat.reserve:
            sources.append((0, seat.reserve[-1] & FACE_MASK))
        if seat.turned is not None:
            sources.append((1, seat.turned & FACE_MASK))
        for j, pile in enumerate(houses):
            if pile:
                top = pile[-1] & FACE_MASK
                sources.append((j + 2, top))
                for face in house_fits[top]:
                    targets = accepts.get(face)
                    if targets is None:
                        accepts[face] = [j]
                    else:
                        targets.append(j)
            elif j != retired:
                empty.append(j)
        if self._own_waste and seat.waste:  # V1
            sources.append((self._waste_row, seat.waste[-1] & FACE_MASK))

        if self.turn_moves < self.rules.max_turn_moves:
            loads = self._load_targets()
            to_house = table.to_house
            append = moves.append
            for src, face in sources:
                row = to_house[src]
                targets = accepts.get(face)
                if targets:
                    for j in targets:
                        append(row[j])
                if empty:
                    skip = src - 2
                    for j in empty:
                        if j != skip:
                            append(row[j])
                for fits, rows, distance in loads:
                    if face in fits:
                        append(rows[src][distance])
            if self._special:  # V4-V7, V10, V12, G4: one test for all of them
                if self._groups:  # V10
                    self._group_moves(accepts, moves)
                if self._extras:  # G4
                    moves = self._extra_moves(seat, accepts, moves)
                if self._compel:  # V4, V5, V7, V12
                    forced = self._compelled(moves)
                    if forced is not None:
                        if self._lenient and self._lenient_turn_open():
                            forced.append(TURN_MOVE)
                        return forced
        elif seat.reserve:  # R7.6: past the cap, only the compulsory filling of spaces
            moves.extend(table.to_house[0][j] for j in empty)
        elif self._fill_waste and seat.waste:  # G4: the spaces are filled from the waste
            moves.extend(table.to_house[self._waste_row][j] for j in empty)

        if self._tail:  # V14: the stock, one card first, compulsory play after the runs
            self._v14_tail(seat, empty, moves)
            return moves
        if seat.turned is not None:
            moves.append(DISCARD)
        elif seat.hand or seat.waste:
            if self._turn_rules:  # V6, V8, G4
                if self._turn_open(seat, empty):
                    moves.append(TURN_MOVE)
            elif not (seat.reserve and empty):  # P3
                moves.append(TURN_MOVE)
        else:
            moves.append(END_MOVE)
        return moves

    def _turn_open(self, seat: SeatPiles, empty: list[int]) -> bool:
        """Whether ``T`` is legal, the other moves allowing it, under V6, V8, V14 or G4."""
        if self._lenient and self.turn_moves == 0:  # V8
            return True
        if empty and (
            seat.reserve
            or (self._fill_waste and seat.waste)  # G4
            or (self._stock and seat.reserve_down)  # V14: P3 with a face-down stock
        ):
            return False
        return not (self._spaces and self._space_moves())  # V6

    def _v14_tail(self, seat: SeatPiles, empty: list[int], moves: list[Move]) -> None:
        """V14: append to ``moves`` (every legal card move) the discard, ``TR``, ``T`` or
        ``E`` that the stock, the one-card rule and the compulsory play leave open."""
        compelled = self._runs and bool(self._run_moves(moves))  # S11
        if seat.turned is not None:
            if not compelled:
                moves.append(DISCARD)
            return
        one_first = self._one_card and self._one_card_blocks(moves)
        can_draw = self._stock and not seat.reserve and bool(seat.reserve_down)
        if can_draw and not one_first:
            moves.append(TURN_STOCK_MOVE)
        if seat.hand or seat.waste:
            if not (one_first or compelled) and self._turn_open(seat, empty):
                moves.append(TURN_MOVE)
        elif not (compelled or can_draw):
            moves.append(END_MOVE)

    def _one_card_blocks(self, moves: Iterable[Move]) -> bool:
        """V14: a card was turned this turn before any card moved, and a tableau change
        is open among ``moves``: no second card may be turned (``ONE_CARD_FIRST``).
        Plays of the card just turned up from the stock do not count: Foster lets a
        player leave that card and go to the hand (p.7)."""
        if self.turn_moves == 0 or self.turn_card_moved:
            return False
        return any(m.kind == CARD and m.src != RESERVE for m in moves)

    def run_moves(self) -> list[Move]:
        """V14 (S11): the legal moves that play a card the mover must play now."""
        return self._run_moves(self.legal_moves())

    def _run_moves(self, moves: Iterable[Move]) -> list[Move]:
        """V14 (S11, Foster p.17): among ``moves``, those that play the face-up reserve
        card once the mover's waste has become its hand ``STOCK_RUNS`` times, and its
        turned card or waste top too once ``HAND_RUNS`` times. Such a card must be
        played before turning, discarding or ``E``. Lapses at the R7.6 cap."""
        runs = self.new_hands[self.to_move]
        if runs < STOCK_RUNS or self.turn_moves >= self.rules.max_turn_moves:
            return []
        sources = (RESERVE, TURNED, WASTE) if runs >= HAND_RUNS else (RESERVE,)
        return [m for m in moves if m.kind == CARD and m.src in sources and not m.is_discard]

    def _extra_moves(
        self, seat: SeatPiles, accepts: dict[Face, list[int]], moves: list[Move]
    ) -> list[Move]:
        """G4: drop the moves from a closed house and the loads of a house card; add the
        opponent's waste top built on a house."""
        houses = self.houses
        if self._closed:
            moves = [m for m in moves if not (m.src == HOUSE and self._is_closed(m.si))]
        if not self._load_houses:
            moves = [
                m
                for m in moves
                if not (m.dst in (OPP_RESERVE, OPP_WASTE) and m.src not in (TURNED, WASTE))
            ]
        if self._no_waste_spaces:  # V14: a waste card never fills a space
            moves = [
                m for m in moves if not (m.src == WASTE and m.dst == HOUSE and not houses[m.di])
            ]
        if self._early_loads and self.turn_own_played:  # V14: no house card loads now
            moves = [m for m in moves if not (m.src == HOUSE and m.dst in (OPP_RESERVE, OPP_WASTE))]
        if self._borrow or self._take:  # G4, V14: the opponent's waste top on a house card
            opp = self.seats[(self.to_move + 1) % len(self.seats)]
            piles = [(opp.waste, self._waste_row + 1)]
            if self._take:  # V14: and its reserve top
                piles.append((opp.reserve, self._waste_row + 2))
            for pile, source in piles:
                if pile:
                    row = self._table.to_house[source]
                    moves.extend(row[j] for j in accepts.get(pile[-1] & FACE_MASK, ()) if houses[j])
        return moves

    def _is_closed(self, h: int) -> bool:
        """G4: house ``h`` holds a whole suit (13 cards built in suit): it is closed."""
        return self._closed and len(self.houses[h]) >= 13

    def _group_moves(self, accepts: dict[Face, list[int]], moves: list[Move]) -> None:
        """V10: append the house moves whose run starts below the source's top card.

        The run is the cards from the moving card to the top; each must fit on the one
        below it. A run's cards have different ranks, so at most one of them fits a
        given house top, and a house the top card fits takes the top card alone: these
        moves never repeat a single-card move. (That can only happen in Foster's
        one-pack game, G4: a run of twelve cards of a suit, King next to Ace, has
        both ends next to the missing card.)
        """
        fits = self._house_fits
        to_house = self._table.to_house
        for i, pile in enumerate(self.houses):
            k = len(pile) - 1
            single: list[int] | None = None
            while k > 0 and pile[k] & FACE_MASK in fits[pile[k - 1] & FACE_MASK]:
                k -= 1
                targets = accepts.get(pile[k] & FACE_MASK)
                if targets:
                    if single is None:
                        single = accepts.get(pile[-1] & FACE_MASK, [])
                    moves.extend(to_house[i + 2][j] for j in targets if j != i and j not in single)

    def _group_start(self, source: int, target: int) -> int | None:
        """V10: where the run moved from house ``source`` onto the top card of house
        ``target`` starts (an index below the top), or None when no run fits there."""
        pile = self.houses[source]
        top = self.houses[target][-1]
        fits = self._house_fits
        wanted = fits[top & FACE_MASK]
        k = len(pile) - 1
        while k > 0 and pile[k] & FACE_MASK in fits[pile[k - 1] & FACE_MASK]:
            k -= 1
            if pile[k] & FACE_MASK in wanted:
                return k
        return None

    def _compelled(self, moves: list[Move]) -> list[Move] | None:
        """V4, V5, V12: with no foundation move open, the moves among ``moves`` (every
        legal card move) that a compulsory release, load or reserve move leaves, or None."""
        rules = self.rules
        if self._release != RELEASE_OFF:
            release = self._release_moves()
            if release is not None:
                return release.moves[:]
        if rules.compulsory_loading:
            loads = [m for m in moves if m.dst == OPP_RESERVE or m.dst == OPP_WASTE]
            if loads:
                return loads
        if rules.reserve_to_house_compulsory:
            fills = [m for m in moves if m.src == RESERVE and m.dst == HOUSE]
            if fills:
                return fills
        if rules.uncover_compulsory and self._down:
            uncover = self._uncover_moves()
            if uncover:
                return uncover[:]
        return None

    def _lenient_turn_open(self) -> bool:
        """V8: it is the start of the turn and a hand card can be turned."""
        seat = self.seats[self.to_move]
        return self.turn_moves == 0 and seat.turned is None and bool(seat.hand or seat.waste)

    def _load_targets(self) -> list[tuple[tuple[Face, ...], tuple[tuple[Move, ...], ...], int]]:
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

    def is_legal(self, move: Move) -> bool:
        return self.refusal(move) is None

    # --------------------------------------------------------------- checking

    def refusal(self, move: Move, by_seat: int | None = None) -> IllegalMove | None:
        """Why the rules refuse ``move`` now (RULES.md §7 order), or None if it is legal.

        With ``by_seat`` given, a move by any seat but the one to move is ``NOT_YOUR_TURN``.
        """
        if self.status != PLAYING:
            return IllegalMove("GAME_OVER", "the game is over")
        if by_seat is not None and by_seat != self.to_move:
            return IllegalMove("NOT_YOUR_TURN", "it is your opponent's turn")
        seat = self.seats[self.to_move]
        if move.kind == TURN:
            if seat.turned is not None:
                return IllegalMove(
                    "ALREADY_TURNED",
                    f"you already have a turned card, the {card_label(seat.turned)}: "
                    "play it or discard it (C-W) first",
                )
            if not seat.hand and not seat.waste:
                return IllegalMove(
                    "NO_CARDS", "you have no hand or waste cards to turn: end your turn with E"
                )
            if self._one_card:  # V14
                refusal = self._one_card_refusal("turn a hand card")
                if refusal is not None:
                    return refusal
            if self._lenient and self.turn_moves == 0:
                return None  # V8: turning first thing in the turn breaks no priority
            return (
                self._priority_refusal("turn a hand card")
                or (self._compulsion_refusal(move, "turn a hand card") if self._compel else None)
                or (self._run_refusal("turn a hand card") if self._runs else None)
                or self._space_refusal()
                or (self._make_space_refusal() if self._spaces else None)
            )
        if move.kind == TURN_STOCK:  # V14
            return self._stock_refusal(move, seat)
        if move.kind == END:
            if seat.turned is not None or seat.hand or seat.waste:
                return IllegalMove(
                    "CANNOT_END",
                    "you can end a turn with E only when you have no hand, waste or turned card; "
                    "otherwise turn a card (T) and discard (C-W)",
                )
            if self._stock and seat.reserve_down and not seat.reserve:  # V14
                return IllegalMove(
                    "CANNOT_END",
                    "your reserve still has face-down cards: turn its top card with TR",
                )
            return (
                self._priority_refusal("end your turn")
                or (self._compulsion_refusal(move, "end your turn") if self._compel else None)
                or (self._run_refusal("end your turn") if self._runs else None)
            )
        if move.is_discard and seat.turned is None:
            return IllegalMove("NO_TURNED_CARD", "you have no turned card to discard")
        card_or_refusal = self._source_card(move, seat)
        if isinstance(card_or_refusal, IllegalMove):
            return card_or_refusal
        card = card_or_refusal
        refusal = self._fit_refusal(move, card)
        if refusal is not None:
            return refusal
        if move.dst == FOUNDATION:
            self.foundation_moves()
            if self._p1 and move.src != RESERVE:
                return self._p1_refusal(f"play the {card_label(card)}")
            return None
        if self.foundation_moves():  # build the message only when it is needed
            return self._priority_refusal(
                "discard" if move.is_discard else f"move the {card_label(card)}"
            )
        if self._compel:
            refusal = self._compulsion_refusal(
                move, "discard" if move.is_discard else f"move the {card_label(card)}"
            )
            if refusal is not None:
                return refusal
        if self._runs and move.is_discard:  # V14
            refusal = self._run_refusal("discard")
            if refusal is not None:
                return refusal
        return self._cap_refusal(move)

    def _stock_refusal(self, move: Move, seat: SeatPiles) -> IllegalMove | None:
        """Why ``TR`` (V14: turn the top card of the face-down stock) is refused, or None."""
        if not self._stock:
            return IllegalMove(
                "NO_CARDS",
                "in these rules no reserve card is turned by hand: TR is for a reserve dealt "
                "face down as a stock",
            )
        if seat.turned is not None:
            return IllegalMove(
                "ALREADY_TURNED",
                f"you have a turned hand card, the {card_label(seat.turned)}: play it or "
                "discard it (C-W) before turning a reserve card",
            )
        if seat.reserve:
            return IllegalMove(
                "ALREADY_TURNED",
                f"the top card of your reserve, the {card_label(seat.reserve[-1])}, is face "
                "up: the next one can be turned only after it has gone",
            )
        if not seat.reserve_down:
            return IllegalMove("NO_CARDS", "your reserve has no face-down card left to turn")
        action = "turn a reserve card"
        return (
            (self._one_card_refusal(action) if self._one_card else None)
            or self._priority_refusal(action)
            or (self._compulsion_refusal(move, action) if self._compel else None)
        )

    def _one_card_refusal(self, action: str) -> IllegalMove | None:
        """ONE_CARD_FIRST (V14, Foster p.15): a second card turned before any card has
        moved this turn, while a card move is open."""
        if not self._one_card_blocks(self.legal_moves()):
            return None
        return IllegalMove(
            "ONE_CARD_FIRST",
            f"you may not {action} now: you have turned a card this turn and no card has "
            "moved since the turn began; in these rules only one card, from the hand or the "
            "reserve, is turned before the first card move (unless no other card can move)",
        )

    def _run_refusal(self, action: str) -> IllegalMove | None:
        """S11 (V14, Foster p.17): a card the mover must play after its runs through the
        hand can be played, and ``action`` (a turn, discard or ``E``) would leave it."""
        moves = self.run_moves()
        if not moves:
            return None
        first = moves[0]
        card = self._source_card(first, self.seats[self.to_move])
        assert not isinstance(card, IllegalMove)
        what = {RESERVE: "your reserve card", TURNED: "your turned card", WASTE: "your waste's top"}
        runs = self.new_hands[self.to_move]
        return IllegalMove(
            "S11",
            f"you may not {action} now: {what[first.src]}, the {card_label(card)}, can be "
            f"played ({first}); your waste has become your hand {runs} times, and in these "
            "rules every playable card of yours must then be played",
        )

    def _compulsion_refusal(self, move: Move, action: str) -> IllegalMove | None:
        """S6 (V5) or S7 (V12) when such a compulsory move is pending and ``move`` is
        not one; checked only when no foundation move is open. Past the R7.6 cap these
        compulsions lapse: the cap's own rules leave only the moves that end a turn."""
        rules = self.rules
        if self.turn_moves >= rules.max_turn_moves:
            return None
        is_card = move.kind == CARD
        if self._release != RELEASE_OFF:
            release = self._release_moves()
            if release is not None:
                if is_card and move in release.moves:
                    return None
                house = self.houses[release.house]
                card, above = house[release.index], len(house) - release.index - 1
                how = "in the fewest moves" if self._release == RELEASE_FEWEST else "first"
                return IllegalMove(
                    "S8",
                    f"you may not {action} now: the {card_label(card)} in "
                    f"{pile_name(HOUSE, release.house)} fits on a foundation, and the "
                    f"{'card' if above == 1 else f'{above} cards'} covering it can be moved "
                    f"off; in these rules it must be released {how}",
                )
        if rules.compulsory_loading:
            load = self._pending_load()
            if load is not None:
                if is_card and move.dst in (OPP_RESERVE, OPP_WASTE):
                    return None
                card, pile = load
                return IllegalMove(
                    "S6",
                    f"you may not {action} now: the {card_label(card)} can be loaded on "
                    f"your opponent's {pile}, and in these rules loading comes first when "
                    "nothing can go to a foundation",
                )
        if rules.reserve_to_house_compulsory:
            fill = self._pending_fill()
            if fill is not None:
                if is_card and move.src == RESERVE and move.dst == HOUSE:
                    return None
                card = self.seats[self.to_move].reserve[-1]
                return IllegalMove(
                    "S7",
                    f"you may not {action} now: your reserve card, the {card_label(card)}, "
                    f"fits on {pile_name(HOUSE, fill)}, and in these rules it must go to a "
                    "house before any other move that is not to a foundation",
                )
        if rules.uncover_compulsory and self._down:
            uncover = self._uncover_moves()
            if uncover and not (is_card and move in uncover):
                where = pile_name(HOUSE, uncover[0].si)
                return IllegalMove(
                    "S10",
                    f"you may not {action} now: the cards on the face-down card of {where} "
                    "can all be moved off, and in these rules uncovering it comes next after "
                    "the foundation moves",
                )
        return None

    def _release_moves(self) -> _Release | None:
        """V4: the moves that begin releasing a buried house card that fits a
        foundation, when its covering cards can all be moved off (docs/variants.md).

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
        if plans and self._release == RELEASE_FEWEST:
            least = min(p[0] for p in plans)
            plans = [p for p in plans if p[0] == least]
        if not plans:
            self._rmoves = (key, _NO_RELEASE)
            return None
        _, house, index, _ = plans[0]
        release = _Release(list(dict.fromkeys(p[3] for p in plans)), house, index)
        self._rmoves = (key, release)
        return release

    def _uncover_moves(self) -> list[Move]:
        """V7: the moves that begin uncovering a face-down house card, when every
        face-up card on it can be moved off (clearing.py). Cards may go into empty
        houses but not onto another house with face-down cards, so cards only ever
        leave those houses and the uncovering ends (the same reason as for V4)."""
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
        for j, top in tops.items():
            if face in fits[top]:
                lay = Layout(_swap(base.tops, top, face), *_after_tops(base))
                firsts.append((table.to_house[h + 2][j], rest, lay))
            elif self._groups:
                k = self._group_start(h, j)
                if k is not None and k >= start:
                    lay = Layout(_swap(base.tops, top, face), *_after_tops(base))
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
                cards[:left], lay, house_fits=fits, load_fits=self._load_fits, groups=self._groups
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

    def _pending_load(self) -> tuple[Card, str] | None:
        """V5: an available card that can load an opponent's pile, and that pile's name."""
        seat = self.seats[self.to_move]
        cards = [pile[-1] for h, pile in enumerate(self.houses) if pile and not self._is_closed(h)]
        if not self._house_loads_now():  # G4, V14: house cards may not load (now)
            cards = []
        if seat.reserve:  # (G4 has no reserve)
            cards.insert(0, seat.reserve[-1])
        if seat.turned is not None:
            cards.insert(0, seat.turned)
        if self._own_waste and seat.waste:
            cards.append(seat.waste[-1])
        for fits, rows, _ in self._load_targets():
            for card in cards:
                if card & FACE_MASK in fits:
                    return card, "reserve" if rows is self._table.to_opp_reserve else "waste"
        return None

    def _house_loads_now(self) -> bool:
        """Whether a house card may load an opponent's pile now (G4: never; V14: only
        before the mover has played a card of its own this turn)."""
        return self._load_houses and not (self._early_loads and self.turn_own_played)

    def _pending_fill(self) -> int | None:
        """V12: the first house the mover's reserve card fits (an empty one included)."""
        seat = self.seats[self.to_move]
        if not seat.reserve:
            return None
        face = seat.reserve[-1] & FACE_MASK
        for j, pile in enumerate(self.houses):
            if j == self.retired_house:  # G3
                continue
            if not pile or face in self._house_fits[pile[-1] & FACE_MASK]:
                return j
        return None

    def _cap_refusal(self, move: Move) -> IllegalMove | None:
        """R7.6: past the cap only foundation moves, T, C-W, E, and filling a space from
        the reserve (which P3 compels before turning) are allowed."""
        if (
            self.turn_moves < self.rules.max_turn_moves
            or move.kind != CARD
            or move.dst == FOUNDATION
            or move.is_discard
            or (move.src == RESERVE and move.dst == HOUSE and not self.houses[move.di])
            or (
                move.src == WASTE
                and self._fill_waste
                and not self.seats[self.to_move].reserve
                and move.dst == HOUSE
                and not self.houses[move.di]
            )
        ):
            return None
        return IllegalMove(
            "TURN_TOO_LONG",
            f"this turn already has {self.rules.max_turn_moves} moves: only foundation moves, "
            "filling a space from the reserve, T, C-W and E are allowed now",
        )

    def _source_card(self, move: Move, seat: SeatPiles) -> Card | IllegalMove:
        """The available card ``move`` takes (R4.2), or an S5 refusal."""
        src = move.src
        if src == RESERVE:
            if seat.reserve:
                return seat.reserve[-1]
            if seat.reserve_down and self._stock:  # V14
                return IllegalMove(
                    "S5", "the top card of your reserve is face down: turn it up with TR first"
                )
            if seat.reserve_down:  # V9
                return IllegalMove(
                    "S5",
                    "your reserve is still face down: it is turned up once no house card "
                    "can go to a foundation",
                )
            return IllegalMove("S5", "your reserve is empty")
        if src == TURNED:
            if seat.turned is not None:
                return seat.turned
            return IllegalMove("S5", "you have no turned card: turn one with T first")
        if src == HOUSE:
            pile = self.houses[move.si]
            if pile:
                return pile[-1]
            return IllegalMove("S5", f"{pile_name(HOUSE, move.si)} is empty")
        if src in (OPP_WASTE, OPP_RESERVE) and self._take and move.si == 1:  # V14
            opp = self.seats[(self.to_move + 1) % len(self.seats)]
            pile = opp.waste if src == OPP_WASTE else opp.reserve
            what = "waste" if src == OPP_WASTE else "reserve"
            if not pile:
                if opp.reserve_down and src == OPP_RESERVE:
                    return IllegalMove("S5", "the top card of your opponent's reserve is face down")
                return IllegalMove("S5", f"your opponent's {what} is empty")
            if move.dst == FOUNDATION or (move.dst == HOUSE and self.houses[move.di]):
                return pile[-1]
            return IllegalMove(
                "S4",
                f"the {card_label(pile[-1])} from your opponent's {what} may go only to a "
                "foundation or onto a house card",
            )
        if src == OPP_WASTE and self._borrow and move.si == 1:  # G4
            waste = self.seats[(self.to_move + 1) % len(self.seats)].waste
            if not waste:
                return IllegalMove("S5", "your opponent's waste is empty")
            if move.dst == HOUSE and self.houses[move.di]:
                return waste[-1]
            # Where it may go is a building rule (S4), checked here because no other
            # card has this limit: the standard game pays nothing for it.
            return IllegalMove(
                "S4",
                f"the {card_label(waste[-1])} from your opponent's waste may only be built "
                "on a house, not put anywhere else",
            )
        if src == WASTE and self._own_waste:  # V1
            if seat.waste:
                return seat.waste[-1]
            return IllegalMove("S5", "your waste is empty")
        reason = {
            FOUNDATION: "cards on a foundation never move again",
            WASTE: "the cards of your own waste are not available; only your turned card is",
            OPP_RESERVE: "you may not take cards from your opponent's reserve",
            OPP_WASTE: "you may not take cards from your opponent's waste",
        }[src]
        return IllegalMove("S5", reason)

    def _fit_refusal(self, move: Move, card: Card) -> IllegalMove | None:
        """An S4 refusal when ``card`` may not go where ``move`` puts it (R5). The
        messages are built only for a refusal: a legal move pays nothing for them."""
        dst, di = move.dst, move.di
        if dst == FOUNDATION:
            pile = self.foundations[di]
            if not pile:
                if rank_of(card) == ACE:
                    return None
                name, where = card_label(card), pile_name(FOUNDATION, di)
                return IllegalMove(
                    "S4", f"the {name} cannot start {where}: an empty foundation takes only an ace"
                )
            top = pile[-1]
            if FOUNDATION_NEXT[top & FACE_MASK] == card & FACE_MASK:
                return None
            name, where = card_label(card), pile_name(FOUNDATION, di)
            if not FOUNDATION_NEXT[top & FACE_MASK]:
                return IllegalMove("S4", f"{where} is complete: nothing goes on a king")
            return IllegalMove(
                "S4",
                f"the {name} cannot go on the {card_label(top)} on {where}: "
                "foundations are built up in suit, one rank at a time",
            )
        if dst == HOUSE:
            if move.src == HOUSE and move.si == di:
                return IllegalMove(
                    "S4", f"the {card_label(card)} is already on {pile_name(HOUSE, di)}"
                )
            pile = self.houses[di]
            if not pile:
                if di == self.retired_house:  # G3
                    return IllegalMove(
                        "S4",
                        f"{pile_name(HOUSE, di)} has left play: it was the first house emptied",
                    )
                if self._no_waste_spaces and move.src == WASTE:  # V14
                    return IllegalMove(
                        "S4",
                        f"the {card_label(card)} comes from your waste, and in these rules a "
                        "waste card never goes into an empty house",
                    )
                # G4: a closed house (a whole suit) lets no card go. Only an empty house
                # could take its top card: with one pack nothing else fits it.
                if self._closed and move.src == HOUSE and self._is_closed(move.si):
                    return IllegalMove(
                        "S5", f"{pile_name(HOUSE, move.si)} holds a whole suit: it is closed"
                    )
                return None
            if (card & FACE_MASK) in self._house_fits[pile[-1] & FACE_MASK]:
                return None
            if self._groups and move.src == HOUSE and self._group_start(move.si, di) is not None:
                return None  # V10: a run from lower down fits
            top = pile[-1]
            if self.rules.build_both_ways:  # G4
                why = "in this game houses are built in suit, one rank up or down"
            elif self.rules.houses_same_suit:  # V11
                why = "in these rules houses are built down in the same suit, one rank at a time"
            elif rank_of(card) + 1 == rank_of(top):
                why = "houses are built down in alternating colours"
            elif is_red(card) != is_red(top):
                why = "houses are built down one rank at a time"
            else:
                why = "houses are built down in alternating colours, one rank at a time"
            return IllegalMove(
                "S4", f"the {card_label(card)} cannot go on the {card_label(top)}: {why}"
            )
        if dst in (OPP_RESERVE, OPP_WASTE):
            if not self._load_houses and move.src not in (TURNED, WASTE):  # G4
                return IllegalMove(
                    "S4",
                    f"the {card_label(card)} may not load your opponent: in this game only "
                    "your turned card or the top card of your waste may",
                )
            if self._early_loads and move.src == HOUSE and self.turn_own_played:  # V14
                return IllegalMove(
                    "S4",
                    f"the {card_label(card)} is a house card, and in these rules a house card "
                    "may load your opponent only before you play a card of your own in the turn",
                )
            target = self.seats[(self.to_move + di) % self.rules.seats]
            pile = target.reserve if dst == OPP_RESERVE else target.waste
            what = "reserve" if dst == OPP_RESERVE else "waste"
            if not pile and dst == OPP_RESERVE and target.reserve_down:  # V9
                return IllegalMove(
                    "S4", "your opponent's reserve is still face down and cannot be loaded"
                )
            if not pile:
                return IllegalMove(
                    "S4", f"your opponent's {what} is empty, and an empty pile cannot be loaded"
                )
            if (card & FACE_MASK) in self._load_fits[pile[-1] & FACE_MASK]:
                return None
            return IllegalMove(
                "S4",
                f"the {card_label(card)} cannot load your opponent's {what} (top card "
                f"{card_label(pile[-1])}): loading takes the same suit, one rank higher or lower",
            )
        if dst == WASTE:
            if move.src == TURNED:
                return None
            return IllegalMove(
                "S4", "only your turned card may go on your own waste, and that ends your turn"
            )
        if dst == RESERVE:
            return IllegalMove("S4", "you may not put a card on your own reserve")
        return IllegalMove("S4", "a card cannot be put on the turned card")

    def _p1_refusal(self, action: str) -> IllegalMove:
        card = self.seats[self.to_move].reserve[-1]
        target = pile_name(FOUNDATION, self.foundation_moves()[0].di)
        return IllegalMove(
            "S1",
            f"you may not {action} now: your reserve card, the {card_label(card)}, fits on "
            f"{target} and must go there before anything else",
        )

    def _priority_refusal(self, action: str) -> IllegalMove | None:
        """S1/S2 when a foundation move is pending and ``action`` is not one (P1, P2)."""
        pending = self.foundation_moves()
        if not pending:
            return None
        if self._p1:
            return self._p1_refusal(action)
        first = pending[0]
        card = self._source_card(first, self.seats[self.to_move])
        assert not isinstance(card, IllegalMove)
        where = "your turned card, the" if first.src == TURNED else "the"
        on = "" if first.src == TURNED else f" on {pile_name(first.src, first.si)}"
        return IllegalMove(
            "S2",
            f"you may not {action} now: {where} {card_label(card)}{on} fits on "
            f"{pile_name(FOUNDATION, first.di)}, and foundation moves come first",
        )

    def _space_refusal(self) -> IllegalMove | None:
        """S3: no turning while a house is empty and the reserve is not (P3); in G4,
        with no reserve, while the waste is not."""
        seat = self.seats[self.to_move]
        if seat.reserve:
            source = "your reserve"
        elif self._stock and seat.reserve_down:  # V14
            source = "your reserve (turn its top card with TR)"
        elif self._fill_waste and seat.waste:
            source = "the top of your waste"
        else:
            return None
        for j, pile in enumerate(self.houses):
            if not pile and j != self.retired_house:  # G3: a retired house is no space
                return IllegalMove(
                    "S3",
                    f"{pile_name(HOUSE, j)} is empty: fill the empty houses from {source} "
                    "before turning a hand card",
                )
        return None

    def _make_space_refusal(self) -> IllegalMove | None:
        """S9 (V6): no turning while a house could still be emptied (and then filled
        from the reserve, P3)."""
        moves = self._space_moves()
        if not moves:
            return None
        house = pile_name(HOUSE, moves[0].si)
        return IllegalMove(
            "S9",
            f"you may not turn a hand card now: the cards of {house} can all be moved "
            "elsewhere, and in these rules you must make every space you can, and fill it "
            "from your reserve, before turning",
        )

    def space_moves(self) -> list[Move]:
        """V6: the moves that begin emptying a house before a turn (see ``_space_moves``)."""
        return self._space_moves()[:]

    def _space_moves(self) -> list[Move]:
        """V6: the first moves of emptying a house, while the reserve has cards and no
        house is empty (P3 comes first then) and the turn is under the R7.6 cap.
        Houses with face-down cards (V7) cannot be emptied by their face-up cards."""
        key = (self.turns, self.turn_moves)
        if self._smoves is not None and self._smoves[0] == key:
            return self._smoves[1]
        moves: list[Move] = []
        houses = self.houses
        seat = self.seats[self.to_move]
        if (
            (seat.reserve or (self._stock and seat.reserve_down))  # V14: a face-down stock
            and all(p or j == self.retired_house for j, p in enumerate(houses))  # G3
            and self.turn_moves < self.rules.max_turn_moves
        ):
            for h in range(len(houses)):
                if not self.houses_down[h]:  # V7: face-down cards keep the house
                    moves.extend(m for m, _ in self._clearing_moves(h, 0, (), empty_houses=False))
        self._smoves = (key, moves)
        return moves

    # ---------------------------------------------------------------- playing

    def push(self, move: Move, *, by_seat: int | None = None, classic: bool = False) -> str | None:
        """Check and apply ``move``. Raises ``IllegalMove`` when the rules refuse it.

        With ``classic=True`` the priority violations S1-S3 are accepted (the
        opponent may call Stop!) and their code is returned; building and
        availability violations are always refused. ``by_seat`` as in ``refusal``.
        """
        refusal = self.refusal(move, by_seat)
        violation = None
        if refusal is not None:
            if not (classic and refusal.code in PRIORITY_VIOLATIONS):
                raise refusal
            cap = self._cap_refusal(move)  # a violation does not lift the cap
            if cap is not None:
                raise cap
            violation = refusal.code
        self._apply(move)
        if violation is not None and self._rdown:  # V9: an S2 slip may move a fitting card
            self.reveal_reserve()
        return violation

    def play(self, text: str) -> Move:
        """Parse, check and apply one move given in the notation; returns the move."""
        move = self.parse(text)
        self.push(move)
        return move

    def _apply(self, move: Move) -> None:
        """Carry out a checked move."""
        m = self.to_move
        seat = self.seats[m]
        self._fmoves = None
        self.turn_moves += 1
        kind = move.kind
        if kind == CARD:
            src = move.src
            card: Card
            if self._track:  # V14: a card moved this turn, and was it one of the mover's own
                self.turn_card_moved = True
                if src in (RESERVE, TURNED, WASTE):
                    self.turn_own_played = True
            if self._groups and src == HOUSE and move.dst == HOUSE and self._apply_group(move):
                return
            if src == RESERVE:
                card = seat.reserve.pop()
                self.turn_productive = True
                if self._jokers:  # G3: the joker under it shows and is put aside
                    self.set_aside_jokers(seat)
            elif src == TURNED:
                assert seat.turned is not None
                card = seat.turned
                seat.turned = None
                if move.dst != WASTE:
                    self.turn_productive = True
            elif src == HOUSE:
                pile = self.houses[move.si]
                card = pile.pop()
                if not pile:
                    self._emptied(move.si)
            elif src == WASTE:  # the own waste (V1): a card the mover gets rid of
                card = seat.waste.pop()
                self.turn_productive = True
            else:  # G4, V14: the opponent's waste top (V14: or reserve top)
                other = (m + 1) % len(self.seats)
                opp = self.seats[other]
                card = (opp.reserve if src == OPP_RESERVE else opp.waste).pop()
                if not self._take:
                    self.turn_productive = True  # G4
                if not opp.has_cards:
                    # Its last card taken, the opponent has none left: it wins (R8.1).
                    target = self.foundations if move.dst == FOUNDATION else self.houses
                    target[move.di].append(card)
                    self._fwant = None
                    self._finish_won(other, BY_CARDS)
                    return
            dst = move.dst
            if dst == FOUNDATION:
                self.foundations[move.di].append(card)
                self._fwant = None
                self.turn_productive = True
                if self._rdown:  # V9: the tableau's foundation moves may all be made
                    self.reveal_reserve()
            elif dst == HOUSE:
                self.houses[move.di].append(card)
            elif dst == OPP_RESERVE:
                self.seats[(m + move.di) % len(self.seats)].reserve.append(card)
            elif dst == OPP_WASTE:
                self.seats[(m + move.di) % len(self.seats)].waste.append(card)
            else:  # the discard
                seat.waste.append(card)
                self._end_turn()
                return
            if src != HOUSE and not seat.has_cards:
                self._finish_won(m, BY_CARDS)
        elif kind == TURN:
            if not seat.hand:  # R4.4: the waste, order kept, becomes the hand
                seat.hand = seat.waste[::-1]
                seat.waste = []
                self.turnovers[m] += 1
                if self._runs:  # V14
                    self.new_hands[m] += 1
                if self.rules.shuffle_waste:
                    self._reshuffle(m)
            seat.turned = seat.hand.pop()
            if self._jokers and seat.turned & FACE_MASK == JOKER:  # G3: put aside
                self.set_aside.append(seat.turned)
                seat.turned = None
                if not seat.has_cards:  # the joker was its last card (R8.1)
                    self._finish_won(m, BY_CARDS)
        elif kind == TURN_STOCK:  # V14: the stock's top card face up
            seat.reserve.append(seat.reserve_down.pop())
        else:
            self._end_turn()

    def _apply_group(self, move: Move) -> bool:
        """V10: move a run from below the top of a house, if ``move`` is such a move."""
        target = self.houses[move.di]
        if not target:
            return False  # an empty house takes the top card alone
        source = self.houses[move.si]
        if (source[-1] & FACE_MASK) in self._house_fits[target[-1] & FACE_MASK]:
            return False  # the top card alone fits: an ordinary move
        k = self._group_start(move.si, move.di)
        assert k is not None, "a checked group move has a run that fits"
        target.extend(source[k:])
        del source[k:]
        if not source:
            self._emptied(move.si)
        return True

    def _emptied(self, h: int) -> None:
        """House ``h`` has just lost its last face-up card: V7 turns up the face-down
        card under it; under G3 the first house emptied leaves play."""
        if self._down and self.houses_down[h]:  # V7
            self.houses[h].append(self.houses_down[h].pop())
        elif self._retire and self.retired_house is None:  # G3
            self.retired_house = h

    def set_aside_jokers(self, seat: SeatPiles) -> None:
        """G3: a joker on top of ``seat``'s reserve leaves the game; the card under it
        is turned up (R4.3)."""
        reserve = seat.reserve
        while reserve and reserve[-1] & FACE_MASK == JOKER:
            self.set_aside.append(reserve.pop())

    def _reshuffle(self, m: int) -> None:
        """V13: shuffle the new hand of seat ``m``, from its key, seat and count."""
        if self.reshuffle_key is None:
            # A position that did not come from a deal (a hand-made document): no seed
            # to derive the key from, so draw one; such a game is not replayed from a seed.
            self.reshuffle_key = secrets.token_hex(32)
        count = self.reshuffles[m]
        reshuffle_stream(self.reshuffle_key, self.seat_name(m), count).shuffle(self.seats[m].hand)
        self.reshuffles[m] = count + 1

    def _end_turn(self) -> None:
        m = self.to_move
        n = len(self.seats)
        self.turns += 1
        productive = self.turn_productive
        if productive:
            self.turnovers = [0] * n
            self.quiet_turns = [0] * n
        else:
            self.quiet_turns[m] += 1
        self.turn_moves = 0
        self.turn_productive = False
        self.turn_card_moved = False
        self.turn_own_played = False
        self.to_move = (m + 1) % n
        self._fmoves = None
        if self._rdown:  # V9: the new mover's reserve, unless a house card fits a foundation
            self.reveal_reserve()
        if not productive and self.is_stuck():
            self.finish_stalemate(BY_STALEMATE)
        elif self.turns >= self.rules.max_turns:
            self.finish_stalemate(BY_TURN_LIMIT)

    def stop_turn(self) -> None:
        """End the mover's turn after a Stop! (R7.1, R7.2): a turned card goes back
        face down on top of the hand (Foster p.12), and the next seat plays."""
        seat = self.seats[self.to_move]
        if seat.turned is not None:
            seat.hand.append(seat.turned)
            seat.turned = None
        self._end_turn()

    def reveal_reserve(self) -> None:
        """V9: turn up the mover's face-down reserve once no house card fits a
        foundation (the tableau-to-foundation moves of its first turn come first).
        Called after every foundation move and at the start of every turn, which are
        what change it (a house card that fits a foundation may move nowhere else, P2;
        a slip accepted in classic play may move it, so it is called then too)."""
        seat = self.seats[self.to_move]
        if not self._rdown or not seat.reserve_down or self.status != PLAYING:
            return
        want = self._fwant if self._fwant is not None else self._foundation_wants()
        if any(pile and pile[-1] & FACE_MASK in want for pile in self.houses):
            return
        seat.reserve, seat.reserve_down = seat.reserve_down, []
        self._fmoves = None

    def is_stuck(self) -> bool:
        """R8.4: since the last productive turn every seat has taken a turn, and has
        turned its waste over at least twice or has no hand and waste cards."""
        return all(
            quiet >= 1 and (turned_over >= 2 or not (seat.hand or seat.waste))
            for quiet, turned_over, seat in zip(
                self.quiet_turns, self.turnovers, self.seats, strict=True
            )
        )

    # ------------------------------------------------------------ the end (R8)

    def _finish(self, status: str, winner: int | None, score: list[int], ending: str) -> None:
        self.status = status
        self.winner = winner
        self.score = score
        self.ending = ending
        self._fmoves = None

    def _finish_won(self, winner: int, ending: str, penalty: int = 0) -> None:
        """R8.2 (and R8.6 with a penalty): the winner scores the bonus plus the losers' counts."""
        losers = sum(s.count for i, s in enumerate(self.seats) if i != winner)
        score = [0] * len(self.seats)
        score[winner] = self.rules.win_bonus + penalty + losers
        self._finish(WON, winner, score, ending)

    def finish_stalemate(self, ending: str = BY_AGREEMENT) -> None:
        """R8.3/R8.5: the lowest count scores its difference to the others' (no bonus);
        under V14 nobody scores."""
        self._ensure_playing()
        counts = [s.count for s in self.seats]
        low = min(counts)
        score = [0] * len(counts)
        # V14: a draw whatever the counts, so nobody scores.
        if counts.count(low) == 1 and not self.rules.stalemate_scores_nothing:
            best = counts.index(low)
            score[best] = sum(c - low for c in counts)
        self._finish(STALEMATE, None, score, ending)

    def forfeit(self, seat: int, ending: str = BY_RESIGNATION) -> None:
        """R8.6: ``seat`` resigns or runs out of time; the opponent scores 30 + 20 + its count.

        G3 (**Decision**, the source is silent): with three seats the game ends for all;
        the forfeiting seat pays each of the others as if each had beaten it alone,
        and nobody is named the winner."""
        self._ensure_playing()
        if len(self.seats) == 2:
            self._finish_won(1 - seat, ending, self.rules.forfeit_penalty)
            return
        owed = self.rules.win_bonus + self.rules.forfeit_penalty + self.seats[seat].count
        score = [0 if s == seat else owed for s in range(len(self.seats))]
        self._finish(WON, None, score, ending)

    def _ensure_playing(self) -> None:
        if self.status != PLAYING:
            raise IllegalMove("GAME_OVER", "the game is over")
