"""The HTML pages of the game: lobby, game table and its messages, replay, the public
games, players (blocking and reporting them), rules; and the calendar feed."""

from django.urls import path

from games.pages import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rules/", views.rules, name="rules"),
    path("challenges/new/", views.new_challenge, name="challenge-new"),
    path("computer/", views.play_computer, name="play-computer"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("watch/", views.watch, name="watch"),
    path("players/<str:username>/", views.player, name="player"),
    path("players/<str:username>/block/", views.block_player, name="player-block"),
    path("players/<str:username>/report/", views.report_player, name="player-report"),
    *(
        path(
            f"challenges/<int:challenge_id>/{action}/",
            views.answer_challenge,
            {"action": action},
            name=f"challenge-{action}",
        )
        for action in ("accept", "decline", "cancel")
    ),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/table/", views.game_fragment, name="game-table"),
    path("games/<int:game_id>/play/", views.play, name="game-play"),
    path("games/<int:game_id>/resign/", views.resign, name="game-resign"),
    path("games/<int:game_id>/mail/", views.play_by_mail, name="game-play-by-mail"),
    path("games/<int:game_id>/stalemate/", views.stalemate, name="game-stalemate"),
    path("games/<int:game_id>/stop/", views.stop, name="game-stop"),
    path("games/<int:game_id>/messages/", views.write_message, name="game-messages"),
    path(
        "games/<int:game_id>/messages/<int:message_id>/report/",
        views.report_message,
        name="game-message-report",
    ),
    path("games/<int:game_id>/replay/", views.replay, name="game-replay"),
    path("games/<int:game_id>/export.txt", views.export, name="game-export"),
    path("invitations/<slug:token>/", views.invitation, name="invitation"),
    path("calendar/<slug:token>.ics", views.calendar_feed, name="calendar-feed"),
]
