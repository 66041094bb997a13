"""The Stop! machinery (R7.1-R7.3, R7.5): which moves of a turn were violations, and the
position after the opponent calls Stop! on one of them.

Turns are replayed from their starting position in the classic mode, where priority
violations (S1-S3, and S6-S11 under the options V4-V7, V12 and V14) are accepted and
recorded. ``stop_verdict`` is the one place that judges a call; ``game.Game`` keeps the
call window (R7.4) and the count of wrong calls (R7.5) around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .errors import PRIORITY_VIOLATIONS, IllegalMove, WrongStop
from .moves import CARD, HOUSE, OPP_RESERVE, OPP_WASTE, RESERVE, Move
from .position import Position

#: R7.5: every this many wrong calls by a seat cost it the turn it was about to play.
WRONG_CALLS_PER_LOST_TURN: Final = 3


def turn_violations(start: Position, moves: Sequence[Move]) -> list[str | None]:
    """The violation code each move of a turn committed (None for a clean move).

    ``start`` is the position before the first move. S4/S5 moves cannot be
    accepted at all and raise ``IllegalMove``.
    """
    position = start.copy()
    return [position.push(move, classic=True) for move in moves]


def compulsory_moves(position: Position, violation: str, offending: Move) -> list[Move]:
    """The moves the offender omitted (R7.2), best first: the caller may choose among them."""
    if violation == "S3":
        # V14: with the stock's top card face down there is none: the turn just passes
        # (Foster p.7: he is stopped, and his opponent plays).
        return [
            m
            for m in position.legal_moves()
            if m.src == RESERVE and m.dst == HOUSE and not position.houses[m.di]
        ]
    if violation == "S11":  # V14: the card that had to be played, where the caller says
        return position.run_moves()
    if violation == "S6":  # V5: the loads, the offending card's own first (as R7.3)
        moves = [m for m in position.legal_moves() if m.dst in (OPP_RESERVE, OPP_WASTE)]
        return _same_source_first(moves, offending)
    if violation == "S7":  # V12: the reserve card to a house
        return [m for m in position.legal_moves() if m.src == RESERVE and m.dst == HOUSE]
    if violation == "S8":  # V4: the first move of a release (docs/variants.md)
        return [m for m in position.legal_moves() if m.kind == CARD]
    if violation == "S10":  # V7: the first move of uncovering a face-down card
        return [m for m in position.legal_moves() if m.kind == CARD]
    if violation == "S9":  # V6: the first move of making a space
        spaces = position.space_moves()
        return [m for m in position.legal_moves() if m in spaces]
    moves = position.foundation_moves()[:]
    if violation == "S2":
        moves = _same_source_first(moves, offending)
    return moves


def _same_source_first(moves: list[Move], offending: Move) -> list[Move]:
    """R7.3: a card that had to go elsewhere (a discard, say) goes there "instead"."""
    if offending.kind == CARD:
        same_source = [m for m in moves if (m.src, m.si) == (offending.src, offending.si)]
        moves = same_source + [m for m in moves if m not in same_source]
    return moves


def stop_judgement(
    start: Position, moves: Sequence[Move], index: int
) -> tuple[Position, IllegalMove | None]:
    """The position ``moves[index]`` was made in, and the violation it committed as the
    referee words it (None for a clean move): the one place that judges a Stop! call
    (R7.2, R7.5), and what a successful call tells the offender (R7.1)."""
    if not 0 <= index < len(moves):
        raise WrongStop("no_such_move_number", number=index + 1)
    before = start.copy()
    for move in moves[:index]:
        before.push(move, classic=True)
    refusal = before.refusal(moves[index])
    return before, (refusal if refusal is not None and refusal.is_violation else None)


def stop_verdict(start: Position, moves: Sequence[Move], index: int) -> tuple[Position, str | None]:
    """``stop_judgement`` with the violation's code (S1, S4...) alone."""
    before, violation = stop_judgement(start, moves, index)
    return before, None if violation is None else violation.code


def corrections(before: Position, violation: str, offending: Move) -> list[Move]:
    """The compulsory moves a successful call may carry out, best first (R7.2): none for a
    building or availability violation (R7.1), whose move is simply undone."""
    if violation not in PRIORITY_VIOLATIONS:
        return []
    return compulsory_moves(before, violation, offending)


def correct(before: Position, correction: Move | None, spent: Sequence[int]) -> Position:
    """The position after a successful call: ``before`` (the position the stopped move
    was made in, changed and returned) with ``correction`` carried out, and the turn
    passed to the caller. ``spent``: each seat's V13 reshuffle count at the end of the
    offender's turn as played (``Position.reshuffles``)."""
    position = before
    if correction is not None:
        position.push(correction)
    if position.reshuffle_key is not None:
        # V13: a reshuffle made by an undone move stays spent. Both players saw the
        # cards it turned up, so the offender's next reshuffle must be a new one.
        position.reshuffles = [
            max(kept, used) for kept, used in zip(position.reshuffles, spent, strict=True)
        ]
    if not position.is_over:
        position.stop_turn()
    return position


def call_stop(
    start: Position, moves: Sequence[Move], index: int, choice: Move | None = None
) -> Position:
    """The position after Stop! is called on ``moves[index]`` of the turn begun at ``start``.

    The offending move and everything after it are undone; for S1-S3 (and S6-S11) the
    omitted compulsory move is carried out (``choice`` picks it when several fit, R7.2;
    under V14 an S3 with the stock's top card face down has none); then the turn
    passes to the caller. Raises ``WrongStop`` when that move held no violation, or
    when ``choice`` is not one of the compulsory moves. (``Game.call_stop`` keeps the
    game's record and R7.5's count; this is the bare position work.)
    """
    before, violation = stop_verdict(start, moves, index)
    if violation is None:
        raise WrongStop("clean_move", number=index + 1, move=str(moves[index]))
    options = corrections(before, violation, moves[index])
    if choice is not None and choice not in options:
        raise WrongStop("not_compulsory", move=str(choice))
    spent = before.reshuffles
    if start.reshuffle_key is not None:  # V13: what the whole turn as played used up
        played = start.copy()
        for move in moves:
            played.push(move, classic=True)
        spent = played.reshuffles
    correction = choice if choice is not None else (options[0] if options else None)
    return correct(before, correction, spent)
