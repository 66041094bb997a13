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

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.engine import (
    BY_AGREEMENT,
    BY_CARDS,
    BY_RESIGNATION,
    BY_STALEMATE,
    BY_TIMEOUT,
    BY_TURN_LIMIT,
)

from .models import Game

#: How a stalemate came about, by the game's ending.
STALEMATES: dict[str, Promise] = {
    BY_AGREEMENT: gettext_lazy("Stalemate agreed"),
    BY_STALEMATE: gettext_lazy("Stalemate: nobody could get rid of a card any more"),
    BY_TURN_LIMIT: gettext_lazy("Stalemate: the turn limit was reached"),
}

#: Any other ending in words, as the record names it ("turn_limit": "turn limit").
ENDINGS: dict[str, Promise] = {
    BY_CARDS: pgettext_lazy("game ending", "cards"),
    BY_STALEMATE: pgettext_lazy("game ending", "stalemate"),
    BY_TURN_LIMIT: pgettext_lazy("game ending", "turn limit"),
    BY_AGREEMENT: pgettext_lazy("game ending", "agreed"),
    BY_RESIGNATION: pgettext_lazy("game ending", "resigned"),
    BY_TIMEOUT: pgettext_lazy("game ending", "timeout"),
}


@dataclass(frozen=True)
class Result:
    outcome: str  # "You won", "You lost", "alice won", "Stalemate agreed", "Game over"
    how: str  # "bob resigned", "your time ran out", or "" when the outcome says it all
    score: str  # "111-0" (the viewer's points first), or every seat named with three
    won: bool | None  # for the viewer: True, False, or None (a stalemate, a spectator)

    def __str__(self) -> str:
        head = self.outcome
        if self.how:
            # Translators: a game's result, e.g. "You won: bob resigned".
            head = pgettext("result", "%(outcome)s: %(how)s") % {
                "outcome": self.outcome,
                "how": self.how,
            }
        # Translators: a game's result and then its score, e.g. "You won: bob resigned · 111-0".
        return pgettext("result", "%(result)s · %(score)s") % {"result": head, "score": self.score}


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
        outcome = str(STALEMATES.get(game.ending, _("Stalemate")))
        return Result(outcome, "", score, None)

    winner: str | None = game.winner or None
    loser = game.forfeiter or None
    if loser is not None and game.ending == BY_TIMEOUT:
        if loser == me:
            how = _("your time ran out")
        else:
            how = _("%(name)s ran out of time") % {"name": names[loser]}
    elif loser is not None:
        how = _("you resigned") if loser == me else _("%(name)s resigned") % {"name": names[loser]}
    elif winner is not None and game.ending == BY_CARDS:
        if not me:
            how = _("every card played")
        elif winner == me:
            how = _("you played every card")
        else:
            how = _("%(name)s played every card") % {"name": names[winner]}
    else:
        how = str(ENDINGS.get(game.ending, game.ending.replace("_", " ")))
    if winner is not None:
        won = None if me is None else winner == me
        if won is None:
            outcome = pgettext("result", "%(name)s won") % {"name": names[winner]}
        else:
            outcome = pgettext("result", "You won") if won else pgettext("result", "You lost")
        return Result(outcome, how, score, won)
    # G3: a forfeit with three seats names no winner; the others score alike.
    if loser is not None and loser == me:
        return Result(pgettext("result", "You lost"), how, score, False)
    return Result(pgettext("result", "Game over"), how, score, None)


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
        # Translators: one seat's points in a score, e.g. "you 80, bob 80, carol 0".
        pgettext("score", "you %(points)s") % {"points": points[letter]}
        if letter == me
        else pgettext("score", "%(name)s %(points)s")
        % {"name": names[letter], "points": points[letter]}
        for letter in order
    )
