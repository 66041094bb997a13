"""Matches (R8.7): games are played until a seat's total reaches the target.

The one tie rule, from the sources: pagat's statement of the game
(shared/seeds/000_33d0345268e5b4b0.txt, "Scoring") makes the overall winner "the first
player to reach or exceed an agreed target score ... in as many games as it takes";
Foster (shared/seeds/001_3dac3f95c419216d.txt, "Scoring") scores each game "for so much
a point" and names no match at all. So a match is won by the one seat that is ahead
once the target is reached: the higher total wins, and while two seats share the
highest total at or over the target nobody has won and another game is played ("as
many games as it takes"). A tie can arise only when one game adds to two seats'
totals (a three-seat forfeit, G3): in a two-seat game one seat scores at most.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .rules import ALTERNATE, Rules


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

    def add_game(self, score: Sequence[int] | None) -> None:
        """Add a finished game's score (``None``, a game that scored nothing, adds 0)."""
        if self.is_over:
            raise ValueError("the match is over")
        score = [0] * self.seats if score is None else score
        if len(score) != self.seats:
            raise ValueError("a game score must give every seat's points")
        self.totals = [t + s for t, s in zip(self.totals, score, strict=True)]
        self.games += 1

    @property
    def leaders(self) -> list[int]:
        """The seats with the highest total."""
        best = max(self.totals)
        return [i for i, t in enumerate(self.totals) if t == best]

    @property
    def winner(self) -> int | None:
        """The seat whose total has reached the target ahead of every other seat's; None
        before that, and while two seats tie on the highest total (another game decides)."""
        leaders = self.leaders
        if len(leaders) == 1 and self.totals[leaders[0]] >= self.target:
            return leaders[0]
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def next_starter(self, rules: Rules, last_starter: int) -> int | None:
        """The seat that starts the next game: under V3 ``alternate`` the seat after the
        one that started the last game; otherwise None, and the deal chooses (R3)."""
        if rules.starter != ALTERNATE:
            return None
        return alternating_starter(last_starter, 1, self.seats)


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
