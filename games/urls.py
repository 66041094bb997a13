"""The HTML pages of the game: lobby, game table and its messages, replay, the public
games, players (blocking and reporting them), rules; and the calendar feed."""

from django.urls import path, re_path

import lib.converters  # noqa: F401  (registers <id:...>)
from games.pages import app, calendar, database, lobby, players, replay, table

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service-worker"),
    path("offline/", app.offline, name="offline"),
    path("account/push/", app.push_subscribe, name="push-subscribe"),
    path("account/push/remove/", app.push_remove, name="push-remove"),
    path("push/renew/", app.push_renew, name="push-renew"),
    path("rules/", players.rules, name="rules"),
    path("challenges/new/", lobby.new_challenge, name="challenge-new"),
    path("computer/", lobby.play_computer, name="play-computer"),
    path("leaderboard/", players.leaderboard, name="leaderboard"),
    path("watch/", players.watch, name="watch"),
    path("database/", database.database, name="database"),
    re_path(
        r"^database/rbank-(?P<label>[0-9]{4}-[0-9]{2})\.txt\.gz$",
        database.month_file,
        name="database-month",
    ),
    path("players/<str:username>/", players.player, name="player"),
    path("players/<str:username>/block/", players.block_player, name="player-block"),
    path("players/<str:username>/report/", players.report_player, name="player-report"),
    *(
        path(
            f"challenges/<id:challenge_id>/{action}/",
            lobby.answer_challenge,
            {"action": action},
            name=f"challenge-{action}",
        )
        for action in ("accept", "decline", "cancel")
    ),
    path("games/<id:game_id>/", table.game_page, name="game"),
    path("games/<id:game_id>/table/", table.game_fragment, name="game-table"),
    path("games/<id:game_id>/play/", table.play, name="game-play"),
    path("games/<id:game_id>/resign/", table.resign, name="game-resign"),
    path("games/<id:game_id>/mail/", table.play_by_mail, name="game-play-by-mail"),
    path("games/<id:game_id>/stalemate/", table.stalemate, name="game-stalemate"),
    path("games/<id:game_id>/stop/", table.stop, name="game-stop"),
    path("games/<id:game_id>/messages/", table.write_message, name="game-messages"),
    path("games/<id:game_id>/note/", table.write_note, name="game-note"),
    path(
        "games/<id:game_id>/messages/<id:message_id>/report/",
        table.report_message,
        name="game-message-report",
    ),
    path("games/<id:game_id>/replay/", replay.replay, name="game-replay"),
    path("games/<id:game_id>/export.txt", replay.export, name="game-export"),
    path("games/<id:game_id>/verify/", replay.verify, name="game-verify"),
    path("invitations/<slug:token>/", lobby.invitation, name="invitation"),
    path("calendar/<slug:token>.ics", calendar.calendar_feed, name="calendar-feed"),
]
