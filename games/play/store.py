"""Where a game's engine state lives in its row.

The engine (``games.engine.Game``) owns the whole game; a row keeps what it needs to
go on. While the game is played that is the engine's snapshot (``Game.state``: the
position, the turns, the counts, the record's encoding so far), read back without
replaying anything, so loading a game costs the same at move 2,000 as at move 10.
Once it is over, only its record in the engine's compact encoding (``Game.record``,
a few hundred bytes) is kept: the final position, the log and the export are
replayed from it when somebody asks.

The columns lists and queries read (the game's ``status``, ``to_move``, ``ending``,
``ply``, ``winner``, ``forfeiter``; each seat's ``wrong_calls``, ``offer`` and
``score``) are copied from the engine by ``keep``, with the version every action
bumps; the services save the seats with the game.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from django.utils import timezone

from games.engine import Game as EngineGame
from games.engine.record import CLASSIC, REFEREE
from games.models import Game, StopMode

#: Finished games replayed lately, by their record: their pages are read again and again.
_FINISHED: OrderedDict[bytes, EngineGame] = OrderedDict()
_FINISHED_KEPT: Final = 64


def seed_of(game: Game) -> int | str:
    """The seed as the engine takes it: a scheme 1 seed that is a number as one (a
    shorter encoding); a scheme 2 seed always as its hex text, which a leading zero
    would not survive as a number."""
    if game.deal_scheme == 1 and game.seed.isdigit():
        return int(game.seed)
    return game.seed


def stop_mode_of(game: Game) -> str:
    return CLASSIC if game.stop_mode == StopMode.CLASSIC else REFEREE


def new_engine_game(game: Game, starter: int | None) -> EngineGame:
    """The engine's game for a row about to be dealt."""
    return EngineGame(
        seed_of(game),
        game.game_rules(),
        stop_mode=stop_mode_of(game),
        starter=starter,
        encoding=True,
    )


def engine_game(game: Game) -> EngineGame:
    """The engine's game for a stored game: resumed from its snapshot while it is
    played, replayed from its record once it is over. The engine game of a game that
    is over must not be changed (it may be shared)."""
    if game.state is not None:
        return EngineGame.resume(
            seed_of(game),
            game.game_rules(),
            game.state,
            stop_mode=stop_mode_of(game),
            starter=game.starter,
        )
    assert game.record is not None, f"game {game.pk} has neither state nor record"
    key = bytes(game.record)
    engine = _FINISHED.get(key)
    if engine is None:
        engine = EngineGame.from_encoded(key)
        _FINISHED[key] = engine
        while len(_FINISHED) > _FINISHED_KEPT:
            _FINISHED.popitem(last=False)
    else:
        _FINISHED.move_to_end(key)
    return engine


def keep(game: Game, engine: EngineGame) -> None:
    """Write ``engine`` into the row (not saved) and bump the version: the snapshot
    while it is played, the record once it is over."""
    game.version += 1
    game.to_move = engine.letter(engine.to_move)
    game.status = engine.status
    game.ending = engine.ending or ""
    game.ply = engine.entry_count
    letters = engine.rules.seat_names
    offer, score = engine.stalemate_offer, engine.score
    for index, row in enumerate(game.seat_rows):
        row.wrong_calls = engine.wrong_calls[index]
        row.offer = offer.index(index) if index in offer else None
        row.score = None if score is None else score[index]
    game.winner = "" if engine.winner is None else letters[engine.winner]
    game.forfeiter = "" if engine.forfeiter is None else letters[engine.forfeiter]
    if engine.is_over:
        game.record = engine.encoded()
        game.state = None
        game.finished_at = game.finished_at or timezone.now()
        game.deadline = game.reminder_at = None
        for row in game.seat_rows:
            row.finished_at = game.finished_at
    else:
        game.state = engine.snapshot()
