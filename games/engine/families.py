"""The game families, and the class that plays a given set of rules.

A *family* (docs/variants.md) is a game of its own: the standard game (RULES.md
§1-8, with every option of §9), Foster's two-pack game (V14), the one-pack game
(G2), the three-player game (G3) and Foster's one-pack game (G4). Its ``Family``
object holds what the family changes: its deal, its jokers, how its houses are
built, and the ``Position`` class with the hooks its play changes.

The options (§9) are small classes too (``variants/``). ``position_class(rules)``
composes, once per ``Rules``, the family's class with the class of every option
in force, in the order of ``OPTION_CLASSES``: each hook an option overrides
hands on to the next with ``super()``, so the order decides, for example, which
compulsory move comes first. ``Position(rules)`` builds an instance of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Final, cast

from .board import Board
from .cards import FACE_MASK, JOKER, Card, house_fits_table, load_fits_table
from .position import Position
from .rules import (
    FOSTER,
    FOSTER_ONE_PACK,
    ONE_PACK,
    RELEASE_OFF,
    STANDARD,
    THREE_PLAYER,
    Rules,
)
from .tables import mask_table, move_table
from .variants.foster import (
    CompulsoryAfterRuns,
    HouseLoadsFirst,
    NoWasteSpaces,
    OneCardFirst,
    StalemateDraw,
    Stock,
    TakeFromOpponent,
)
from .variants.foster_one_pack import FosterOnePackPosition
from .variants.priorities import CompulsoryLoading, LenientTurn, ReserveToHouse
from .variants.reserve import FaceDownReserve, OwnWaste, ShuffleWaste
from .variants.strict import MakeSpaces, StrictRelease, UncoverCompulsory
from .variants.tableau import FaceDownTableau, GroupMoves, SameSuit
from .variants.three_player import ThreePlayerPosition


@dataclass(frozen=True)
class Family:
    """A game family: its rule id, its deal, and the class of its play."""

    name: str
    rule_id: str
    position: type[Position]
    #: G3: jokers shuffled in with the packs, put aside as soon as they show.
    jokers: int = 0
    #: G3: the first house to be emptied leaves play for the rest of the game.
    retires_houses: bool = False
    #: G4: houses built one rank up or down, with the King next to the Ace.
    both_ways: bool = False
    wrap_ranks: bool = False

    def lay_out(self, position: Position, packs: list[list[Card]], rows: int) -> None:
        """R2.2-R2.4: from each seat's shuffled cards its reserve, then ``rows`` rows of
        face-down house cards (V7), then a card for each of its houses, then its hand."""
        rules = position.rules
        hps = rules.houses_per_seat
        down = rows * hps
        for s, pack in enumerate(packs):
            size = rules.reserve_size
            if size + down + hps > len(pack):
                raise ValueError(f"{len(pack)} cards are too few for this layout")
            position.seats[s].reserve = pack[:size]
            position.seats[s].hand = pack[size + down + hps :]
            below = pack[size : size + down]
            for k, card in enumerate(pack[size + down : size + down + hps]):
                position.houses[s * hps + k] = [self.house_card(position, s, card)]
                position.houses_down[s * hps + k] = below[k::hps]

    def house_card(self, position: Position, seat: int, card: Card) -> Card:
        """The card a seat deals to a house."""
        return card


@dataclass(frozen=True)
class ThreePlayer(Family):
    """G3: a joker dealt to a house is put aside and the house takes the next hand
    card; a joker on top of a reserve is put aside too."""

    def lay_out(self, position: Position, packs: list[list[Card]], rows: int) -> None:
        super().lay_out(position, packs, rows)
        assert isinstance(position, ThreePlayerPosition)
        for seat in position.seats:
            position.set_aside_jokers(seat)

    def house_card(self, position: Position, seat: int, card: Card) -> Card:
        if card & FACE_MASK == JOKER:
            position.set_aside.append(card)
            return position.seats[seat].hand.pop()
        return card


FAMILIES: Final[dict[str, Family]] = {
    STANDARD: Family(STANDARD, "R", Position),
    FOSTER: Family(FOSTER, "V14", Position),
    ONE_PACK: Family(ONE_PACK, "G2", Position),
    THREE_PLAYER: ThreePlayer(
        THREE_PLAYER, "G3", ThreePlayerPosition, jokers=1, retires_houses=True
    ),
    FOSTER_ONE_PACK: Family(
        FOSTER_ONE_PACK, "G4", FosterOnePackPosition, both_ways=True, wrap_ranks=True
    ),
}

#: Each option's class and when the rules ask for it, in the order their hooks run
#: (the first listed is asked first). The order is the rule order of docs/rules.md:
#: the one-card rule before V8's turn-first, and that before every rule holding a turn
#: back (S11 and the others); V4 > V5 > V12 > V7 among the compulsory
#: moves (S8, S6, S7, S10); the turn's flags kept before a run moves as a group.
OPTION_CLASSES: Final[tuple[tuple[Callable[[Rules], bool], type[Position]], ...]] = (
    (lambda r: r.one_card_first, OneCardFirst),  # V14
    (lambda r: r.lenient_turn, LenientTurn),  # V8
    (lambda r: r.compulsory_after_runs, CompulsoryAfterRuns),  # V14, S11
    (lambda r: r.house_loads_first, HouseLoadsFirst),  # V14
    (lambda r: r.group_moves, GroupMoves),  # V10
    (lambda r: r.strict_release != RELEASE_OFF, StrictRelease),  # V4, S8
    (lambda r: r.compulsory_loading, CompulsoryLoading),  # V5, S6
    (lambda r: r.reserve_to_house_compulsory, ReserveToHouse),  # V12, S7
    (lambda r: r.uncover_compulsory, UncoverCompulsory),  # V7, S10
    (lambda r: r.make_spaces, MakeSpaces),  # V6, S9
    (lambda r: r.stock_face_down, Stock),  # V14
    # V9: with Foster's stock the reserve is turned by hand instead.
    (lambda r: r.reserve_face_down and not r.stock_face_down, FaceDownReserve),
    (lambda r: r.own_waste_available, OwnWaste),  # V1
    (lambda r: r.take_from_opponent, TakeFromOpponent),  # V14
    (lambda r: r.waste_never_fills_spaces, NoWasteSpaces),  # V14
    # V11: G4 builds in suit too, both ways, and says so itself.
    (lambda r: r.houses_same_suit and r.family != FOSTER_ONE_PACK, SameSuit),
    (lambda r: r.face_down_tableau > 0, FaceDownTableau),  # V7
    (lambda r: r.shuffle_waste, ShuffleWaste),  # V13
    (lambda r: r.stalemate_scores_nothing, StalemateDraw),  # V14
)


def family_of(rules: Rules) -> Family:
    return FAMILIES[rules.family]


@cache
def position_class(rules: Rules) -> type[Position]:
    """The class that plays ``rules``: its options' classes over its family's."""
    family = family_of(rules)
    options = [cls for applies, cls in OPTION_CLASSES if applies(rules)]
    name = "+".join([family.position.__name__, *(cls.__name__ for cls in options)])
    house_fits = house_fits_table(rules.houses_same_suit, family.both_ways, family.wrap_ranks)
    # A class whose generation no hook changes lists its moves by target sets (two
    # seats: a third one's twelve houses are past what a mask table holds anyway).
    plain = rules.seats == 2 and not options and family.position is Position and not family.jokers
    masks = mask_table(rules.foundations, rules.houses, rules.seats, house_fits) if plain else None
    attributes: dict[str, object] = {
        "__slots__": (),
        "family": family,
        "_table": move_table(rules.foundations, rules.houses, rules.seats),
        "_masks": masks,
        "_house_fits": house_fits,
        "_load_fits": load_fits_table(family.wrap_ranks),
        "_load_cache": {},
    }
    if masks is not None:
        attributes["legal_moves"] = Position.plain_legal_moves
        attributes["push"] = Position.plain_push
    return cast(type[Position], type(name, (*options, family.position), attributes))


Board._compose = position_class
