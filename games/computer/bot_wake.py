"""Waking the computer players: after an action commits, a bot whose turn it is, or that
has a stalemate offer to answer, gets a task (``games.computer.bots`` does the playing).

Queued by name, after the commit, so that neither the services nor the dealing
import the module that plays through them.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import F

from games.engine import Game as EngineGame
from games.models import Game, Seat
from games.play.happenings import GameDealt, Saved
from lib.outbox import dispatch

#: The tasks that play the computer players' part (``games.tasks``), queued by name.
PLAY_BOT_TURN = "games.tasks.play_bot_turn"
ANSWER_BOT_STALEMATE = "games.tasks.answer_bot_stalemate"


def game_dealt(happening: GameDealt) -> None:
    """Subscriber of ``GameDealt`` (``games.apps``)."""
    wake_bots(happening.game, happening.engine)


def saved(happening: Saved) -> None:
    """Subscriber of ``Saved`` (``games.apps``): after every action."""
    wake_bots(happening.game, happening.engine)


def wake_bots(game: Game, engine: EngineGame) -> None:
    """Once this action commits, a computer player whose turn it is plays it (after a
    pause a person would take), and one that has a stalemate offer to answer answers
    it. Each task re-reads the game: one that finds it changed does nothing."""
    if engine.is_over:
        return
    seats = game.seat_rows
    if seats[engine.to_move].bot_level:
        pause = random.uniform(*settings.BOT_PAUSE_SECONDS)
        transaction.on_commit(
            partial(dispatch, PLAY_BOT_TURN, game.pk, game.version, countdown=pause)
        )
    offer = engine.stalemate_offer
    if offer and any(row.bot_level and i not in offer for i, row in enumerate(seats)):
        transaction.on_commit(partial(dispatch, ANSWER_BOT_STALEMATE, game.pk, game.version))


#: A computer player that has not acted this long after its cue lost its task (a dead
#: worker, a broker that was down): the sweep cues it again.
BOT_STALLED = timedelta(minutes=2)


def wake_stalled(now: datetime, batch: int) -> int:
    """Queue again the turns and stalemate answers of computer players left waiting (the
    minute sweep, ``games.sweep``). Read from the computer's seats in games being played
    (their score is null until the end: an index holds only those), never from every
    game being played, which nearly all are stalled by this measure."""
    in_play = Seat.objects.filter(
        score__isnull=True,
        user__profile__bot_level__gt="",
        game__status=Game.Status.PLAYING,
        game__updated_at__lte=now - BOT_STALLED,
    )
    turns = in_play.filter(letter=F("game__to_move")).values_list("game_id", "game__version")
    offers = (
        in_play.filter(offer__isnull=True, game__seats__offer__isnull=False)
        .values_list("game_id", "game__version")
        .distinct()
    )
    woken = sum(dispatch(PLAY_BOT_TURN, pk, version) for pk, version in turns[:batch])
    return woken + sum(
        dispatch(ANSWER_BOT_STALEMATE, pk, version) for pk, version in offers[:batch]
    )
