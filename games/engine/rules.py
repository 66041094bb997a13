"""The rules object: the layout and the options a game is played with.

A ``Rules`` value names its family (the standard game, Foster's two-pack game, the
one-pack game, the three-player game, Foster's one-pack game: ``families.py`` holds
what each changes), its layout, and the options of docs/rules.md §9. Each option is
declared once, with ``option()``: its rule id, default, allowed values, source and
description; the option catalogue, the document limits and the descriptions are
read from those declarations. A preset is a named ``Rules`` value; ``pagat`` is the
default, and every option's default is its behaviour. ``docs/variants.md`` explains
each option and preset and the choices made where the sources are vague.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Final

from .errors import BadPosition, RulesClash

SEAT_NAMES: Final = "ABC"

#: V3, who starts: the values of ``Rules.starter``.
LOWER_RESERVE: Final = "lower_reserve"
HIGHER_RESERVE: Final = "higher_reserve"
CUT_LOWER: Final = "cut_lower"
CUT_HIGHER: Final = "cut_higher"
TABLEAU: Final = "tableau"
ALTERNATE: Final = "alternate"
STARTERS: Final = (LOWER_RESERVE, HIGHER_RESERVE, CUT_LOWER, CUT_HIGHER, TABLEAU, ALTERNATE)

#: V2: the reserve sizes a document may ask for.
RESERVE_SIZES: Final = (11, 12, 13)
#: V7: rows of face-down cards under the houses.
FACE_DOWN_ROWS: Final = (0, 1, 2)

#: V4, strict release: the values of ``Rules.strict_release``.
RELEASE_OFF: Final = "off"
RELEASE_ON: Final = "on"
RELEASE_FEWEST: Final = "fewest"
RELEASES: Final = (RELEASE_OFF, RELEASE_ON, RELEASE_FEWEST)


#: The game families (docs/variants.md): each has its own deal, and the rules its
#: family object (``families.py``) changes. A preset belongs to one family.
STANDARD: Final = "standard"  # RULES.md §1-8, and every option of §9
FOSTER: Final = "foster"  # V14, Foster's two-pack game
ONE_PACK: Final = "one-pack"  # G2
THREE_PLAYER: Final = "three-player"  # G3
FOSTER_ONE_PACK: Final = "foster-one-pack"  # G4
FAMILIES: Final = (STANDARD, FOSTER, ONE_PACK, THREE_PLAYER, FOSTER_ONE_PACK)


def option(
    rule_id: str, default: Any, allowed: range | tuple[Any, ...], source: str, description: str
) -> Any:
    """Declare a rule option (a field of ``Rules``): its rule id in docs/rules.md §9,
    default (the standard game's behaviour), allowed values, source text, and the
    description players read. The catalogue, the limits and the descriptions are
    read from these declarations."""
    return field(
        default=default,
        metadata={
            "rule_id": rule_id,
            "allowed": allowed,
            "source": source,
            "description": description,
        },
    )


def limited(default: Any, allowed: range | tuple[Any, ...]) -> Any:
    """A field of the layout, caps or scoring that a document may set within ``allowed``."""
    return field(default=default, metadata={"allowed": allowed})


ON_OFF: Final = (False, True)


@dataclass(frozen=True, slots=True)
class Rules:
    """How a game is laid out and played. Immutable; compare and hash by value."""

    preset: str = "pagat"
    #: The family the preset belongs to (``FAMILIES``): fixed by the preset.
    family: str = STANDARD
    #: Number of seats (R1.1): two, or three in the three-player game (G3).
    seats: int = limited(2, range(2, 4))
    #: Houses dealt by each seat (R2.3): seat s deals houses s*n .. s*n+n-1.
    houses_per_seat: int = limited(4, range(1, 7))
    #: Foundations in the middle (R1.3): four per pack.
    foundations: int = limited(8, range(1, 13))
    #: Packs in play (R1.1): one per seat, or a single pack shared (G2, G4).
    packs: int = 2
    #: G2: with one pack, the suits each seat plays with, one string of suit letters
    #: per seat (``("HC", "SD")``); empty: a one-pack deal halves the shuffled pack.
    seat_suits: tuple[str, ...] = ()
    #: R7.6: moves per turn before only foundation moves, T, C-W and E remain.
    max_turn_moves: int = limited(500, range(1, 100_001))
    #: R8.4 backstop: a game reaching this many turns ends in stalemate.
    max_turns: int = limited(2000, range(1, 1_000_001))
    #: R8.2 and R8.6.
    win_bonus: int = limited(30, range(0, 1001))
    forfeit_penalty: int = limited(20, range(0, 1001))
    #: R8.7 default match target.
    match_target: int = limited(300, range(1, 100_001))
    own_waste_available: bool = option(
        "V1",
        False,
        ON_OFF,
        "000 variations; 001",
        "the top card of your own waste is available: it must go to a foundation when "
        "it fits, and it may be built on a house or loaded on your opponent (move source W).",
    )
    #: Cards in each seat's reserve at the deal (R2.2); the hand takes the rest.
    reserve_size: int = option(
        "V2",
        13,
        RESERVE_SIZES,
        "000 variations",
        "each reserve is dealt with 11, 12 or 13 cards; the hand takes the rest.",
    )
    starter: str = option(
        "V3",
        LOWER_RESERVE,
        STARTERS,
        "000 variations; 001 pp.2-3; 003",
        "who starts: the lower reserve card (standard), the higher reserve card (ace "
        "high, then spades, hearts, diamonds, clubs), a cut for the lower or the higher "
        "card, the houses alone, or, in a match, the seats in turn.",
    )
    strict_release: str = option(
        "V4",
        RELEASE_OFF,
        RELEASES,
        "000 stricter rule 1",
        "when nothing can go to a foundation but a card buried in a house could, the "
        "cards covering it must be moved off so that it can go up, whenever they can all be "
        "moved (Stop! code S8); a stricter form asks for the fewest moves that do it.",
    )
    compulsory_loading: bool = option(
        "V5",
        False,
        ON_OFF,
        "000 stricter rule 2",
        "when nothing can go to a foundation, a card that can be loaded on your "
        "opponent's reserve or waste must be loaded before any other move, turn or discard "
        "(Stop! code S6).",
    )
    make_spaces: bool = option(
        "V6",
        False,
        ON_OFF,
        "000 stricter rule 3",
        "before turning your hand card, make every space you can by moving house cards "
        "elsewhere, and fill each from your reserve (Stop! code S9).",
    )
    face_down_tableau: int = option(
        "V7",
        0,
        FACE_DOWN_ROWS,
        "000 variant tableau; 003",
        "one or two rows of face-down cards are dealt under the houses; a face-down "
        "card is turned up as soon as the cards on it have gone, and the hand is smaller.",
    )
    uncover_compulsory: bool = option(
        "V7",
        False,
        ON_OFF,
        "000 variant tableau",
        "when nothing can go to a foundation, the cards lying on a face-down house "
        "card must be moved off it whenever they all can be (Stop! code S10).",
    )
    reserve_face_down: bool = option(
        "V9",
        False,
        ON_OFF,
        "000 variations",
        "the whole reserve is dealt face down; at your first turn the house cards that "
        "fit a foundation go there first, then your reserve card is turned up.",
    )
    lenient_turn: bool = option(
        "V8",
        False,
        ON_OFF,
        "000 less strict priorities",
        "you may turn your hand card as the very first action of your turn, even while "
        "a compulsory move waits or a house is empty; the compulsory moves then follow.",
    )
    group_moves: bool = option(
        "V10",
        False,
        ON_OFF,
        "000, after David Crossley",
        "a run of house cards in sequence moves as a group onto a house whose top card "
        "takes its lowest card; the cards above a moved card always go with it.",
    )
    houses_same_suit: bool = option(
        "V11",
        False,
        ON_OFF,
        "003, older rule",
        "houses are built down in the same suit (a 7 of hearts on the 8 of hearts) "
        "instead of in alternating colours, as in older descriptions of the game.",
    )
    reserve_to_house_compulsory: bool = option(
        "V12",
        False,
        ON_OFF,
        "003 compulsory moves",
        "when your reserve card fits a house (an empty one included) it must go there "
        "before any other move that is not to a foundation, and before turning or "
        "discarding (Stop! code S7).",
    )
    shuffle_waste: bool = option(
        "V13",
        False,
        ON_OFF,
        "003",
        "when your hand is used up, your waste is shuffled as it becomes your new "
        "hand, instead of being turned over in order.",
    )
    stock_face_down: bool = option(
        "V14",
        False,
        ON_OFF,
        "001 pp.2, 7",
        "the whole reserve is dealt face down and nothing turns up by itself: you turn "
        "its top card with TR when none of it is face up; a card you do not play stays face "
        "up on it, and empty houses must be filled from it before you turn a hand card.",
    )
    take_from_opponent: bool = option(
        "V14",
        False,
        ON_OFF,
        "001 pp.8-9",
        "the top cards of your opponent's face-up reserve and of its waste are "
        "available to you: to a foundation (where they must go when they fit) or onto a "
        "house card (move sources OR and OW).",
    )
    waste_never_fills_spaces: bool = option(
        "V14",
        False,
        ON_OFF,
        "001 p.9",
        "no waste card, yours or your opponent's, may go into an empty house; reserve "
        "and hand cards may.",
    )
    house_loads_first: bool = option(
        "V14",
        False,
        ON_OFF,
        "001 p.9",
        "a house card may be loaded on your opponent only before you have played a "
        "card of your own (reserve, hand or waste) in the turn; those may load at any time.",
    )
    one_card_first: bool = option(
        "V14",
        False,
        ON_OFF,
        "001 p.15",
        "before the first card move of a turn you may turn only one card, from your "
        "hand (T) or your reserve (TR), not one of each, unless no card can be moved.",
    )
    compulsory_after_runs: bool = option(
        "V14",
        False,
        ON_OFF,
        "001 p.17",
        "once your waste has become your hand twice, a playable reserve card must be "
        "played before you turn, discard or end; three times, your playable turned card "
        "and waste top too (Stop! code S11).",
    )
    stalemate_scores_nothing: bool = option(
        "V14",
        False,
        ON_OFF,
        "001 p.16",
        "a stalemate, found by the engine or agreed, is a draw and scores nothing for "
        "either player.",
    )

    @property
    def houses(self) -> int:
        return self.seats * self.houses_per_seat

    @property
    def seat_names(self) -> str:
        return SEAT_NAMES[: self.seats]

    @property
    def priority_violations(self) -> frozenset[str]:
        """The Stop! codes of priority violations these rules can give (RULES.md §7)."""
        codes: set[str] = set()
        if self.foundations:  # none in Foster's one-pack game (G4)
            codes.add("S2")
            if self.reserve_size:
                codes.add("S1")
        if self.strict_release != RELEASE_OFF and self.foundations:
            codes.add("S8")
        if self.compulsory_loading:
            codes.add("S6")
        if self.reserve_to_house_compulsory and self.reserve_size:
            codes.add("S7")  # it covers P3 too: an empty house takes the reserve card
        elif self.reserve_size:
            codes.add("S3")
        if self.family == FOSTER_ONE_PACK and self.own_waste_available:
            codes.add("S3")  # G4: P3 with the waste
        if self.stock_face_down and self.reserve_size:
            codes.add("S3")  # V14: a space waits for a stock card still face down (not S7)
        if self.make_spaces and self.reserve_size:
            codes.add("S9")
        if self.uncover_compulsory and self.face_down_tableau:
            codes.add("S10")
        if self.compulsory_after_runs:
            codes.add("S11")
        return frozenset(codes)

    def to_document(self) -> str | dict[str, Any]:
        """The ``rules`` field of a position document: the preset name when unchanged,
        else the preset and the options that differ from it."""
        preset = PRESETS.get(self.preset)
        if preset == self:
            return self.preset
        base = asdict(preset) if preset is not None else {}
        changed = {k: v for k, v in asdict(self).items() if base.get(k) != v and k != "preset"}
        return {"preset": self.preset, **changed}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option as ``option()`` declared it."""

    name: str
    rule_id: str
    default: Any
    allowed: range | tuple[Any, ...]
    source: str
    description: str


#: Every option, in declaration order.
OPTIONS: Final = tuple(
    OptionSpec(f.name, default=f.default, **f.metadata)
    for f in fields(Rules)
    if "rule_id" in f.metadata
)


PRESETS: Final[dict[str, Rules]] = {
    "pagat": Rules(),
    "pagat-lenient": Rules(preset="pagat-lenient", lenient_turn=True),
    "pagat-own-waste": Rules(preset="pagat-own-waste", own_waste_available=True),
    "pagat-strict": Rules(
        preset="pagat-strict",
        strict_release=RELEASE_ON,
        compulsory_loading=True,
        make_spaces=True,
    ),
    "pagat-face-down": Rules(
        preset="pagat-face-down",
        strict_release=RELEASE_ON,
        compulsory_loading=True,
        make_spaces=True,
        face_down_tableau=1,
        uncover_compulsory=True,
    ),
    "one-pack": Rules(
        preset="one-pack",
        family=ONE_PACK,
        packs=1,
        seat_suits=("HC", "SD"),
        houses_per_seat=3,
        foundations=4,
        reserve_size=6,
    ),
    "foster-one-pack": Rules(
        preset="foster-one-pack",
        family=FOSTER_ONE_PACK,
        packs=1,
        foundations=0,
        reserve_size=0,
        houses_per_seat=4,
        starter=CUT_LOWER,
        own_waste_available=True,
        group_moves=True,
        houses_same_suit=True,
    ),
    "three-player": Rules(
        preset="three-player",
        family=THREE_PLAYER,
        seats=3,
        packs=2,
        reserve_size=8,
        houses_per_seat=3,
    ),
    "foster": Rules(
        preset="foster",
        family=FOSTER,
        reserve_size=12,
        starter=CUT_LOWER,
        own_waste_available=True,
        stock_face_down=True,
        take_from_opponent=True,
        waste_never_fills_spaces=True,
        house_loads_first=True,
        one_card_first=True,
        compulsory_after_runs=True,
        stalemate_scores_nothing=True,
    ),
    "wikipedia": Rules(
        preset="wikipedia",
        starter=CUT_HIGHER,
        reserve_to_house_compulsory=True,
        shuffle_waste=True,
    ),
}

#: One line per preset, for the pages that list them (the seed id is the source text).
PRESET_DESCRIPTIONS: Final[dict[str, str]] = {
    "pagat": "The modern standard game as pagat.com gives it, and the default (seed 000).",
    "pagat-lenient": (
        "The standard game with less strict priorities: a player may turn the hand card "
        "as the first action of a turn, before the compulsory moves (seed 000, variations)."
    ),
    "pagat-own-waste": (
        "The standard game, with the top card of each player's own waste available like a "
        "house card (seed 000, variations; Foster plays it too, seed 001)."
    ),
    "pagat-strict": (
        "The standard game with the three stricter priority rules: release a buried card "
        "that fits a foundation, load your opponent when nothing goes to a foundation, and "
        "make and fill every space you can before turning (seed 000, stricter rules)."
    ),
    "pagat-face-down": (
        "The stricter game with a face-down card under each house, turned up when it is "
        "uncovered; uncovering it, when possible, comes right after the foundation moves "
        "(seed 000, variant tableau)."
    ),
    "one-pack": (
        "The simplified game with a single pack: one player has the hearts and clubs, the "
        "other the spades and diamonds; three houses each, four foundations, a reserve of "
        "six and a hand of seventeen (seed 000, simplified variant)."
    ),
    "foster-one-pack": (
        "Foster's game with a single pack, rebuilt from his illustrative hand: 26 cards "
        "each, four houses each turned from the hand, no reserve and no foundations; "
        "houses are built in suit up or down, King next to Ace, and the first player "
        "to get rid of every card wins (seed 001)."
    ),
    "three-player": (
        "Three players, two packs and a joker shuffled together, 35 cards each: a reserve "
        "of eight, three houses and a hand of 24. The first house to be emptied leaves "
        "play; the joker is put aside when it shows (seed 000, three-player variant)."
    ),
    "foster": (
        "Foster's two-pack game of 1920: a stock of twelve cards dealt face down and turned "
        "up one at a time, a hand of 36, a cut for the start; the top cards of your own "
        "discard and of your opponent's stock and discard may be played; discards never "
        "fill spaces; house cards load your opponent only before you play a card of your "
        "own; after the third run through the hand every playable card must be played, "
        "and a stalemate is a draw (seed 001)."
    ),
    "wikipedia": (
        "The game as Wikipedia summarises it: a cut decides who starts (the higher card), "
        "a reserve card that fits a house must go there, and the waste is shuffled to form "
        "the new hand (seed 003)."
    ),
}

#: One line per option, for the pages that explain a game's rules: its rule id and what it does.
OPTION_DESCRIPTIONS: Final[dict[str, str]] = {
    spec.name: f"{spec.rule_id}: {spec.description}" for spec in OPTIONS
}

#: What each field may be set to in a document: integers from a range, or one of a
#: few values (booleans, names). Anything else is a malformed document.
_LIMITS: Final[dict[str, range | tuple[Any, ...]]] = {
    f.name: f.metadata["allowed"] for f in fields(Rules) if "allowed" in f.metadata
}


def _check_option(key: str, value: object) -> None:
    allowed = _LIMITS[key]
    if isinstance(allowed, range):
        if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
            raise BadPosition(
                f"rule option {key} must be an integer from {allowed.start} to {allowed.stop - 1}"
            )
        return
    kind = type(allowed[0])
    # bool is a subclass of int: compare types exactly, so True is not a reserve size.
    if type(value) is not kind or value not in allowed:
        if kind is bool:
            raise BadPosition(f"rule option {key} must be true or false")
        raise BadPosition(f"rule option {key} must be one of {', '.join(str(a) for a in allowed)}")


@dataclass(frozen=True, slots=True)
class Clash:
    """Options that a family's game cannot be played with: ``options`` set as ``when``
    says, under a preset of ``family``; ``name`` keys the reason, ``why`` words it."""

    name: str
    family: str
    options: tuple[str, ...]
    when: Callable[[Rules], bool]
    why: str


#: Which options combine: every option combines with every family and every other
#: option, except as these say. A document, a challenge or the command line asking for
#: one is refused with a ``RulesClash`` naming it (``rules_from_document``).
CLASHES: Final[tuple[Clash, ...]] = (
    Clash(
        "no_reserve",
        FOSTER_ONE_PACK,
        ("reserve_size",),
        lambda r: r.reserve_size != 0,
        "Foster's one-pack game has no reserve; each player's 26 cards are a hand, and "
        "its rules for loading and for filling spaces know no reserve card",
    ),
    Clash(
        "runs_in_colours",
        FOSTER_ONE_PACK,
        ("houses_same_suit", "group_moves"),
        lambda r: r.group_moves and not r.houses_same_suit,
        "with houses built up or down in alternating colours a run may hold a rank "
        "twice, so a group move such as H3-H5 would not say which cards move",
    ),
)


def clash(rules: Rules) -> Clash | None:
    """The first of ``CLASHES`` that ``rules`` fall into, or None."""
    for found in CLASHES:
        if rules.family == found.family and found.when(rules):
            return found
    return None


def rules_from_document(value: object) -> Rules:
    """Read a document's ``rules`` field: a preset name or ``{"preset": ..., options}``."""
    if value is None:
        return PRESETS["pagat"]
    if isinstance(value, str):
        options: dict[str, Any] = {"preset": value}
    elif isinstance(value, dict):
        options = dict(value)
        options.setdefault("preset", "pagat")
    else:
        raise BadPosition("rules must be a preset name or an object")
    name = options.pop("preset")
    if not isinstance(name, str) or name not in PRESETS:
        raise BadPosition(f"unknown rules preset {name!r} (known: {', '.join(PRESETS)})")
    unknown = set(options) - set(_LIMITS)
    if unknown:
        raise BadPosition(f"unknown rule options: {', '.join(sorted(map(str, unknown)))}")
    for key, val in options.items():
        _check_option(key, val)
    rules = replace(PRESETS[name], **options)
    found = clash(rules)
    if found is not None:
        settings = {option: getattr(rules, option) for option in found.options}
        raise RulesClash(
            f"the {name} rules do not combine with {options_text(settings)}: {found.why}",
            preset=name,
            settings=settings,
            name=found.name,
            why=found.why,
        )
    return rules


def options_text(settings: dict[str, Any]) -> str:
    """Options as a document writes them: ``houses_same_suit false and group_moves true``."""
    return " and ".join(
        f"{key} {str(value).lower() if isinstance(value, bool) else value}"
        for key, value in settings.items()
    )


def get_rules(name: str) -> Rules:
    return rules_from_document(name)
