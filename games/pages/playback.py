"""Moves played out on a table (games/static/games/playback.js): the game page plays
the opponent's last turn, the replay plays the steps after the one it shows. Each
frame holds the piles a move changed, built from the viewer's view at that step, so a
face-down card stays face down in every frame as on the table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Game as EngineGame
from games.engine import view
from games.pages.board import Board, Pile, build_board

#: A turn longer than this is not played out (the table shows its end, the moves are
#: listed), and a replay plays at most this many steps from the one it shows: a page
#: carries a few kilobytes of frames, never hundreds.
MOST_MOVES = 60


@dataclass(frozen=True)
class Frame:
    move: str  # "" for the table as the playback starts
    piles: list[Pile]  # those that differ from the frame before (games/_playback.html)


def _looks(pile: Pile) -> tuple[object, ...]:
    """What a pile shows, whatever the page's marks (the last turn's dot, the move names)."""
    return (tuple(card.code for card in pile.cards), pile.count, pile.back, pile.down)


def _piles(seen: dict[str, Any], names: dict[str, str]) -> dict[str, Pile]:
    return {pile.id: pile for pile in build_board(seen, names=names).piles}


def played_out(
    views: Sequence[dict[str, Any]], moves: Sequence[str], names: dict[str, str]
) -> list[Frame]:
    """The frames from ``views[0]`` (the table as shown: frame 0 changes nothing) through
    each of ``moves``, ``views[k]`` being the view after the ``k``-th."""
    boards = [_piles(seen, names) for seen in views]
    frames = [Frame("", [])]
    for move, before, after in zip(moves, boards, boards[1:], strict=False):
        changed = [pile for key, pile in after.items() if _looks(pile) != _looks(before[key])]
        frames.append(Frame(move, changed))
    return frames


def turn_frames(
    engine: EngineGame, seat: int | None, names: dict[str, str], table: Board
) -> list[Frame]:
    """The frames of the last turn for ``seat`` (None: a spectator), or none when it is
    the viewer's own, was lost, is too long to play out, or the viewer has moved since
    (they have seen it). ``table``: the table now, which frame 0 takes back to how it
    was before the turn."""
    last = engine.last_turn
    if last is None or not last.moves or last.seat == seat or len(last.moves) > MOST_MOVES:
        return []
    if seat is not None and engine.to_move == seat and engine.current_turn:
        return []
    steps = engine.recent_steps()[: len(last.moves) + 1]
    frames = played_out(
        [view(position, seat) for _, position in steps], [str(m) for m in last.moves], names
    )
    before = _piles(view(steps[0][1], seat), names)
    now = {pile.id: pile for pile in table.piles}
    first = [
        pile for key, pile in before.items() if key in now and _looks(pile) != _looks(now[key])
    ]
    if not first:
        return []
    return [Frame("", first), *frames[1:]]
