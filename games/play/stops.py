"""Stop! by correspondence (docs/rules.md R7; a game's ``stop_mode`` is ``classic``).

The engine decides every call (``games.engine.Game.call_stop``): who may call and
when (R7.4), the verdict and the correction (R7.1-R7.3), the count of wrong calls
and the turn every third costs (R7.5). This module stores what the call made of the
game, tells the offender, and gives a wrong call's refusal once it is committed (a
wrong call is counted even though it is refused).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction

from games.engine import Game as EngineGame
from games.engine import Refusal, WrongCallError
from games.models import Game
from games.play.happenings import StopCalled, publish
from games.play.services import (
    check_version,
    lock_for_player,
    playing_engine,
    record_turns,
    refused,
    save,
)
from lib.errors import ServiceError
from lib.logs import fields, logs_refusals

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StopOutcome:
    game: Game
    engine: EngineGame
    violation: str  # the code of the stopped move (S1, S2, S3...)
    correction: str  # the compulsory move carried out in its place ("" when there is none)


@logs_refusals("stop")
def call_stop_on(
    *,
    game_id: int,
    user: User,
    move_number: int,
    choice: str | None = None,
    expected_version: int | None = None,
) -> StopOutcome:
    """Call Stop! on move ``move_number`` (1-based) of the opponent's last turn.

    ``choice`` names the compulsory move to carry out when several fit (R7.2: the
    caller chooses), written as the offender would write it (``R-F3`` is the
    offender's reserve); one that does not fit is passed over for the first, so that
    the answer to a call depends on nothing but the verdict. A wrong call raises
    ``WRONG_STOP`` after it is recorded.
    """
    wrong: ServiceError
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        last = engine.last_turn
        try:
            entry = engine.call_stop(seat, move_number, choice)
        except WrongCallError as exc:
            record_turns(game, engine, seat)  # a third wrong call passes the turn
            save(game, engine)
            wrong = refused(game, exc)
        except Refusal as exc:
            raise refused(game, exc) from None
        else:
            assert last is not None
            save(game, engine)
            stopped = last.moves[move_number - 1]
            why = engine.stopped_violation()
            correction = "" if entry.correction is None else str(entry.correction)
            logger.info(
                "stop called %s",
                fields(
                    game=game.pk,
                    seat=game.letters[seat],
                    move=move_number,
                    code=entry.violation,
                    correction=correction,
                ),
            )
            publish(
                StopCalled(
                    game,
                    seat,
                    stopped=last.seat,
                    move_number=move_number,
                    move=str(stopped),
                    code=entry.violation,
                    correction=correction,
                    # The engine's words for the violation, in English (whoever called)
                    # and as data, for each reader's language.
                    reason="" if why is None else why.message,
                    refusal=None if why is None else {"reason": why.reason, "params": why.params},
                )
            )
            return StopOutcome(game, engine, entry.violation, correction)
    raise wrong
