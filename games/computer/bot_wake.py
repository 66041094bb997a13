"""Waking the computer players: after an action commits, a bot whose turn it is, or that
has a stalemate offer to answer, gets a task (``games.computer.bots`` does the playing).

Queued by name, after the commit, so that neither the services nor the dealing
import the module that plays through them.
"""

from __future__ import annotations

import random
from functools import partial

from django.conf import settings
from django.db import transaction

from games.engine import Game as EngineGame
from games.models import Game
from games.notify.notifications import dispatch

#: The tasks that play the computer players' part (``games.tasks``), queued by name.
PLAY_BOT_TURN = "games.tasks.play_bot_turn"
ANSWER_BOT_STALEMATE = "games.tasks.answer_bot_stalemate"


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
