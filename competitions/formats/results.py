"""The values a competition's formats read: who entered, and what each game gave."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entrant:
    player: int
    rating: float  # the Glicko rating at the start: seeding, the Swiss order, the last tie-break


@dataclass(frozen=True)
class GameResult:
    first: int  # the player at seat A
    second: int  # the player at seat B
    points: tuple[float, float]  # event points: a win 1/0, a stalemate (no winner) 0.5/0.5
    scores: tuple[int, int] = (0, 0)  # the game's card scores (the "count" tie-break)
    round: int = 1
    forfeit: bool = False  # decided by a timeout, a resignation or a withdrawal


#: A Swiss bye (no opponent that round) is worth a win (docs/competitions.md).
BYE_POINTS = 1.0
