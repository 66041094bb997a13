"""A finished game's result in words, from one player's side: who won, how, the score.

    You won: bob resigned · 111-0
    You lost: your time ran out · 0-96
    Stalemate agreed · 12-0
    You won: you played every card · you 85, bob 0, carol 0

The one place that words a result: the lobby, the game page and the replay use it,
and so may the e-mails (it needs no request, only the game and the viewer's seat).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import (
    BY_AGREEMENT,
    BY_CARDS,
    BY_STALEMATE,
    BY_TIMEOUT,
    BY_TURN_LIMIT,
)

from .models import Game

#: How a stalemate came about, by the game's ending.
STALEMATES = {
    BY_AGREEMENT: "Stalemate agreed",
    BY_STALEMATE: "Stalemate: nobody could get rid of a card any more",
    BY_TURN_LIMIT: "Stalemate: the turn limit was reached",
}


@dataclass(frozen=True)
class Result:
    outcome: str  # "You won", "You lost", "alice won", "Stalemate agreed", "Game over"
    how: str  # "bob resigned", "your time ran out", or "" when the outcome says it all
    score: str  # "111-0" (the viewer's points first), or every seat named with three
    won: bool | None  # for the viewer: True, False, or None (a stalemate, a spectator)

    def __str__(self) -> str:
        head = f"{self.outcome}: {self.how}" if self.how else self.outcome
        return f"{head} · {self.score}"


def result_of(game: Game, seat: int | None) -> Result | None:
    """The result of ``game`` as the player in ``seat`` reads it (None: a spectator,
    seats in order), or None while it is played."""
    points: dict[str, int] | None = game.score
    if game.status == Game.Status.PLAYING or not points:
        return None
    names = game.names()
    letters = game.letters
    me = None if seat is None else letters[seat]
    score = _score(names, points, me)
    if game.status == Game.Status.STALEMATE:
        outcome = STALEMATES.get(game.ending, "Stalemate")
        return Result(outcome, "", score, None)

    def who(letter: str) -> str:
        return "you" if letter == me else names[letter]

    winner: str | None = game.winner or None
    loser = game.forfeiter or None
    if loser is not None and game.ending == BY_TIMEOUT:
        how = "your time ran out" if loser == me else f"{names[loser]} ran out of time"
    elif loser is not None:
        how = f"{who(loser)} resigned"
    elif winner is not None and game.ending == BY_CARDS:
        how = f"{who(winner)} played every card" if me else "every card played"
    else:
        how = game.ending.replace("_", " ")
    if winner is not None:
        won = None if me is None else winner == me
        outcome = {True: "You won", False: "You lost", None: f"{names[winner]} won"}[won]
        return Result(outcome, how, score, won)
    # G3: a forfeit with three seats names no winner; the others score alike.
    if loser is not None and loser == me:
        return Result("You lost", how, score, False)
    return Result("Game over", how, score, None)


def result_line(game: Game, seat: int | None) -> str:
    """``str(result_of(game, seat))``, or "" while the game is played."""
    result = result_of(game, seat)
    return "" if result is None else str(result)


def _score(names: dict[str, str], points: dict[str, int], me: str | None) -> str:
    """The viewer's points first: ``111-0``; with three seats, or for a spectator, each
    seat named (``you 80, bob 80, carol 0``), in turn order from the viewer."""
    letters = list(names)
    start = letters.index(me) if me is not None else 0
    order = letters[start:] + letters[:start]
    if me is not None and len(letters) == 2:
        return "-".join(str(points[letter]) for letter in order)
    return ", ".join(
        f"{'you' if letter == me else names[letter]} {points[letter]}" for letter in order
    )
