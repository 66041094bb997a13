"""The API's events that follow what happens in a game (``games.play.happenings``),
for each player it concerns (``games.feed.events``). Subscribed by ``games.apps``.

An action's events carry the version the action left: those of a move are queued on
the game (``events.later``) and written once it is stored (``Saved``); those told
after the store (an offer, a Stop!) are written at once.
"""

from __future__ import annotations

from games import talk
from games.feed import events
from games.play.happenings import (
    GameDealt,
    GameEnded,
    MessageWritten,
    MovesPlayed,
    Saved,
    StalemateOffered,
    StopCalled,
    TurnPassed,
)


def game_dealt(happening: GameDealt) -> None:
    game, engine = happening.game, happening.engine
    player = game.user_at(engine.to_move)
    events.emit(
        "game_started",
        game.players,
        game=game,
        players=game.names(),
        rules=game.rules,
        rated=game.rated,
        match=game.match_id,
    )
    events.emit(
        "your_turn",
        [player],
        game=game,
        seat=game.letters[engine.to_move],
        last_turn=[],
        lost_turn=False,
        deadline=game.deadline,
        messages=[],  # nobody has written yet: a your_turn has the same fields every time
    )


def moves_played(happening: MovesPlayed) -> None:
    game = happening.game
    events.later(
        game, "move", game.players, seat=game.letters[happening.seat], moves=happening.moves
    )


def turn_passed(happening: TurnPassed) -> None:
    game = happening.game
    player = game.user_at(happening.to)
    carried = talk.for_reader(happening.messages, player)
    events.later(
        game,
        "your_turn",
        [player],
        seat=game.letters[happening.to],
        last_turn=happening.last_turn,
        lost_turn=happening.lost,
        deadline=game.deadline,
        messages=[talk.as_data(message, game) for message in carried],
    )


def game_ended(happening: GameEnded) -> None:
    game = happening.game
    outcome = {"ending": game.ending, "winner": game.winner or None, "score": game.score}
    events.later(game, "game_over", game.players, **outcome)


def message_written(happening: MessageWritten) -> None:
    """A "message" event for each reader: written with the moves it came with, else now."""
    game, message = happening.game, happening.message
    for reader in happening.readers:
        events.later(game, "message", [reader], message=talk.as_data(message, game))
    if not happening.with_moves:
        events.flush(game)


def stalemate_offered(happening: StalemateOffered) -> None:
    game = happening.game
    events.emit("stalemate_offered", game.players, game=game, by=game.letters[happening.seat])


def stop_called(happening: StopCalled) -> None:
    game = happening.game
    events.emit(
        "stop_called",
        game.players,
        game=game,
        by=game.letters[happening.seat],
        stopped=game.letters[happening.stopped],
        move_number=happening.move_number,
        move=happening.move,
        code=happening.code,
        correction=happening.correction,
    )


def saved(happening: Saved) -> None:
    events.flush(happening.game)
