"""What a player may choose when making a game: the presets and the options
(RULES.md §9), each with its description, default and allowed values."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.engine import OPTION_DESCRIPTIONS, PRESET_DESCRIPTIONS, PRESETS, RulesClash
from games.engine.rules import RELEASES, RESERVE_SIZES, STARTERS, options_text

#: Options whose values are not simply on or off.
_CHOICES: dict[str, tuple[Any, ...]] = {
    "starter": STARTERS,
    "reserve_size": RESERVE_SIZES,
    "strict_release": RELEASES,
    "face_down_tableau": (0, 1, 2),  # rows of face-down cards under the houses (V7)
}


#: The notes that tie a description to the rules reference and its sources: a
#: variant's id (``V14: ``) and a source in brackets (``(seed 000, variations)``).
_SOURCE_NOTES = re.compile(r"^V\d+: |\s*\([^()]*\bseeds? \d{3}\b[^()]*\)")


def in_plain_words(description: str) -> str:
    """A description as players read it on the pages: the source notes left out (the
    API keeps them, for the programs and the rules reference)."""
    plain = _SOURCE_NOTES.sub("", description)
    return plain[:1].upper() + plain[1:]


# The words of the engine (which knows nothing of Django) written out again, so that
# they can be translated. The engine's stays the English: a description changed there
# and not here is shown as the engine words it, untranslated (``_translated``).

#: Each preset's name as the pages' menus show it; its id (``pagat``), which the API
#: and the notation take, is shown beside it where the rules are explained.
PRESET_NAMES: dict[str, Promise] = {
    "pagat": pgettext_lazy("rules preset", "Standard (pagat.com)"),
    "pagat-lenient": pgettext_lazy("rules preset", "Standard, lenient turn"),
    "pagat-own-waste": pgettext_lazy("rules preset", "Standard, own waste in play"),
    "pagat-strict": pgettext_lazy("rules preset", "Standard, strict priorities"),
    "pagat-face-down": pgettext_lazy("rules preset", "Standard, face-down house cards"),
    "one-pack": pgettext_lazy("rules preset", "One pack"),
    "foster-one-pack": pgettext_lazy("rules preset", "Foster's one-pack game"),
    "three-player": pgettext_lazy("rules preset", "Three players"),
    "foster": pgettext_lazy("rules preset", "Foster's two-pack game (1920)"),
    "wikipedia": pgettext_lazy("rules preset", "Wikipedia's summary"),
}


def preset_name(name: str) -> str:
    """A preset's name in the active language: ``Standard (pagat.com)`` for ``pagat``."""
    return str(PRESET_NAMES.get(name, name))


def option_label(name: str) -> str:
    """An option's short name in the active language: ``Lenient turn``."""
    return str(OPTION_LABELS.get(name, name.replace("_", " ").capitalize()))


def preset_choices() -> list[tuple[str, Promise | str]]:
    """The presets for a menu: (id, name), the standard game first. The names are lazy,
    so a form made once at import is read in each request's language."""
    return [
        (preset["name"], PRESET_NAMES.get(preset["name"], preset["name"])) for preset in presets()
    ]


#: What each preset is, in the words the pages show (``presets_in_plain_words``).
PRESETS_IN_PLAIN_WORDS: dict[str, Promise] = {
    "pagat": gettext_lazy("The modern standard game as pagat.com gives it, and the default."),
    "foster": gettext_lazy(
        "Foster's two-pack game of 1920: a stock of twelve cards dealt face down and "
        "turned up one at a time, a hand of 36, a cut for the start; the top cards of "
        "your own discard and of your opponent's stock and discard may be played; "
        "discards never fill spaces; house cards load your opponent only before you play "
        "a card of your own; after the third run through the hand every playable card "
        "must be played, and a stalemate is a draw."
    ),
    "foster-one-pack": gettext_lazy(
        "Foster's game with a single pack, rebuilt from his illustrative hand: 26 cards "
        "each, four houses each turned from the hand, no reserve and no foundations; "
        "houses are built in suit up or down, King next to Ace, and the first player to "
        "get rid of every card wins."
    ),
    "one-pack": gettext_lazy(
        "The simplified game with a single pack: one player has the hearts and clubs, the"
        " other the spades and diamonds; three houses each, four foundations, a reserve "
        "of six and a hand of seventeen."
    ),
    "pagat-face-down": gettext_lazy(
        "The stricter game with a face-down card under each house, turned up when it is "
        "uncovered; uncovering it, when possible, comes right after the foundation moves."
    ),
    "pagat-lenient": gettext_lazy(
        "The standard game with less strict priorities: a player may turn the hand card "
        "as the first action of a turn, before the compulsory moves."
    ),
    "pagat-own-waste": gettext_lazy(
        "The standard game, with the top card of each player's own waste available like a"
        " house card."
    ),
    "pagat-strict": gettext_lazy(
        "The standard game with the three stricter priority rules: release a buried card "
        "that fits a foundation, load your opponent when nothing goes to a foundation, "
        "and make and fill every space you can before turning."
    ),
    "three-player": gettext_lazy(
        "Three players, two packs and a joker shuffled together, 35 cards each: a reserve"
        " of eight, three houses and a hand of 24. The first house to be emptied leaves "
        "play; the joker is put aside when it shows."
    ),
    "wikipedia": gettext_lazy(
        "The game as Wikipedia summarises it: a cut decides who starts (the higher card),"
        " a reserve card that fits a house must go there, and the waste is shuffled to "
        "form the new hand."
    ),
}

#: Each option's short name on the new-game form (``Option.label``).
OPTION_LABELS: dict[str, Promise] = {
    "own_waste_available": pgettext_lazy("rule option", "Own waste available"),
    "reserve_size": pgettext_lazy("rule option", "Reserve size"),
    "starter": pgettext_lazy("rule option", "Starter"),
    "strict_release": pgettext_lazy("rule option", "Strict release"),
    "compulsory_loading": pgettext_lazy("rule option", "Compulsory loading"),
    "make_spaces": pgettext_lazy("rule option", "Make spaces"),
    "face_down_tableau": pgettext_lazy("rule option", "Face down tableau"),
    "uncover_compulsory": pgettext_lazy("rule option", "Uncover compulsory"),
    "reserve_face_down": pgettext_lazy("rule option", "Reserve face down"),
    "lenient_turn": pgettext_lazy("rule option", "Lenient turn"),
    "group_moves": pgettext_lazy("rule option", "Group moves"),
    "houses_same_suit": pgettext_lazy("rule option", "Houses same suit"),
    "reserve_to_house_compulsory": pgettext_lazy("rule option", "Reserve to house compulsory"),
    "shuffle_waste": pgettext_lazy("rule option", "Shuffle waste"),
    "stock_face_down": pgettext_lazy("rule option", "Stock face down"),
    "take_from_opponent": pgettext_lazy("rule option", "Take from opponent"),
    "waste_never_fills_spaces": pgettext_lazy("rule option", "Waste never fills spaces"),
    "house_loads_first": pgettext_lazy("rule option", "House loads first"),
    "one_card_first": pgettext_lazy("rule option", "One card first"),
    "compulsory_after_runs": pgettext_lazy("rule option", "Compulsory after runs"),
    "stalemate_scores_nothing": pgettext_lazy("rule option", "Stalemate scores nothing"),
}

#: What each option does, in the words the pages show (``Option.help``).
OPTIONS_IN_PLAIN_WORDS: dict[str, Promise] = {
    "own_waste_available": gettext_lazy(
        "The top card of your own waste is available: it must go to a foundation when it "
        "fits, and it may be built on a house or loaded on your opponent (move source W)."
    ),
    "reserve_size": gettext_lazy(
        "Each reserve is dealt with 11, 12 or 13 cards; the hand takes the rest."
    ),
    "starter": gettext_lazy(
        "Who starts: the lower reserve card (standard), the higher reserve card (ace "
        "high, then spades, hearts, diamonds, clubs), a cut for the lower or the higher "
        "card, the houses alone, or, in a match, the seats in turn."
    ),
    "strict_release": gettext_lazy(
        "When nothing can go to a foundation but a card buried in a house could, the "
        "cards covering it must be moved off so that it can go up, whenever they can all "
        "be moved (Stop! code S8); a stricter form asks for the fewest moves that do it."
    ),
    "compulsory_loading": gettext_lazy(
        "When nothing can go to a foundation, a card that can be loaded on your "
        "opponent's reserve or waste must be loaded before any other move, turn or "
        "discard (Stop! code S6)."
    ),
    "make_spaces": gettext_lazy(
        "Before turning your hand card, make every space you can by moving house cards "
        "elsewhere, and fill each from your reserve (Stop! code S9)."
    ),
    "face_down_tableau": gettext_lazy(
        "One or two rows of face-down cards are dealt under the houses; a face-down card "
        "is turned up as soon as the cards on it have gone, and the hand is smaller."
    ),
    "uncover_compulsory": gettext_lazy(
        "When nothing can go to a foundation, the cards lying on a face-down house card "
        "must be moved off it whenever they all can be (Stop! code S10)."
    ),
    "reserve_face_down": gettext_lazy(
        "The whole reserve is dealt face down; at your first turn the house cards that "
        "fit a foundation go there first, then your reserve card is turned up."
    ),
    "lenient_turn": gettext_lazy(
        "You may turn your hand card as the very first action of your turn, even while a "
        "compulsory move waits or a house is empty; the compulsory moves then follow."
    ),
    "group_moves": gettext_lazy(
        "A run of house cards in sequence moves as a group onto a house whose top card "
        "takes its lowest card; the cards above a moved card always go with it."
    ),
    "houses_same_suit": gettext_lazy(
        "Houses are built down in the same suit (a 7 of hearts on the 8 of hearts) "
        "instead of in alternating colours, as in older descriptions of the game."
    ),
    "reserve_to_house_compulsory": gettext_lazy(
        "When your reserve card fits a house (an empty one included) it must go there "
        "before any other move that is not to a foundation, and before turning or "
        "discarding (Stop! code S7)."
    ),
    "shuffle_waste": gettext_lazy(
        "When your hand is used up, your waste is shuffled as it becomes your new hand, "
        "instead of being turned over in order."
    ),
    "stock_face_down": gettext_lazy(
        "The whole reserve is dealt face down and nothing turns up by itself: you turn "
        "its top card with TR when none of it is face up; a card you do not play stays "
        "face up on it, and empty houses must be filled from it before you turn a hand "
        "card."
    ),
    "take_from_opponent": gettext_lazy(
        "The top cards of your opponent's face-up reserve and of its waste are available "
        "to you: to a foundation (where they must go when they fit) or onto a house card "
        "(move sources OR and OW)."
    ),
    "waste_never_fills_spaces": gettext_lazy(
        "No waste card, yours or your opponent's, may go into an empty house; reserve and"
        " hand cards may."
    ),
    "house_loads_first": gettext_lazy(
        "A house card may be loaded on your opponent only before you have played a card "
        "of your own (reserve, hand or waste) in the turn; those may load at any time."
    ),
    "one_card_first": gettext_lazy(
        "Before the first card move of a turn you may turn only one card, from your hand "
        "(T) or your reserve (TR), not one of each, unless no card can be moved."
    ),
    "compulsory_after_runs": gettext_lazy(
        "Once your waste has become your hand twice, a playable reserve card must be "
        "played before you turn, discard or end; three times, your playable turned card "
        "and waste top too (Stop! code S11)."
    ),
    "stalemate_scores_nothing": gettext_lazy(
        "A stalemate, found by the engine or agreed, is a draw and scores nothing for "
        "either player."
    ),
}


#: Why options do not combine with a preset (``rules.CLASHES``, by name), in the words
#: the pages and the API show.
CLASH_REASONS: dict[str, Promise] = {
    "no_reserve": gettext_lazy(
        "Foster's one-pack game has no reserve; each player's 26 cards are a hand, and its "
        "rules for loading and for filling spaces know no reserve card"
    ),
    "runs_in_colours": gettext_lazy(
        "with houses built up or down in alternating colours a run may hold a rank twice, "
        "so a group move such as H3-H5 would not say which cards move"
    ),
}


def clash_message(clash: RulesClash) -> str:
    """Why the options asked for do not combine with the preset, in the active language,
    naming the preset and the options as the API takes them."""
    why = CLASH_REASONS.get(clash.name)
    return gettext("the %(rules)s rules do not combine with %(options)s: %(why)s") % {
        "rules": clash.preset,
        "options": options_text(clash.settings),
        "why": clash.why if why is None else str(why),
    }


_MARKED: dict[str, dict[str, Promise]] = {
    "preset": PRESETS_IN_PLAIN_WORDS,
    "option": OPTIONS_IN_PLAIN_WORDS,
}


@cache
def _still_reads(kind: str, key: str, english: str) -> bool:
    """Whether the marked text for ``key`` is, in English, ``english``."""
    marked = _MARKED[kind].get(key)
    if marked is None:
        return False
    with translation.override(None):  # no language: the text as marked, untranslated
        return str(marked) == english


def _translated(kind: str, key: str, english: str) -> str:
    """``english`` (the engine's words) in the active language, when it is marked."""
    return str(_MARKED[kind][key]) if _still_reads(kind, key, english) else english


@dataclass(frozen=True)
class Option:
    name: str
    description: str
    default: Any
    values: tuple[Any, ...]

    @property
    def is_switch(self) -> bool:
        return self.values == (False, True)

    @property
    def label(self) -> str:
        """A short name for a form: ``Own waste available``."""
        return option_label(self.name)

    @property
    def help(self) -> str:
        return _translated("option", self.name, in_plain_words(self.description))


def options() -> list[Option]:
    """Every option a player may change, as the standard game (pagat) sets it."""
    standard = asdict(PRESETS["pagat"])
    return [
        Option(
            name,
            description,
            standard[name],
            _CHOICES.get(name, (False, True) if isinstance(standard[name], bool) else ()),
        )
        for name, description in OPTION_DESCRIPTIONS.items()
    ]


def presets_in_plain_words() -> list[dict[str, str]]:
    """Every preset's id, name and description as the pages show them (``in_plain_words``)."""
    return [
        {
            "name": preset["name"],
            "label": preset_name(preset["name"]),
            "description": _translated(
                "preset", preset["name"], in_plain_words(preset["description"])
            ),
        }
        for preset in presets()
    ]


def presets() -> list[dict[str, Any]]:
    """Every preset with its description and the options it changes from pagat."""
    standard = asdict(PRESETS["pagat"])
    choosable = set(OPTION_DESCRIPTIONS)
    return [
        {
            "name": name,
            "description": PRESET_DESCRIPTIONS.get(name, ""),
            "options": {
                key: value
                for key, value in asdict(PRESETS[name]).items()
                if key in choosable and standard.get(key) != value
            },
        }
        for name in sorted(PRESETS, key=lambda n: (n != "pagat", n))
    ]


def rules_label(preset: str, options: dict[str, Any]) -> str:
    """The rules in a few words, in the active language: ``Standard (pagat.com)``, or
    ``Standard (pagat.com) + Lenient turn, Reserve size 12`` (options in the order of
    their ids)."""
    changes = [
        option_label(option) + ("" if value is True else f" {value}")
        for option, value in sorted(options.items())  # PostgreSQL's jsonb reorders keys
        if value is not False
    ]
    return preset_name(preset) + (" + " + ", ".join(changes) if changes else "")
