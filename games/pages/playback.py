"""The last turn played out on the table (games/static/games/table.js): the piles it
touched as the viewer saw them before it, then, move by move, the piles each move
changed. Built from the viewer's view at each step, so a face-down card stays face
down in every frame as on the table."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Game as EngineGame
from games.engine import view
from games.pages.board import Board, Pile, build_board

#: A turn longer than this is not played out (the table shows its end, the moves are
#: listed): a page carries a few kilobytes of frames, never hundreds.
MOST_MOVES = 60


@dataclass(frozen=True)
class Frame:
    move: str  # "" for the table before the turn
    piles: list[Pile]  # those that differ from the frame before (games/_playback.html)


def _looks(pile: Pile) -> tuple[object, ...]:
    """What a pile shows, whatever the page's marks (the last turn's dot, the move names)."""
    return (tuple(card.code for card in pile.cards), pile.count, pile.back, pile.down)


def turn_frames(
    engine: EngineGame, seat: int | None, names: dict[str, str], table: Board
) -> list[Frame]:
    """The frames of the last turn for ``seat`` (None: a spectator), or none when it is
    the viewer's own, was lost, is too long to play out, or the viewer has moved since
    (they have seen it). ``table``: the table now."""
    last = engine.last_turn
    if last is None or not last.moves or last.seat == seat or len(last.moves) > MOST_MOVES:
        return []
    if seat is not None and engine.to_move == seat and engine.current_turn:
        return []
    steps = engine.recent_steps()[: len(last.moves) + 1]
    boards = [
        {pile.id: pile for pile in build_board(view(position, seat), names=names).piles}
        for _, position in steps
    ]
    now = {pile.id: pile for pile in table.piles}
    first = [
        pile for key, pile in boards[0].items() if key in now and _looks(pile) != _looks(now[key])
    ]
    if not first:
        return []
    frames = [Frame("", first)]
    for move, before, after in zip(last.moves, boards, boards[1:], strict=False):
        changed = [pile for key, pile in after.items() if _looks(pile) != _looks(before[key])]
        frames.append(Frame(str(move), changed))
    return frames
