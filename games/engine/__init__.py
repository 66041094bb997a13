"""The Russian Bank rules engine: pure Python, no I/O, no Django.

>>> from games.engine import deal
>>> position = deal(42)
>>> moves = position.legal_moves()
>>> position.push(moves[0])
"""

from .cards import Card, card_label, card_name, card_words, parse_card
from .deal import deal, new_seed, seed_commitment
from .document import dumps, from_document, loads, to_document
from .encoding import decode, encode
from .errors import (
    BadNotation,
    BadPosition,
    GameError,
    IllegalMove,
    MoveRefused,
    Refusal,
    RulesClash,
    RulesError,
    WrongCallError,
    WrongStop,
)
from .families import FAMILIES, Family, family_of, position_class
from .game import Game
from .game_state import Turn
from .match import Match, alternating_starter, match_totals
from .moves import TEXT_PATTERN, Move, parse_move
from .piles import LARGEST_LAYOUT, Layout, moved_piles, reads_as_move, seat_pile_names
from .position import (
    BY_AGREEMENT,
    BY_CARDS,
    BY_RESIGNATION,
    BY_STALEMATE,
    BY_TIMEOUT,
    BY_TURN_LIMIT,
    PLAYING,
    STALEMATE,
    WON,
    Position,
    SeatPiles,
)
from .record import (
    CLASSIC,
    REFEREE,
    AgreeStalemate,
    BadRecord,
    DeclineStalemate,
    Entry,
    LostTurn,
    MoveEntry,
    OfferStalemate,
    Record,
    Resign,
    StopCall,
    Timeout,
    WrongCall,
    parse_entry,
    public,
)
from .replay import replay
from .rules import OPTION_DESCRIPTIONS, OPTIONS, PRESET_DESCRIPTIONS, PRESETS, Rules, get_rules
from .stop import call_stop, compulsory_moves, turn_violations
from .views import revealed_view, view

__all__ = [
    "BY_AGREEMENT",
    "BY_CARDS",
    "BY_RESIGNATION",
    "BY_STALEMATE",
    "BY_TIMEOUT",
    "BY_TURN_LIMIT",
    "CLASSIC",
    "FAMILIES",
    "LARGEST_LAYOUT",
    "OPTIONS",
    "OPTION_DESCRIPTIONS",
    "PLAYING",
    "PRESETS",
    "PRESET_DESCRIPTIONS",
    "REFEREE",
    "STALEMATE",
    "TEXT_PATTERN",
    "WON",
    "AgreeStalemate",
    "BadNotation",
    "BadPosition",
    "BadRecord",
    "Card",
    "DeclineStalemate",
    "Entry",
    "Family",
    "Game",
    "GameError",
    "IllegalMove",
    "Layout",
    "LostTurn",
    "Match",
    "Move",
    "MoveEntry",
    "MoveRefused",
    "OfferStalemate",
    "Position",
    "Record",
    "Refusal",
    "Resign",
    "Rules",
    "RulesClash",
    "RulesError",
    "SeatPiles",
    "StopCall",
    "Timeout",
    "Turn",
    "WrongCall",
    "WrongCallError",
    "WrongStop",
    "alternating_starter",
    "call_stop",
    "card_label",
    "card_name",
    "card_words",
    "compulsory_moves",
    "deal",
    "decode",
    "dumps",
    "encode",
    "family_of",
    "from_document",
    "get_rules",
    "loads",
    "match_totals",
    "moved_piles",
    "new_seed",
    "parse_card",
    "parse_entry",
    "parse_move",
    "position_class",
    "public",
    "reads_as_move",
    "replay",
    "revealed_view",
    "seat_pile_names",
    "seed_commitment",
    "to_document",
    "turn_violations",
    "view",
]
