"""Who follows what happens in a game: the one table of subscriptions
(``games.play.happenings``), read once when the app is ready (``games.apps``).

A feature that must learn of a game's turns or its end adds its line here and its
subscriber in its own room; the play services never change for it.
"""

from __future__ import annotations

from games.computer import bot_wake
from games.feed import subscribers as feed
from games.lobby import matches, ratings
from games.notify import tell
from games.pages import poll
from games.play.happenings import (
    GameDealt,
    GameEnded,
    MessageWritten,
    MovesPlayed,
    PlayerAway,
    ReminderDue,
    Saved,
    StalemateDeclined,
    StalemateOffered,
    StopCalled,
    TurnPassed,
    subscribe,
)
from games.review import services as review


def subscribe_all() -> None:
    """In order: e-mails, then the API's events, then the rest; on ``Saved`` the events
    are written before the computer players are cued."""
    subscribe(GameDealt, tell.game_dealt)
    subscribe(GameDealt, feed.game_dealt)
    subscribe(GameDealt, bot_wake.game_dealt)
    subscribe(MovesPlayed, feed.moves_played)
    subscribe(TurnPassed, tell.turn_passed)
    subscribe(TurnPassed, feed.turn_passed)
    subscribe(GameEnded, tell.game_ended)
    subscribe(GameEnded, feed.game_ended)
    subscribe(GameEnded, ratings.game_ended)
    subscribe(GameEnded, matches.game_ended)
    subscribe(GameEnded, review.game_ended)
    subscribe(MessageWritten, tell.message_written)
    subscribe(MessageWritten, feed.message_written)
    subscribe(MessageWritten, poll.message_written)
    subscribe(StalemateOffered, tell.stalemate_offered)
    subscribe(StalemateOffered, feed.stalemate_offered)
    subscribe(StalemateDeclined, tell.stalemate_declined)
    subscribe(StopCalled, tell.stop_called)
    subscribe(StopCalled, feed.stop_called)
    subscribe(ReminderDue, tell.reminder_due)
    subscribe(PlayerAway, tell.player_away)
    subscribe(Saved, feed.saved)
    subscribe(Saved, bot_wake.saved)
