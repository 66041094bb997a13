"""What a player may choose when making a game: the presets and the options
(RULES.md §9), each with its description, default and allowed values."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.engine import OPTION_DESCRIPTIONS, OPTIONS, PRESET_DESCRIPTIONS, PRESETS, RulesClash
from games.engine.rules import options_text
from games.words.engine_messages import rule_words

# The descriptions are the engine's (which knows nothing of Django), in plain words and
# translated by ``games.words.engine_messages.rule_words``; the names are the site's.

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
        """What it does, in plain words and the active language."""
        return rule_words(self.description)


def options() -> list[Option]:
    """Every option a player may change, as the standard game (pagat) sets it, with the
    values the engine declares for it (``games.engine.OPTIONS``)."""
    standard = asdict(PRESETS["pagat"])
    return [
        Option(spec.name, OPTION_DESCRIPTIONS[spec.name], standard[spec.name], tuple(spec.allowed))
        for spec in OPTIONS
    ]


def presets_in_plain_words() -> list[dict[str, str]]:
    """Every preset's id, name and description as the pages show them (``rule_words``)."""
    return [
        {
            "name": preset["name"],
            "label": preset_name(preset["name"]),
            "description": rule_words(preset["description"]),
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
