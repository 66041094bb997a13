"""Stop! by correspondence (RULES.md R7.1-R7.5; a game's ``stop_mode`` is ``classic``).

In a classic game the server accepts a priority slip (S1-S3; S6, S7 under options
V5, V12) and records it without a word to anyone: spotting it is the opponent's
part of the game. From the end of the offender's turn until the caller's first
move, the caller may name a move of that turn. The server checks it: a violation
there rolls the position back to that move, carries out the omitted compulsory
move and gives the turn to the caller (R7.2, R7.3); a wrong call is refused, and
every third wrong call by the same seat costs it the turn (R7.5). Building
violations (S4/S5) never reach the log: the server refuses them in every mode (R7.1).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.engine import IllegalMove, Move, Position, call_stop, compulsory_moves
from rbank_site.errors import ServiceError
from rbank_site.logs import fields, logs_refusals

from . import deadlines
from .models import Game, StopMode
from .notifications import notify
from .services import (
    LOSES_TURN,
    check_version,
    lock_for_player,
    log_event,
    playing_position,
    rebuild_position,
    save_position,
    stop_event,
)

logger = logging.getLogger(__name__)

#: Every this many wrong calls by a seat costs it a turn (R7.5).
WRONG_CALLS_PER_LOST_TURN = 3


@dataclass(frozen=True)
class StopOutcome:
    game: Game
    position: Position
    violation: str  # the code of the stopped move (S1, S2, S3)
    correction: str  # the compulsory move carried out in its place


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
    offender's reserve). A choice that is not one of them is passed over for the
    first, so that the answer to a call never depends on anything but the verdict:
    a caller cannot probe a move without calling Stop! on it. A wrong call raises
    ``WRONG_STOP`` after recording it.
    """
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        position = playing_position(game)
        last = _stoppable_turn(game, position, seat)
        if not 1 <= move_number <= len(last["moves"]):
            raise ServiceError(
                400,
                "BAD_REQUEST",
                f"your opponent's last turn has moves 1 to {len(last['moves'])}",
            )
        start = rebuild_position(game, upto=last["start"])
        moves = [start.parse(text) for text in last["moves"]]
        chosen = _parse_choice(start, choice)
        before = start.copy()
        for move in moves[: move_number - 1]:
            before.push(move, classic=True)
        offending = moves[move_number - 1]
        refusal = before.refusal(offending)
        if refusal is None or not refusal.is_violation:
            wrong = _wrong_call(game, position, seat, move_number, offending)
        else:
            return _stop(game, seat, last, start, before, moves, move_number, refusal, chosen)
    raise wrong


def _parse_choice(start: Position, choice: str | None) -> Move | None:
    if choice is None:
        return None
    try:
        return start.parse(choice)  # the offender's turn: their relative pile names
    except IllegalMove as exc:
        raise ServiceError(400, "BAD_NOTATION", f"choice: {exc.message}") from None


def stop_refusal(game: Game, seat: int) -> ServiceError | None:
    """Why ``seat`` may not call Stop! now (R7.4), or None when it may. It says nothing
    of whether the opponent's last turn held a violation."""
    if game.stop_mode != StopMode.CLASSIC:
        return ServiceError(
            409,
            "STOP_NOT_IN_PLAY",
            "this game is refereed: the server refused every illegal move already",
        )
    if game.status != Game.Status.PLAYING:
        return ServiceError(409, "GAME_OVER", "the game is over")
    if game.to_move != game.letters[seat]:
        return ServiceError(
            409, "NOT_YOUR_TURN", "Stop! is called at the start of your turn, before your move"
        )
    if game.current_turn:
        return ServiceError(
            409, "STOP_TOO_LATE", "too late: Stop! must be called before your first move"
        )
    last = game.last_turn
    # With three seats only the next seat may stop a turn: its call window (R7.4) is
    # the only one that closes before anybody else moves.
    offender = game.letters[game.previous_seat(seat)]
    if last.get("seat") != offender or not last.get("moves") or "start" not in last:
        return ServiceError(409, "NOTHING_TO_STOP", "your opponent has no turn you can stop")
    if last.get("stopped"):
        return ServiceError(409, "NOTHING_TO_STOP", "you have already stopped that turn")
    return None


def _stoppable_turn(game: Game, position: Position, seat: int) -> dict[str, Any]:
    """The opponent's last turn, if the caller may still call Stop! on it."""
    refusal = stop_refusal(game, seat)
    if refusal is not None:
        raise refusal
    last: dict[str, Any] = game.last_turn
    return last


def _stop(
    game: Game,
    seat: int,
    last: dict[str, Any],
    start: Position,
    before: Position,
    moves: list[Move],
    move_number: int,
    refusal: IllegalMove,
    choice: Move | None,
) -> StopOutcome:
    """R7.2/R7.3: undo the offending move and what followed, carry out the compulsory
    move (``before``: the position the offending move was made in), and the caller
    plays on."""
    options = compulsory_moves(before, refusal.code, moves[move_number - 1])
    correction = choice if choice in options else options[0]
    position = call_stop(start, moves, move_number - 1, correction)
    offender = game.previous_seat(seat)
    log_event(game, position, seat, stop_event(move_number, correction))
    game.last_turn = {
        **last,
        "stopped": move_number,
        "correction": str(correction),
    }
    game.current_turn = []
    save_position(game, position)
    logger.info(
        "stop called %s",
        fields(
            game=game.pk,
            seat=game.letters[seat],
            move=move_number,
            code=refusal.code,
            correction=correction,
        ),
    )
    notify(
        "stop_called",
        user=game.user_at(offender),
        game=game,
        move_number=move_number,
        move=str(moves[move_number - 1]),
        code=refusal.code,
        reason=refusal.message,
        correction=str(correction),
    )
    return StopOutcome(game, position, refusal.code, str(correction))


def _wrong_call(
    game: Game, position: Position, seat: int, move_number: int, move: Move
) -> ServiceError:
    """R7.5: count the wrong call; every third passes the caller's turn. The refusal is
    returned for raising once this is committed."""
    letter = game.letters[seat]
    calls = {**game.wrong_calls, letter: int(game.wrong_calls.get(letter, 0)) + 1}
    game.wrong_calls = calls
    lost = calls[letter] % WRONG_CALLS_PER_LOST_TURN == 0
    message = f"move {move_number} ({move}) broke no rule"
    if lost:
        log_event(game, position, seat, LOSES_TURN)  # in the turn it costs
        position.stop_turn()
        game.last_turn = {"seat": letter, "moves": [], "start": game.ply, "lost": True}
        if not position.is_over:  # a lost turn may complete a stalemate (R8.4)
            now = timezone.now()
            deadlines.charge_turn(game, seat, now)
            deadlines.start_turn(game, position.to_move, now)
            notify(
                "your_turn",
                user=game.user_at(position.to_move),
                game=game,
                last_turn=[],
                lost_turn=True,
            )
        save_position(game, position)
        message += f": that is wrong call number {calls[letter]}, and it costs you this turn"
    else:
        game.version += 1
        game.save(update_fields=["wrong_calls", "version", "updated_at"])
        left = WRONG_CALLS_PER_LOST_TURN - calls[letter] % WRONG_CALLS_PER_LOST_TURN
        message += f" (wrong call number {calls[letter]}; {left} more and you lose a turn)"
    return ServiceError(409, "WRONG_STOP", message, wrong_calls=calls[letter], turn_lost=lost)
