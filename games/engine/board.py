"""The table: every pile and counter of a game, whose turn it is, and how a game ends.

``Board`` holds the state and the end of the game (R8); what may move, and why a
move is refused, are the layers above it (``moves.py`` is the notation; the
standard game's layers are ``generate.py``, ``referee.py`` and ``position.py``).
The state is the same for every family and option: a counter an option does not
use stays at its start value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, ClassVar, Final, Protocol

from .cards import Card, Face
from .errors import IllegalMove
from .moves import Move, parse_move
from .rules import PRESETS, Rules

if TYPE_CHECKING:
    from .tables import LoadRows, MaskTable, MoveTable

#: The plain generator's houses: each house's top face (0 when empty), for each key
#: the houses whose top has it, and the spaces, as bits (``tables.MaskTable``).
HousesState = tuple[list[int], list[int], int]

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


class FamilyTraits(Protocol):
    """What a position reads of its family (``families.Family``), declared here so the
    board never imports the module that composes it."""

    name: str
    jokers: int
    retires_houses: bool


class Board:
    """A complete position, as the referee sees it (hidden cards included).

    ``Board(rules)`` gives the class that plays ``rules``: its family's, with a
    small class for each option in force (``families.position_class``). The
    class is chosen once, so no move asks which options are on.
    """

    #: Set by ``families.py``: the class that plays given rules.
    _compose: ClassVar[Callable[[Rules], type[Board]] | None] = None
    #: Set on each composed class (``families.position_class``).
    family: ClassVar[FamilyTraits]
    _table: ClassVar[MoveTable]
    #: The plain generator's tables: set only on a class that overrides no hook of
    #: move generation (``families.position_class``), else None.
    _masks: ClassVar[MaskTable | None] = None
    _house_fits: ClassVar[tuple[tuple[Face, ...], ...]]
    _load_fits: ClassVar[tuple[tuple[Face, ...], ...]]
    #: The plain generator's loads (face -> move rows) by the opponent's reserve and
    #: waste tops: the same tops give the same loads (one dict per composed class, at
    #: most 64 x 64 entries).
    _load_cache: ClassVar[dict[tuple[Face, Face], dict[Face, LoadRows]]]

    __slots__ = (
        "_fmask",
        "_fmoves",
        "_fwant",
        "_houses_next",
        "_houses_state",
        "_legal",
        "_p1",
        "_rmoves",
        "_smoves",
        "_umoves",
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

    def __new__(cls, rules: Rules | None = None, **_: object) -> Board:
        compose = Board._compose
        if compose is not None and "family" not in cls.__dict__:
            cls = compose(rules if rules is not None else PRESETS["pagat"])
        return object.__new__(cls)

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
        self._forget()

    def _forget(self) -> None:
        """Drop the caches of what the cards allow (every move changes it)."""
        #: Face -> the foundations it fits: changes only when a foundation grows.
        self._fwant: dict[Face, list[int]] | None = None
        #: The same as bits, face -> the set of foundations it fits (the plain generator).
        self._fmask: list[int] | None = None
        #: The foundation moves open to the mover (P1, P2), and whether P1 applies.
        self._fmoves: list[Move] | None = None
        self._p1: bool = False
        #: The moves ``legal_moves`` listed last: ``push`` need not check them again.
        self._legal: tuple[Move, ...] | None = None
        #: The plain generator's view of the houses (their top faces, the houses each
        #: key takes, the spaces as bits), handed from ``legal_moves`` to the ``push``
        #: of a move it listed (``_houses_next``), which brings it up to date and hands
        #: it back (``_houses_state``); any other change of the cards drops both.
        self._houses_next: HousesState | None = None
        self._houses_state: HousesState | None = None
        # The searches of V4, V6 and V7, kept with the (turns, turn_moves) they were made
        # at: every move changes that pair, so nothing has to drop them.
        self._rmoves: tuple[tuple[int, int], object] | None = None
        self._smoves: tuple[tuple[int, int], list[Move]] | None = None
        self._umoves: tuple[tuple[int, int], list[Move]] | None = None

    # ------------------------------------------------------------------ basics

    def copy(self) -> Board:
        other = object.__new__(type(self))
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
        other.new_hands = self.new_hands[:]
        other.turn_card_moved = self.turn_card_moved
        other.turn_own_played = self.turn_own_played
        other._forget()
        # What the foundations want: the same foundations, and never changed in place.
        other._fwant = self._fwant
        other._fmask = self._fmask
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self._public_fields())

    __hash__ = None  # type: ignore[assignment]  # mutable

    @staticmethod
    def _public_fields() -> Iterable[str]:
        return (name for name in Board.__slots__ if not name.startswith("_"))

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

    def spaces(self) -> list[int]:
        """The empty houses a card may go into (P3 fills them)."""
        return [j for j, pile in enumerate(self.houses) if not pile]

    # ------------------------------------------------------------ the end (R8)

    def is_stuck(self) -> bool:
        """R8.4: since the last productive turn every seat has taken a turn, and has
        turned its waste over at least twice or has no hand and waste cards."""
        return all(
            quiet >= 1 and (turned_over >= 2 or not (seat.hand or seat.waste))
            for quiet, turned_over, seat in zip(
                self.quiet_turns, self.turnovers, self.seats, strict=True
            )
        )

    def _finish(self, status: str, winner: int | None, score: list[int], ending: str) -> None:
        self.status = status
        self.winner = winner
        self.score = score
        self.ending = ending
        self._fmoves = None
        self._legal = None

    def _finish_won(self, winner: int, ending: str, penalty: int = 0) -> None:
        """R8.2 (and R8.6 with a penalty): the winner scores the bonus plus the losers' counts."""
        losers = sum(s.count for i, s in enumerate(self.seats) if i != winner)
        score = [0] * len(self.seats)
        score[winner] = self.rules.win_bonus + penalty + losers
        self._finish(WON, winner, score, ending)

    def finish_stalemate(self, ending: str = BY_AGREEMENT) -> None:
        """R8.3/R8.5: the lowest count scores its difference to the others' (no bonus)."""
        self._ensure_playing()
        self._finish(STALEMATE, None, self.stalemate_score(), ending)

    def stalemate_score(self) -> list[int]:
        """Each seat's points, in seat order, if the game ended in a stalemate now (R8.3;
        what an agreement, R8.5, would score): the lowest count scores its difference
        to the others', or nothing (equal lowest counts; V14, a draw). What a player is
        told before offering or accepting one."""
        return self._stalemate_score([s.count for s in self.seats])

    def _stalemate_score(self, counts: list[int]) -> list[int]:
        """R8.3: a single lowest count scores the sum of its differences to the others."""
        low = min(counts)
        score = [0] * len(counts)
        if counts.count(low) == 1:
            score[counts.index(low)] = sum(c - low for c in counts)
        return score

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
            raise IllegalMove("GAME_OVER", "game_over")
