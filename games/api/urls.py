"""The games' API routes, under ``/api/v1/`` (config/urls.py): one module per resource."""

from __future__ import annotations

from django.urls import path

import lib.converters  # noqa: F401  (registers <id:...>)
from games.api import archive, challenges, games, notes, play, players, review, rules, stream, talk

urlpatterns = [
    path("stream/events/", stream.events, name="api-stream-events"),
    path("players/", players.PlayerListApi.as_view(), name="api-players"),
    path("players/<str:username>/", players.PlayerDetailApi.as_view(), name="api-player"),
    path(
        "players/<str:username>/games/export/",
        archive.PlayerGamesExportApi.as_view(),
        name="api-player-games-export",
    ),
    path("leaderboard/", players.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("rules/", rules.RulesCatalogApi.as_view(), name="api-rules"),
    path("challenges/", challenges.ChallengeListApi.as_view(), name="api-challenges"),
    *(
        path(f"challenges/<id:challenge_id>/{action}/", view.as_view(), name=name)
        for action, view, name in (
            ("accept", challenges.ChallengeAcceptApi, "api-challenge-accept"),
            ("decline", challenges.ChallengeDeclineApi, "api-challenge-decline"),
            ("cancel", challenges.ChallengeCancelApi, "api-challenge-cancel"),
        )
    ),
    path("reports/", talk.ReportApi.as_view(), name="api-reports"),
    path("games/", games.GameListApi.as_view(), name="api-games"),
    path("games/public/", games.PublicGameListApi.as_view(), name="api-public-games"),
    path("games/<id:game_id>/", games.GameDetailApi.as_view(), name="api-game"),
    path("games/<id:game_id>/log/", games.MoveLogApi.as_view(), name="api-game-log"),
    path("games/<id:game_id>/export/", games.ExportApi.as_view(), name="api-game-export"),
    path("games/<id:game_id>/record/", games.RecordApi.as_view(), name="api-game-record"),
    path("games/<id:game_id>/review/", review.ReviewApi.as_view(), name="api-game-review"),
    path("games/<id:game_id>/resign/", play.ResignApi.as_view(), name="api-game-resign"),
    path(
        "games/<id:game_id>/stalemate/offer/",
        play.StalemateOfferApi.as_view(),
        name="api-game-stalemate-offer",
    ),
    path(
        "games/<id:game_id>/stalemate/answer/",
        play.StalemateAnswerApi.as_view(),
        name="api-game-stalemate-answer",
    ),
    path("games/<id:game_id>/moves/", play.PlayMovesApi.as_view(), name="api-game-moves"),
    path(
        "games/<id:game_id>/messages/",
        talk.MessageListApi.as_view(),
        name="api-game-messages",
    ),
    path("games/<id:game_id>/stop/", play.StopApi.as_view(), name="api-game-stop"),
    path("games/<id:game_id>/note/", notes.NoteApi.as_view(), name="api-game-note"),
    path(
        "games/<id:game_id>/play-by-mail/",
        games.PlayByMailApi.as_view(),
        name="api-game-play-by-mail",
    ),
]
