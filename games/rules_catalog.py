"""What a player may choose when making a game: the presets and the options
(RULES.md §9), each with its description, default and allowed values."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from games.engine import OPTION_DESCRIPTIONS, PRESET_DESCRIPTIONS, PRESETS
from games.engine.rules import RELEASES, RESERVE_SIZES, STARTERS

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
        return self.name.replace("_", " ").capitalize()

    @property
    def help(self) -> str:
        return in_plain_words(self.description)


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
    """Every preset's name and description as the pages show them (``in_plain_words``)."""
    return [
        {"name": preset["name"], "description": in_plain_words(preset["description"])}
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
