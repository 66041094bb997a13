"""Matches (R8.7): games are played until a seat's total reaches the target."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass
class Match:
    """Running totals of a match between the seats of a game."""

    seats: int = 2
    target: int = 300
    totals: list[int] = field(default_factory=list)
    games: int = 0

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.seats

    def add_game(self, score: Sequence[int]) -> None:
        if self.is_over:
            raise ValueError("the match is over")
        if len(score) != self.seats:
            raise ValueError("a game score must give every seat's points")
        self.totals = [t + s for t, s in zip(self.totals, score, strict=True)]
        self.games += 1

    @property
    def is_over(self) -> bool:
        return max(self.totals) >= self.target

    @property
    def winner(self) -> int | None:
        """The seat that reached the target first; the higher total if both did at once."""
        if not self.is_over:
            return None
        best = max(self.totals)
        leaders = [i for i, t in enumerate(self.totals) if t == best]
        return leaders[0] if len(leaders) == 1 else None


def match_totals(scores: Iterable[Sequence[int]], target: int = 300, seats: int = 2) -> Match:
    """Replay a list of game scores into a match."""
    match = Match(seats=seats, target=target)
    for score in scores:
        match.add_game(score)
    return match


def alternating_starter(first: int, game_index: int, seats: int = 2) -> int:
    """V3 ``alternate``: the seat that starts game ``game_index`` (0 = the first game,
    whose starter the deal chose) when the seats take turns to start."""
    return (first + game_index) % seats
