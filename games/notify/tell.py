"""The e-mails that follow what happens in a game (``games.play.happenings``): each
player hears of their turn, the end, an offer, a Stop!, a reminder, a message, as
their preferences say (``notifications.notify``). Subscribed by ``games.apps``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User

from games import talk
from games.engine import BY_TIMEOUT
from games.models import Game, Message
from games.notify.notifications import notify
from games.play.happenings import (
    GameDealt,
    GameEnded,
    MessageWritten,
    PlayerAway,
    ReminderDue,
    StalemateDeclined,
    StalemateOffered,
    StopCalled,
    TurnPassed,
)


def _message_ids(messages: Sequence[Message]) -> dict[str, Any]:
    """What an e-mail's row keeps of the messages it carries (read when it is sent)."""
    return {"message_ids": [message.pk for message in messages]} if messages else {}


def tell(game: Game, messages: Sequence[Message], reader: User | None) -> None:
    """E-mail ``reader`` the ``messages`` no other e-mail carries (kind "message")."""
    if messages and reader is not None:
        notify("message", user=reader, game=game, **_message_ids(messages))


def game_dealt(happening: GameDealt) -> None:
    game, engine = happening.game, happening.engine
    player = game.user_at(engine.to_move)
    notify("your_turn", user=player, game=game, last_turn=[], lost_turn=False, first_turn=True)


def turn_passed(happening: TurnPassed) -> None:
    """The next player's "your turn", with what was written during the turn; a third
    seat hears the turn's messages at once (no "your turn" carries them)."""
    game = happening.game
    player = game.user_at(happening.to)
    notify(
        "your_turn",
        user=player,
        game=game,
        last_turn=happening.last_turn,
        lost_turn=happening.lost,
        **_message_ids(talk.for_reader(happening.messages, player)),
    )
    for other in game.players:
        if other is not None and other != player:
            tell(game, talk.for_reader(happening.messages, other), other)


def game_ended(happening: GameEnded) -> None:
    game = happening.game
    kind = "timeout" if game.ending == BY_TIMEOUT else "game_over"
    for player in game.players:
        carried = talk.for_reader(happening.messages, player)
        notify(kind, user=player, game=game, **_message_ids(carried))


def message_written(happening: MessageWritten) -> None:
    if happening.at_once:
        for reader in happening.readers:
            tell(happening.game, [happening.message], reader)


def stalemate_offered(happening: StalemateOffered) -> None:
    for other, player in enumerate(happening.game.players):
        if other != happening.seat:
            notify("stalemate_offer", user=player, game=happening.game)


def stalemate_declined(happening: StalemateDeclined) -> None:
    """Those who had agreed hear of it."""
    for other in happening.agreed:
        notify("stalemate_declined", user=happening.game.user_at(other), game=happening.game)


def stop_called(happening: StopCalled) -> None:
    """The player whose move was stopped hears why, in their language."""
    notify(
        "stop_called",
        user=happening.game.user_at(happening.stopped),
        game=happening.game,
        move_number=happening.move_number,
        move=happening.move,
        code=happening.code,
        reason=happening.reason,
        refusal=happening.refusal,
        correction=happening.correction,
    )


def reminder_due(happening: ReminderDue) -> None:
    notify(
        "reminder",
        user=happening.game.user_at(happening.seat),
        game=happening.game,
        hours_left=happening.hours_left,
    )


def player_away(happening: PlayerAway) -> None:
    for other, opponent in enumerate(happening.game.players):
        if other != happening.seat:
            notify(
                "vacation",
                user=opponent,
                game=happening.game,
                until=happening.until.isoformat(),
                days=happening.days,
            )
