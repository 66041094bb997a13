"""A finished game's result in words, from one player's side: who won, how, the score.

    You won: bob resigned · 111-0
    You lost: your time ran out · 0-96
    You lost: stalemate agreed, bob had the lower count · 0-12
    Draw: stalemate agreed · 0-0
    You won: you played every card · you 85, bob 0, carol 0

The one place that words a result: the lobby, the game page and the replay use it,
and so do the e-mails (it needs no request, only the game and the viewer's seat), as
one clause, how it ended then who won: "bob resigned, you won" (``Result.clause``).

A stalemate is no draw unless nobody scores (R8.3: the lowest count scores the
difference; V14 and equal counts score nothing): it is worded as the win or loss it
is, and so is what an agreement would score before one is offered or accepted
(``agreement_terms``, from the engine's ``Position.stalemate_score``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from games.engine import (
    BY_AGREEMENT,
    BY_CARDS,
    BY_RESIGNATION,
    BY_STALEMATE,
    BY_TIMEOUT,
    BY_TURN_LIMIT,
)
from games.models import Game

#: How a stalemate came about, by the game's ending ("You lost: stalemate agreed, ...").
STALEMATES: dict[str, Promise] = {
    # Translators: a game ended by agreement, scored by the counts (R8.3): the lowest
    # count scores. NOT a draw: never "Remis" or "nulle" (a stalemate scores nothing
    # only on equal counts, or under Foster's rules).
    BY_AGREEMENT: pgettext_lazy("stalemate", "stalemate agreed"),
    # Translators: a game the server ended because nobody could get rid of a card;
    # scored by the counts, NOT a draw.
    BY_STALEMATE: pgettext_lazy("stalemate", "the game was blocked"),
    # Translators: a game the server ended at its 2,000th turn; scored by the counts,
    # NOT a draw.
    BY_TURN_LIMIT: pgettext_lazy("stalemate", "the turn limit was reached"),
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
    #: Who won, in a clause: "you won", "bob won", "a draw", or "" (a three-seat
    #: forfeit names no winner).
    verdict: str = ""

    @property
    def clause(self) -> str:
        """How it ended and who won, as the e-mails put it in a sentence: "bob
        resigned, you won", "stalemate agreed, a draw"."""
        return ", ".join(part for part in (self.how, self.verdict) if part)

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
        return _stalemate(game.ending, names, points, me, score)

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
        return Result(outcome, how, score, won, _verdict(names, winner, me))
    # G3: a forfeit with three seats names no winner; the others score alike.
    if loser is not None and loser == me:
        return Result(pgettext("result", "You lost"), how, score, False)
    return Result(pgettext("result", "Game over"), how, score, None)


def _verdict(names: dict[str, str], winner: str, me: str | None) -> str:
    """Who won, from the reader's side, in a clause: "you won", "bob won"."""
    if winner == me:
        return pgettext("game over e-mail", "you won")
    return pgettext("game over e-mail", "%(name)s won") % {"name": names[winner]}


def scores_line(game: Game, seat: int | None) -> str:
    """Every seat's points, the reader's first: "you 111, bob 0" ("" while it is played)."""
    points: dict[str, int] | None = game.score
    if not points:
        return ""
    me = None if seat is None else game.letters[seat]
    return _score(game.names(), points, me, every_seat=True)


def stalemate_scorer(points: dict[str, int]) -> str | None:
    """The seat a stalemate's score names, the one whose count was lowest (R8.3), or
    None when nobody scored (equal counts; V14)."""
    best = max(points, key=lambda letter: points[letter])
    return best if points[best] > 0 else None


def lower_count(names: dict[str, str], scorer: str, me: str | None, *, now: bool = False) -> str:
    """Who had (``now``: has) the count that scores, from the reader's side: "you had
    the lower count", "bob has the lowest count"."""
    name = {"name": names[scorer]}
    if len(names) == 2:
        if now:
            if scorer == me:
                return pgettext("stalemate", "you have the lower count")
            return pgettext("stalemate", "%(name)s has the lower count") % name
        if scorer == me:
            return pgettext("stalemate", "you had the lower count")
        return pgettext("stalemate", "%(name)s had the lower count") % name
    if now:
        if scorer == me:
            return pgettext("stalemate", "you have the lowest count")
        return pgettext("stalemate", "%(name)s has the lowest count") % name
    if scorer == me:
        return pgettext("stalemate", "you had the lowest count")
    return pgettext("stalemate", "%(name)s had the lowest count") % name


def stalemate_how(
    ending: str, names: dict[str, str], points: dict[str, int], me: str | None
) -> str:
    """How a stalemate ended and who it scored for: "stalemate agreed, bob had the
    lower count" ("stalemate agreed" alone when nobody scored)."""
    how = str(STALEMATES.get(ending, pgettext("stalemate", "stalemate")))
    scorer = stalemate_scorer(points)
    if scorer is None:
        return how
    # Translators: how a stalemate ended, then who it scored for: "stalemate agreed,
    # bob had the lower count".
    return pgettext("stalemate", "%(how)s, %(scorer)s") % {
        "how": how,
        "scorer": lower_count(names, scorer, me),
    }


def _stalemate(
    ending: str, names: dict[str, str], points: dict[str, int], me: str | None, score: str
) -> Result:
    """A stalemate from the reader's side: won or lost by the counts, or a draw when
    nobody scored."""
    how = stalemate_how(ending, names, points, me)
    scorer = stalemate_scorer(points)
    if scorer is None:
        # Translators: a game that ended with nobody scoring (equal counts, or a
        # stalemate under Foster's rules): here, and only here, a draw.
        draw = pgettext("result", "Draw")
        return Result(draw, how, score, None, pgettext("game over e-mail", "a draw"))
    verdict = _verdict(names, scorer, me)
    if me is None:
        return Result(
            pgettext("result", "%(name)s won") % {"name": names[scorer]}, how, score, None, verdict
        )
    won = scorer == me
    return Result(
        pgettext("result", "You won") if won else pgettext("result", "You lost"),
        how,
        score,
        won,
        verdict,
    )


@dataclass(frozen=True)
class Terms:
    """What ending the game by agreement would do now, for the reader: each seat's
    count and the result it would give (R8.5, scored as R8.3)."""

    counts: str  # "you 36, bob 3"
    score: str  # "0-33" (the reader's points first)
    outcome: str  # "bob has the lower count, so you would lose"
    verdict: str  # "you would lose", "a draw"
    won: bool | None  # True, False, or None for a draw

    def __str__(self) -> str:
        # Translators: what agreeing to end the game now would give: "Agreed now, the
        # game ends 0-33: bob has the lower count, so you would lose."
        return pgettext("stalemate", "Agreed now, the game ends %(score)s: %(outcome)s.") % {
            "score": self.score,
            "outcome": self.outcome,
        }

    @property
    def short(self) -> str:
        """The same in a few words, for the notice of an offer: "0-33, you would lose"."""
        # Translators: what agreeing now would give, in short: "0-33, you would lose".
        return pgettext("stalemate", "%(score)s, %(verdict)s") % {
            "score": self.score,
            "verdict": self.verdict,
        }


def agreement_terms(game: Game, seat: int, counts: list[int], points: list[int]) -> Terms:
    """What an agreement would give the player in ``seat`` now: ``counts``, each seat's
    count, and ``points``, what the engine says an agreement scores
    (``Position.stalemate_score``), both in seat order."""
    names = game.names()
    letters = game.letters
    me = letters[seat]
    by_letter = dict(zip(letters, points, strict=True))
    counted = dict(zip(letters, counts, strict=True))
    scorer = stalemate_scorer(by_letter)
    if scorer is None:
        low = min(counts)
        # Translators: an agreement now would score nothing: the counts are equal, or
        # the rules (Foster's) score a stalemate as nothing.
        outcome = (
            pgettext("stalemate", "the counts are equal, a draw")
            if counts.count(low) > 1
            else pgettext("stalemate", "these rules score it as nothing, a draw")
        )
        # Translators: what an agreement that scores nothing would be for the reader.
        verdict = pgettext("stalemate", "a draw")
        won = None
    else:
        won = scorer == me
        if won:
            verdict = pgettext("stalemate", "you would win")
        elif len(letters) == 2:
            verdict = pgettext("stalemate", "you would lose")
        else:
            verdict = pgettext("stalemate", "%(name)s would win and you would lose") % {
                "name": names[scorer]
            }
        # Translators: who would score, then what it means for the reader: "bob has
        # the lower count, so you would lose".
        outcome = pgettext("stalemate", "%(scorer)s, so %(verdict)s") % {
            "scorer": lower_count(names, scorer, me, now=True),
            "verdict": verdict,
        }
    return Terms(
        counts=_score(names, counted, me, every_seat=True),
        score=_score(names, by_letter, me),
        outcome=outcome,
        verdict=verdict,
        won=won,
    )


def result_line(game: Game, seat: int | None) -> str:
    """``str(result_of(game, seat))``, or "" while the game is played."""
    result = result_of(game, seat)
    return "" if result is None else str(result)


def _score(
    names: dict[str, str], points: dict[str, int], me: str | None, *, every_seat: bool = False
) -> str:
    """The viewer's points first: ``111-0``; with three seats, for a spectator, or
    ``every_seat``, each seat named (``you 80, bob 80, carol 0``), in turn order from the
    viewer."""
    letters = list(names)
    start = letters.index(me) if me is not None else 0
    order = letters[start:] + letters[:start]
    if me is not None and len(letters) == 2 and not every_seat:
        return "-".join(str(points[letter]) for letter in order)
    return ", ".join(
        # Translators: one seat's points in a score, e.g. "you 80, bob 80, carol 0".
        pgettext("score", "you %(points)s") % {"points": points[letter]}
        if letter == me
        else pgettext("score", "%(name)s %(points)s")
        % {"name": names[letter], "points": points[letter]}
        for letter in order
    )
