"""The Russian Bank rules engine: pure Python, no I/O, no Django.

>>> from games.engine import deal
>>> position = deal(42)
>>> moves = position.legal_moves()
>>> position.push(moves[0])
"""

from .cards import Card, card_label, card_name, card_words, parse_card
from .deal import deal, new_seed, seed_commitment
from .document import dumps, from_document, loads, to_document
from .errors import BadNotation, BadPosition, IllegalMove, Refusal, RulesError, WrongStop
from .families import FAMILIES, Family, family_of, position_class
from .match import Match, alternating_starter, match_totals
from .moves import Move, parse_move
from .position import (
    BY_AGREEMENT,
    BY_RESIGNATION,
    BY_TIMEOUT,
    PLAYING,
    STALEMATE,
    WON,
    Position,
    SeatPiles,
)
from .replay import replay
from .rules import OPTION_DESCRIPTIONS, OPTIONS, PRESET_DESCRIPTIONS, PRESETS, Rules, get_rules
from .stop import call_stop, compulsory_moves, turn_violations
from .views import view

__all__ = [
    "BY_AGREEMENT",
    "BY_RESIGNATION",
    "BY_TIMEOUT",
    "FAMILIES",
    "OPTIONS",
    "OPTION_DESCRIPTIONS",
    "PLAYING",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "STALEMATE",
    "WON",
    "BadNotation",
    "BadPosition",
    "Card",
    "Family",
    "IllegalMove",
    "Match",
    "Move",
    "Position",
    "Refusal",
    "Rules",
    "RulesError",
    "SeatPiles",
    "WrongStop",
    "alternating_starter",
    "call_stop",
    "card_label",
    "card_name",
    "card_words",
    "compulsory_moves",
    "deal",
    "dumps",
    "family_of",
    "from_document",
    "get_rules",
    "loads",
    "match_totals",
    "new_seed",
    "parse_card",
    "parse_move",
    "position_class",
    "replay",
    "seed_commitment",
    "to_document",
    "turn_violations",
    "view",
]
