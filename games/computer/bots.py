"""The computer players' part, played through the same services as a person's.

A task (``games.tasks.play_bot_turn``) runs when a bot's turn comes (``games.computer.bot_wake``);
it reads the game, lets the engine's bot (``games.engine.bots``) decide from the bot
seat's view alone, and posts the decision as a person's client would: a Stop! call in
a classic game, then the whole turn, each with the version it was decided on. A task
delivered twice, or one that finds the game moved on, is refused by the version
check and does nothing. Its random generator is keyed by the game and the length of
its record, never by the deal: the same view gives the same play.
"""

from __future__ import annotations

import logging
import random

from django.contrib.auth.models import User

from games.engine import Game as EngineGame
from games.engine import bots
from games.models import SEATS, Game, StopMode
from games.play import services, stalemate, stops
from games.play.store import engine_game
from lib.errors import ServiceError
from lib.logs import fields

logger = logging.getLogger(__name__)


def _at(game_id: int, version: int) -> tuple[Game, EngineGame] | None:
    """The game if it is still at ``version`` and being played."""
    game = Game.objects.prefetch_related(SEATS).filter(pk=game_id).first()
    if game is None or game.version != version or game.status != Game.Status.PLAYING:
        return None
    return game, engine_game(game)


def _rng(game: Game, engine: EngineGame, level: str) -> random.Random:
    return random.Random(f"{game.pk}:{engine.entry_count}:{level}")


def play_turn(game_id: int, version: int) -> str:
    """The bot to move plays: a Stop! call if it sees a slip (classic games), then its
    whole turn. Returns what it did, in words for the log ("" for nothing)."""
    found = _at(game_id, version)
    if found is None:
        return ""
    game, engine = found
    seat = engine.to_move
    bot: User | None = game.user_at(seat)
    level = game.seat_rows[seat].bot_level
    if bot is None or not level:
        return ""
    rng = _rng(game, engine, level)
    done = []
    try:
        if game.stop_mode == StopMode.CLASSIC and engine.can_call_stop(seat):
            called = _call_stop(game, engine, bot, level, rng)
            if called:
                done.append(called)
                game.refresh_from_db()
                engine = engine_game(game)
        if not engine.is_over and engine.to_move == seat:
            moves = [str(move) for move in bots.turn(level, engine.position, seat, rng)]
            services.play_moves(
                game_id=game.pk, user=bot, moves=moves, expected_version=game.version
            )
            done.append(" ".join(moves))
    except ServiceError as refused:
        # Someone acted first (a resignation, an offer): the game's version moved on.
        logger.info("bot passed %s", fields(game=game.pk, level=level, code=refused.code))
        return ""
    logger.info("bot played %s", fields(game=game.pk, level=level, turn="; ".join(done)))
    return "; ".join(done)


def _call_stop(game: Game, engine: EngineGame, bot: User, level: str, rng: random.Random) -> str:
    """Stop! on the first slip of the opponent's last turn, as the level decides."""
    last = engine.last_turn
    if last is None:
        return ""
    before = [position for _, position in engine.recent_steps()]
    slips = []
    for position, move in zip(before, last.moves, strict=False):
        refusal = position.refusal(move)
        slips.append(refusal.code if refusal is not None else None)
    number = bots.stop_call(level, slips, rng)
    if number is None:
        return ""
    try:
        stops.call_stop_on(
            game_id=game.pk, user=bot, move_number=number, expected_version=game.version
        )
    except ServiceError as wrong:
        if wrong.code != "WRONG_STOP":
            raise
        return f"stop {number} (wrong)"
    return f"stop {number}"


def answer_stalemate(game_id: int, version: int) -> str:
    """Every bot with a stalemate offer to answer answers it: yes when the count would
    not make it lose (``games.engine.bots.accepts_stalemate``)."""
    found = _at(game_id, version)
    if found is None:
        return ""
    game, engine = found
    answers = []
    for seat, row in enumerate(game.seat_rows):
        offer = engine.stalemate_offer
        if not row.bot_level or row.user is None or not offer or seat in offer:
            continue
        accept = bots.accepts_stalemate(engine.position, seat)
        try:
            stalemate.answer_stalemate(
                game_id=game.pk, user=row.user, accept=accept, expected_version=game.version
            )
        except ServiceError:
            return ""
        answers.append(f"{row.letter} {'accepts' if accept else 'declines'}")
        game.refresh_from_db()
        engine = engine_game(game)
    return ", ".join(answers)
