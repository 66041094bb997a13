"""The only code that writes games: one transaction per action, the game row locked.

Every rule is the engine's (``games.engine.Game``): a service loads the engine game
from its row (``games.play.store``), asks it to act, stores what it became, and does what
the rules do not know of: versions, clocks, e-mails, matches. Views and tasks call
these functions and never touch a model's fields directly (HackSoft styleguide).
Every refusal raises a ``ServiceError`` carrying the HTTP status and the error code
the API returns unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import talk
from games.engine import Game as EngineGame
from games.engine import GameError, MoveRefused, Refusal
from games.engine.messages import render
from games.models import Game, Message, Seat
from games.play import deadlines
from games.play.happenings import (
    GameEnded,
    MessageWritten,
    MovesPlayed,
    Saved,
    TurnPassed,
    publish,
)
from games.play.store import engine_game, keep
from games.words.cards import card_short
from games.words.engine_messages import catalogue
from lib.errors import ServiceError
from lib.logs import fields, logs_refusals

logger = logging.getLogger(__name__)

#: Most moves one request may post (a turn rarely holds more than a few dozen).
MAX_MOVES_PER_REQUEST = 600

#: A refusal by the rules is a conflict with the game as it stands (409): the same
#: request may be right in another position. Only a request no position could take is 400.
_MALFORMED = frozenset({"NO_MOVES"})
#: Engine codes the API gives under another name.
_CODES = {"NO_MOVES": "BAD_REQUEST"}


def _not_found() -> ServiceError:
    # Strangers get the same answer for a private game as for no game at all.
    return ServiceError(404, "NOT_FOUND", _("no such game"))


def refused(game: Game, exc: Refusal) -> ServiceError:
    """The engine's refusal as the API gives it: its code, an HTTP status, its words
    in the request's language with seats named by their players, and its parameters
    for programs."""
    names = game.names()
    params = dict(exc.params)
    for key in ("to_move", "offerer"):  # a seat, as its player reads it
        letter = params.get(key)
        if isinstance(letter, str):
            # Translators: stands for {to_move} or {offerer} in the engine's messages,
            # as in "it is {to_move}'s turn".
            params[key] = _("your opponent") if len(names) == 2 else names.get(letter, letter)
    extra: dict[str, Any] = {}
    status = 400 if exc.code in _MALFORMED else 409
    if isinstance(exc, MoveRefused):
        extra = {"move": params["move"], "index": params["index"]}
    if exc.code == "WRONG_STOP":
        extra = {"wrong_calls": params["wrong_calls"], "turn_lost": params["turn_lost"]}
    words = render(exc.reason, params, catalogue=catalogue(), card=card_short)
    return ServiceError(status, _CODES.get(exc.code, exc.code), words, **extra)


@dataclass(frozen=True)
class MovesResult:
    game: Game
    applied: list[str]
    engine: EngineGame | None = None  # the game as this call left it


@logs_refusals("move")
def play_moves(
    *,
    game_id: int,
    user: User,
    moves: Sequence[str],
    expected_version: int | None = None,
    message: str | None = None,
) -> MovesResult:
    """Apply a list of moves for ``user``'s seat, all or none, under the game's row lock,
    with a ``message`` to the others if given (stored with the moves, or not at all;
    it goes with the turn: ``games.talk``)."""
    text = None if message is None else talk.clean(message)
    if not moves:
        raise ServiceError(400, "BAD_REQUEST", _("send at least one move"))
    if len(moves) > MAX_MOVES_PER_REQUEST:
        raise ServiceError(
            400,
            "BAD_REQUEST",
            _("at most %(count)s moves per request") % {"count": MAX_MOVES_PER_REQUEST},
        )
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        try:
            entries = engine.play(seat, list(moves))
        except GameError as exc:
            raise refused(game, exc) from None
        applied = [str(entry.move) for entry in entries]
        publish(MovesPlayed(game, seat, applied))
        if text is not None:
            written = talk.store(game, seat, user, text, ply=engine.entry_count, told=False)
            publish(MessageWritten(game, written, talk.readers(game, written), with_moves=True))
        record_turns(game, engine, seat)
        save(game, engine)
        return MovesResult(game, applied, engine=engine)


def record_turns(game: Game, engine: EngineGame, seat: int) -> None:
    """After ``seat`` acted: if its turn passed, charge its clock, start the next
    seat's, and tell who follows (not saved)."""
    if engine.is_over or engine.to_move == seat:
        return
    now = timezone.now()
    deadlines.charge_turn(game, seat, now)
    deadlines.start_turn(game, engine.to_move, now)
    game.ply = engine.entry_count  # the e-mail shows the game as it is now
    last = engine.last_turn
    publish(
        TurnPassed(
            game,
            seat,
            engine.to_move,
            last_turn=[] if last is None else [str(m) for m in last.moves],
            lost=last is not None and last.lost,
            messages=talk.deliver(game),  # what was written during the turn goes with it
        )
    )


def lock_for_player(game_id: int, user: User) -> tuple[Game, int]:
    """The game row, locked until the transaction ends, and the user's seat in it."""
    game = Game.locked(game_id)
    seat = None if game is None else game.seat_of(user.pk)
    if game is None or seat is None:
        raise _not_found()
    return game, seat


def check_version(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise ServiceError(
            412,
            "STALE_VERSION",
            _(
                "the game has changed (version %(version)s, you sent %(sent)s): "
                "reload it and try again"
            )
            % {"version": game.version, "sent": expected_version},
            version=game.version,
        )


def playing_engine(game: Game) -> EngineGame:
    """The engine game of a game still being played."""
    if game.state is None:
        raise ServiceError(409, "GAME_OVER", _("the game is over"))
    return engine_game(game)


def save(game: Game, engine: EngineGame) -> None:
    """Store the engine game and bump the version; a game just over is told as ended
    (with the last turn's messages). Every action ends here (``Saved``)."""
    was_playing = game.state is not None
    keep(game, engine)
    game.save()
    changed = game.changed_seats()
    if changed:
        Seat.objects.bulk_update(changed, ["bank", "wrong_calls", "offer", "score", "finished_at"])
    if engine.is_over and was_playing:
        logger.info(
            "game over %s",
            fields(game=game.pk, status=game.status, ending=game.ending, score=engine.score),
        )
        publish(GameEnded(game, engine, messages=talk.deliver(game)))
    publish(Saved(game, engine))


@logs_refusals("message")
def write_message(*, game_id: int, user: User, text: str) -> Message:
    """``user`` writes to the others at a game (its page's form, the API): at any time,
    the game over included. Written while it is the writer's turn, it goes with the
    turn; otherwise the others are told at once (``games.talk``)."""
    text = talk.clean(text)
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        at_once = talk.told_at_once(game, seat)
        message = talk.store(game, seat, user, text, ply=game.ply, told=at_once)
        publish(MessageWritten(game, message, talk.readers(game, message), at_once=at_once))
        return message


@logs_refusals("resign")
def resign(*, game_id: int, user: User, expected_version: int | None = None) -> Game:
    """R8.6: the user's seat forfeits; the others score (the engine's forfeit)."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        act(game, lambda: engine.resign(seat))
        save(game, engine)
        return game


def timeout(game: Game) -> None:
    """R8.6: the seat to move ran out of time (the deadline sweep checked it under the
    row lock)."""
    engine = playing_engine(game)
    act(game, lambda: engine.timeout(engine.to_move))
    save(game, engine)


def act(game: Game, action: Callable[[], object]) -> None:
    """Carry out an engine action; its refusal becomes the API's."""
    try:
        action()
    except GameError as exc:
        raise refused(game, exc) from None


def resign_every_game(sender: object, *, user: User, **kwargs: Any) -> int:
    """A player's account is about to go (``accounts.signals.account_deleting``): they
    resign every game they are playing (R8.6: the others need not wait for their
    clock). Returns how many."""
    playing = list(
        Game.objects.filter(seats__user=user, status=Game.Status.PLAYING).values_list(
            "pk", flat=True
        )
    )
    for game_id in playing:
        resign(game_id=game_id, user=user)
    return len(playing)
