"""The rules object: the layout and the options a game is played with.

Everything that differs between the rule families of RULES.md §9 is a field
here, read by the engine where the rule applies. A preset is a named ``Rules``
value. Only the standard game (preset ``pagat``, RULES.md §1-8) exists so far;
the options V1-V14 and the separate games G2-G4 become fields and presets.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Final

from .errors import BadPosition

SEAT_NAMES: Final = "ABC"


@dataclass(frozen=True, slots=True)
class Rules:
    """How a game is laid out and played. Immutable; compare and hash by value."""

    preset: str = "pagat"
    #: Number of seats (R1.1). Three-seat layouts are representable (G3).
    seats: int = 2
    #: Cards in each seat's reserve at the deal (R2.2; V2 allows 11 or 12).
    reserve_size: int = 13
    #: Houses dealt by each seat (R2.3): seat s deals houses s*n .. s*n+n-1.
    houses_per_seat: int = 4
    #: Foundations in the middle (R1.3): four per pack.
    foundations: int = 8
    #: R7.6: moves per turn before only foundation moves, T, C-W and E remain.
    max_turn_moves: int = 500
    #: R8.4 backstop: a game reaching this many turns ends in stalemate.
    max_turns: int = 2000
    #: R8.2 and R8.6.
    win_bonus: int = 30
    forfeit_penalty: int = 20
    #: R8.7 default match target.
    match_target: int = 300

    @property
    def houses(self) -> int:
        return self.seats * self.houses_per_seat

    @property
    def seat_names(self) -> str:
        return SEAT_NAMES[: self.seats]

    def to_document(self) -> str | dict[str, Any]:
        """The ``rules`` field of a position document: the preset name when unchanged."""
        preset = PRESETS.get(self.preset)
        if preset == self:
            return self.preset
        base = asdict(preset) if preset is not None else {}
        changed = {k: v for k, v in asdict(self).items() if base.get(k) != v and k != "preset"}
        return {"preset": self.preset, **changed}


PRESETS: Final[dict[str, Rules]] = {
    "pagat": Rules(),
}

#: The range each numeric option may take; anything else is a malformed document.
_LIMITS: Final[dict[str, range]] = {
    "seats": range(2, 4),
    "reserve_size": range(0, 53),
    "houses_per_seat": range(1, 7),
    "foundations": range(1, 13),
    "max_turn_moves": range(1, 100_001),
    "max_turns": range(1, 1_000_001),
    "win_bonus": range(0, 1001),
    "forfeit_penalty": range(0, 1001),
    "match_target": range(1, 100_001),
}


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
        allowed = _LIMITS[key]
        if not isinstance(val, int) or isinstance(val, bool) or val not in allowed:
            raise BadPosition(
                f"rule option {key} must be an integer from {allowed.start} to {allowed.stop - 1}"
            )
    return replace(PRESETS[name], **options)


def get_rules(name: str) -> Rules:
    return rules_from_document(name)
