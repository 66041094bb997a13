"""The rules page's pictures: real positions, set up and viewed through the engine, drawn
by the table's own components (templates/games/_table.html), as a spectator sees them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext as _

from games.engine import Game as EngineGame
from games.pages.board import Board, build_board

#: A deal of the standard rules.
DEAL_SEED = 20261127


def _table(**piles: Any) -> dict[str, Any]:
    """A hand-made table of the standard rules, A to move."""
    return {
        "format": "rbank-position/1",
        "rules": "pagat",
        "to_move": "A",
        "foundations": piles.get("foundations", [[] for _ in range(8)]),
        "houses": piles["houses"],
        "A": piles["A"],
        "B": piles["B"],
        "status": "playing",
        "winner": None,
        "score": None,
    }


#: Alice to move, the ace of spades on top of house 1: it must go up before she turns a
#: card (P2, S2); should she turn one first in a classic game, Bob may call Stop!.
STOP_SCENE = _table(
    houses=[["9D", "AS"], ["7C"], ["QH"], ["5S"], ["KD"], ["3C"], ["JS"], ["TH"]],
    A={"reserve": ["4C", "8H"], "hand": ["2H", "QD", "6S"], "waste": [], "turned": None},
    B={"reserve": ["6C", "KS"], "hand": ["9H", "4D"], "waste": ["3C"], "turned": None},
)

#: The counts a stalemate (or an agreement to end the game) is scored by: alice's is 6
#: (two reserve cards, a hand card and a waste card), Bob's 2 (one reserve card); Bob
#: would score the difference, 4 (R8.3).
STALEMATE_SCENE = _table(
    houses=[["KS"], ["9D"], ["TS"], ["KH"], ["5S"], ["QC"], ["3D"], ["JH"]],
    A={"reserve": ["6C", "KC"], "hand": ["9H"], "waste": ["3C"], "turned": None},
    B={"reserve": ["5D"], "hand": [], "waste": [], "turned": None},
)


@dataclass(frozen=True)
class Diagram:
    board: Board
    caption: str


def _drawn(game: EngineGame) -> Board:
    return build_board(game.view(None), names={"A": "Alice", "B": "Bob"})


@lru_cache(maxsize=8)
def diagrams(language: str) -> dict[str, Diagram]:
    """The rules page's pictures in ``language`` (their piles' names are words)."""
    return {
        "deal": Diagram(
            _drawn(EngineGame(DEAL_SEED)),
            _(
                "A real deal: each reserve's top card face up, the four cards each player "
                "dealt to the houses, the foundations empty, the hands face down."
            ),
        ),
        "stop": Diagram(
            _drawn(EngineGame(1, setup=STOP_SCENE)),
            _(
                "Alice to move. The ace of spades on house 1 must go to a foundation before "
                "she turns a card; if she turns one first in a classic game, Bob may call "
                "Stop!."
            ),
        ),
        "stalemate": Diagram(
            _drawn(EngineGame(1, setup=STALEMATE_SCENE)),
            _(
                "The counts a stalemate is scored by: Alice counts 6 (2 for each reserve "
                "card, 1 for her hand card and 1 for her waste card), Bob 2 (his reserve "
                "card). Were the game stuck here, Bob would score the difference, 4."
            ),
        ),
    }
