"""What competitions follow: a game's end (``GameEnded``, subscribed in ``apps``) and an
account's deletion (``accounts.signals.account_deleting``).

A game's end is recorded on its pairing inside the game's transaction, the pairing
and the competition locked, once: a pairing already decided is left as it is, so a
happening told twice changes nothing. A game lost on time withdraws its loser from
the tournament (they forfeit their remaining games; docs/competitions.md); in a ladder
it only loses the challenge.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from games.engine import BY_RESIGNATION, BY_TIMEOUT
from games.models import Game, Match
from games.play.happenings import GameEnded

from .models import Competition, Entry, Format, Pairing
from .services import ladder, running
from .services.dealing import decide


def game_ended(happening: GameEnded) -> None:
    game = happening.game
    which = Q(game_id=game.pk)
    if game.match_id is not None:
        which |= Q(match_id=game.match_id)
    found = Pairing.objects.filter(which).values_list("pk", "round__competition_id").first()
    if found is None:
        return
    pairing_id, competition_id = found
    competition = Competition.objects.select_for_update().get(pk=competition_id)
    pairing = (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("seat_a", "seat_b")
        .get(pk=pairing_id)
    )
    if pairing.decided:
        return
    if not _record(pairing, game):
        # A match goes on (its next game is dealt by games.lobby.matches); a game lost
        # on time in it concedes the tie all the same.
        if game.ending == BY_TIMEOUT and competition.format != Format.LADDER:
            _timed_out(competition, pairing, game)
        return
    if competition.format == Format.LADDER:
        ladder.decided(competition, pairing)
        return
    if game.ending == BY_TIMEOUT:
        _timed_out(competition, pairing, game)
    running.advance(competition)


def _record(pairing: Pairing, game: Game) -> bool:
    """The result on the pairing, if the game (or its match) decides it."""
    forfeit = game.ending in (BY_RESIGNATION, BY_TIMEOUT)
    if pairing.match_id is not None:
        match = Match.objects.get(pk=pairing.match_id)
        if not match.winner:
            return False
        totals = match.totals
        first = match.winner == "A"
        decide(
            pairing, (1.0, 0.0) if first else (0.0, 1.0), (totals[0], totals[1]), forfeit=forfeit
        )
        return True
    score = game.score or {}
    points = (0.5, 0.5)
    if game.winner:
        points = (1.0, 0.0) if game.winner == "A" else (0.0, 1.0)
    decide(pairing, points, (score.get("A", 0), score.get("B", 0)), forfeit=forfeit)
    return True


def _timed_out(competition: Competition, pairing: Pairing, game: Game) -> None:
    loser = _entry_at(pairing, game, game.forfeiter) if game.forfeiter else None
    if loser is not None:
        running.withdraw_entry(competition, loser)


def _user_id(game: Game, letter: str) -> int | None:
    return game.seat_rows["AB".index(letter)].user_id  # type: ignore[no-any-return]


def _entry_at(pairing: Pairing, game: Game, letter: str) -> Entry | None:
    """The entry whose player sat at ``letter`` (a match's seats keep the pairing's)."""
    user_id = _user_id(game, letter)
    for entry in (pairing.seat_a, pairing.seat_b):
        if entry is not None and entry.player_id == user_id:
            return entry
    return None


def account_deleted(sender: object, *, user: User, **kwargs: Any) -> int:
    """The player is about to be deleted: they withdraw from every competition (their
    games were resigned by the games first; one dealt since is resigned here), and
    leave the open ones. Answers how many competitions they left."""
    left = 0
    for entry in Entry.objects.filter(player=user, withdrawn_at__isnull=True).select_related(
        "competition"
    ):
        competition = Competition.objects.select_for_update().get(pk=entry.competition_id)
        if competition.status == Competition.Status.OPEN:
            entry.delete()
        elif competition.status == Competition.Status.RUNNING:
            running.withdraw_entry(competition, entry)
        left += 1
    return left
