"""The words players read: one English catalogue for every refusal the engine gives.

The rules core never writes a sentence. A refusal is a value: its code (``S4``,
``NO_CARDS``...), a *reason* (a key of ``MESSAGES``) and its parameters, plain
data a program can read (``{"card": "7C", "top": "8S"}``). This module turns
them into English; a translated catalogue with the same keys gives another
language (``render(..., catalogue=...)``), and the codes never change. Cards are
shown with the English corner letters (``K♠``) unless the caller gives its own
(``render(..., card=...)``: the pages' letters, French ``R♠``).

Parameters are notation: cards by their two-character names, piles by theirs
(``H3``, ``F1``). A few parameters name another entry of the catalogue (an
``action``, a ``why``...), rendered with the same parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from .cards import card_label, parse_card

#: Parameters that hold a card's notation name: shown as ``7♣``.
CARD_PARAMS: Final = frozenset({"card", "top", "moving"})
#: Parameters that hold the key of another catalogue entry.
PHRASE_PARAMS: Final = frozenset({"action", "why", "source", "what", "how", "covering", "pile"})

MESSAGES: Final[dict[str, str]] = {
    # --- whose turn, and the end of the game
    "game_over": "the game is over",
    "not_your_turn": "it is your opponent's turn",
    # --- turning, discarding and ending a turn
    "already_turned": "you already have a turned card, the {card}: play it or discard it (C-W) "
    "first",
    "nothing_to_turn": "you have no hand or waste cards to turn: end your turn with E",
    "cannot_end": "you can end a turn with E only when you have no hand, waste or turned card; "
    "otherwise turn a card (T) and discard (C-W)",
    "cannot_end_stock": "your reserve still has face-down cards: turn its top card with TR",
    "no_turned_card": "you have no turned card to discard",
    "turn_too_long": "this turn already has {max} moves: only foundation moves, filling a space "
    "from the reserve, T, C-W and E are allowed now",
    # --- V14: turning the stock (TR) and one card first
    "no_stock": "in these rules no reserve card is turned by hand: TR is for a reserve dealt "
    "face down as a stock",
    "stock_after_hand_card": "you have a turned hand card, the {card}: play it or discard it "
    "(C-W) before turning a reserve card",
    "stock_top_up": "the top card of your reserve, the {card}, is face up: the next one can be "
    "turned only after it has gone",
    "stock_empty": "your reserve has no face-down card left to turn",
    "one_card_first": "you may not {action} now: you have turned a card this turn and no card "
    "has moved since the turn began; in these rules only one card, from the hand or the "
    "reserve, is turned before the first card move (unless no other card can move)",
    # --- S5: the card is not available
    "stock_top_down": "the top card of your reserve is face down: turn it up with TR first",
    "reserve_down": "your reserve is still face down: it is turned up once no house card can go "
    "to a foundation",
    "reserve_empty": "your reserve is empty",
    "no_turned_card_to_play": "you have no turned card: turn one with T first",
    "house_empty": "{house} is empty",
    "opponent_stock_down": "the top card of your opponent's reserve is face down",
    "opponent_pile_empty": "your opponent's {pile} is empty",
    "waste_empty": "your waste is empty",
    "foundation_source": "cards on a foundation never move again",
    "own_waste_source": "the cards of your own waste are not available; only your turned card is",
    "opponent_reserve_source": "you may not take cards from your opponent's reserve",
    "opponent_waste_source": "you may not take cards from your opponent's waste",
    "house_closed": "{house} holds a whole suit: it is closed",
    # --- S4: the card may not go there
    "taken_card_target": "the {card} from your opponent's {pile} may go only to a foundation or "
    "onto a house card",
    "borrowed_card_target": "the {card} from your opponent's waste may only be built on a house, "
    "not put anywhere else",
    "foundation_needs_ace": "the {card} cannot start {foundation}: an empty foundation takes "
    "only an ace",
    "foundation_complete": "{foundation} is complete: nothing goes on a king",
    "foundation_sequence": "the {card} cannot go on the {top} on {foundation}: foundations are "
    "built up in suit, one rank at a time",
    "same_house": "the {card} is already on {house}",
    "house_retired": "{house} has left play: it was the first house emptied",
    "waste_to_space": "the {card} comes from your waste, and in these rules a waste card never "
    "goes into an empty house",
    "house_sequence": "the {card} cannot go on the {top}: {why}",
    "load_source": "the {card} may not load your opponent: in this game only your turned card "
    "or the top card of your waste may",
    "late_house_load": "the {card} is a house card, and in these rules a house card may load "
    "your opponent only before you play a card of your own in the turn",
    "load_face_down": "your opponent's reserve is still face down and cannot be loaded",
    "load_empty": "your opponent's {pile} is empty, and an empty pile cannot be loaded",
    "load_sequence": "the {card} cannot load your opponent's {pile} (top card {top}): loading "
    "takes the same suit, one rank higher or lower",
    "waste_target": "only your turned card may go on your own waste, and that ends your turn",
    "reserve_target": "you may not put a card on your own reserve",
    "turned_target": "a card cannot be put on the turned card",
    # --- the priorities: S1, S2, S3 (P1-P3) and the options' compulsory moves
    "reserve_to_foundation": "you may not {action} now: your reserve card, the {card}, fits on "
    "{foundation} and must go there before anything else",
    "turned_to_foundation": "you may not {action} now: your turned card, the {card} fits on "
    "{foundation}, and foundation moves come first",
    "pile_to_foundation": "you may not {action} now: the {card} on {source_pile} fits on "
    "{foundation}, and foundation moves come first",
    "fill_spaces": "{house} is empty: fill the empty houses from {source} before turning a hand "
    "card",
    "release_buried": "you may not {action} now: the {card} in {house} fits on a foundation, and "
    "the {covering} covering it can be moved off; in these rules it must be released {how}",
    "load_first": "you may not {action} now: the {card} can be loaded on your opponent's {pile}, "
    "and in these rules loading comes first when nothing can go to a foundation",
    "reserve_to_house": "you may not {action} now: your reserve card, the {card}, fits on "
    "{house}, and in these rules it must go to a house before any other move that is not to a "
    "foundation",
    "uncover_first": "you may not {action} now: the cards on the face-down card of {house} can "
    "all be moved off, and in these rules uncovering it comes next after the foundation moves",
    "play_after_runs": "you may not {action} now: {what}, the {card}, can be played "
    "({compulsory}); "
    "your waste has become your hand {runs} times, and in these rules every playable card of "
    "yours must then be played",
    "make_spaces": "you may not turn a hand card now: the cards of {house} can all be moved "
    "elsewhere, and in these rules you must make every space you can, and fill it from your "
    "reserve, before turning",
    # --- the notation
    "no_such_pile": "there is no pile {name}: piles are numbered 1 to {count}",
    "no_such_opponent_pile": "there is no opponent's pile {name}",
    "not_a_pile": "{name!r} is not a pile (F1-F{foundations}, H1-H{houses}, R, W, C, OR, OW)",
    "not_a_move_shape": "{text!r} is not a move: write SOURCE-DESTINATION (e.g. R-F3), T, TR or E",
    "not_a_move": "{text!r} is not a move",
    # --- Stop! (R7.4, R7.5)
    "no_such_move_number": "the turn has no move number {number}",
    "clean_move": "move {number} ({move}) broke no rule",
    "not_compulsory": "{move} is not one of the compulsory moves here",
    "stop_not_in_play": "this game is refereed: every illegal move was refused already",
    "stop_not_your_turn": "Stop! is called at the start of your turn, before your move",
    "stop_too_late": "too late: Stop! must be called before your first move",
    "nothing_to_stop": "your opponent has no turn you can stop",
    "already_stopped": "you have already stopped that turn",
    "no_such_move": "your opponent's last turn has moves 1 to {moves}",
    "wrong_stop": "move {move_number} ({move}) broke no rule (wrong call number {wrong_calls}; "
    "{left} more and you lose a turn)",
    "wrong_stop_turn_lost": "move {move_number} ({move}) broke no rule: that is wrong call "
    "number {wrong_calls}, and it costs you this turn",
    # --- the game's actions (game.Game)
    "not_a_seat": "there is no seat {seat}",
    "bad_stop_mode": "the Stop! mode is referee or classic, not {mode!r}",
    "game_not_over": "the record is revealed when the game ends",
    "no_moves": "send at least one move",
    "someone_elses_turn": "it is {to_move}'s turn",
    "turn_ended": "your turn ended before this move",
    "already_offered": "you have already agreed to a stalemate",
    "offer_pending": "{offerer} has offered a stalemate: accept or decline it",
    "no_offer": "no stalemate offer awaits your answer",
    # --- phrases: what the player tried, and the parts of longer sentences
    "turn_hand_card": "turn a hand card",
    "turn_reserve_card": "turn a reserve card",
    "end_turn": "end your turn",
    "discard": "discard",
    "move_card": "move the {moving}",
    "play_card": "play the {moving}",
    "reserve": "reserve",
    "waste": "waste",
    "your_reserve": "your reserve",
    "your_stock": "your reserve (turn its top card with TR)",
    "your_waste_top": "the top of your waste",
    "your_reserve_card": "your reserve card",
    "your_turned_card": "your turned card",
    "your_waste_card": "your waste's top",
    "one_card": "card",
    "some_cards": "{above} cards",
    "first": "first",
    "in_fewest_moves": "in the fewest moves",
    "in_suit_both_ways": "in this game houses are built in suit, one rank up or down",
    "in_suit_down": "in these rules houses are built down in the same suit, one rank at a time",
    "alternating_colours": "houses are built down in alternating colours",
    "one_rank_down": "houses are built down one rank at a time",
    "alternating_one_rank": "houses are built down in alternating colours, one rank at a time",
}


def english_card(name: str) -> str:
    """A card's notation name as the English catalogue shows it: ``7C`` -> ``7♣``."""
    return card_label(parse_card(name))


def render(
    reason: str,
    params: Mapping[str, object],
    catalogue: Mapping[str, str] = MESSAGES,
    card: Callable[[str], str] = english_card,
) -> str:
    """The sentence for ``reason`` with ``params``, from ``catalogue``, each card shown
    by ``card`` (from its notation name). A phrase is made from the plain parameters
    (phrases do not nest)."""
    plain: dict[str, object] = {}
    phrases: dict[str, str] = {}
    for name, value in params.items():
        if name in PHRASE_PARAMS and isinstance(value, str):
            phrases[name] = value
        elif name in CARD_PARAMS and isinstance(value, str):
            plain[name] = card(value)
        else:
            plain[name] = value
    words = {name: catalogue[key].format(**plain) for name, key in phrases.items()}
    return catalogue[reason].format(**plain, **words)
