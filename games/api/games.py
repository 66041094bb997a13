"""REST API of games (``/api/v1/games/``): a game from the caller's seat or a
spectator's, the lists of games, a game's log, record and export, and playing it by
mail. Thin views: parse input, call one service, render through the serializer."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.examples import GAME, SPECTATED
from games.engine import PRESETS
from games.engine import Game as EngineGame
from games.models import Game, StopMode
from games.notify import mail_play
from games.play import selectors
from games.play.store import engine_game
from lib import fields
from lib.api import player_of
from lib.errors import ServiceError
from lib.openapi import errors
from lib.pagination import ListApi
from lib.serializers import RequestBody


class GameSummarySerializer(serializers.Serializer[dict[str, Any]]):
    id = fields.IntegerField()
    version = fields.IntegerField()
    rules = fields.CharField(help_text="The preset")
    rule_options = serializers.DictField(help_text="Options changed from the preset")
    stop_mode = serializers.ChoiceField(
        choices=StopMode.values,
        help_text="referee: every violation refused; classic: the opponent may call Stop!",
    )
    wrong_calls = serializers.DictField(
        child=fields.IntegerField(), help_text="Wrong Stop! calls per seat (R7.5)"
    )
    players = serializers.DictField(child=fields.CharField())
    public = fields.BooleanField(
        help_text="Anyone may watch it (docs/spectators.md); false: its players only"
    )
    seat = fields.CharField(
        allow_null=True, help_text="The caller's seat; null: a spectator's view (not a player)"
    )
    status = fields.CharField()
    to_move = fields.CharField()
    your_turn = fields.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    match = fields.IntegerField(allow_null=True)
    stalemate_offer = fields.CharField(allow_null=True)
    clock = serializers.DictField(
        help_text="The time control; bank_seconds: each seat's time bank when its turn began"
    )


class ContributionSerializer(serializers.Serializer[dict[str, Any]]):
    seat = fields.CharField()
    value = fields.CharField(help_text="32 to 64 hexadecimal digits")
    by = serializers.ChoiceField(
        choices=["player", "server"],
        help_text="player: the seat's player gave it; server: the server drew it for them",
    )


class FairDealSerializer(serializers.Serializer[dict[str, Any]]):
    """How the seed was made (docs/fair-deal.md)."""

    scheme = fields.IntegerField(
        help_text="1: the server's seed, committed to at the deal (older games); "
        "2: derived from the server's secret and every seat's contribution"
    )
    commitment = fields.CharField(
        help_text="Scheme 2: SHA-256 of 'rbank-commit/2:' + the server's secret, published "
        "with the challenge; scheme 1: SHA-256 of 'rbank-deal/1:' + the seed"
    )
    contributions = ContributionSerializer(many=True)
    server_secret = fields.CharField(
        allow_null=True, help_text="Revealed once the game is over (scheme 2)"
    )
    seed = fields.CharField(allow_null=True, help_text="Revealed once the game is over")


class GameStateSerializer(GameSummarySerializer):
    """The game as the caller's seat sees it (never a face-down card)."""

    position = serializers.DictField()
    legal_moves = serializers.ListField(child=fields.CharField())
    last_turn = serializers.DictField(
        help_text='The previous turn: {"seat": "B", "moves": [...], "stopped": null, '
        '"correction": null, "lost": false}; after a Stop! "stopped" is the move number '
        'called and "correction" the compulsory move carried out; "lost": the turn was lost '
        "to a third wrong Stop! call (R7.5), with no moves"
    )
    can_call_stop = fields.BooleanField(
        help_text="Classic games: you may call Stop! on a move of your opponent's last turn "
        "now (before your first move). It says nothing about whether that turn held a violation."
    )
    current_turn = serializers.ListField(
        child=fields.CharField(), help_text="The moves of the turn under way"
    )
    ply = fields.IntegerField()
    seed_hash = fields.CharField(help_text="The commitment (fair_deal.commitment)")
    seed = fields.CharField(allow_null=True, help_text="The deal's seed, once the game is over")
    fair_deal = FairDealSerializer()


class GameDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: GameStateSerializer, **errors(404)},
        examples=[GAME, SPECTATED],
        summary="A game from the caller's seat, or a spectator's (a public game)",
        description="A player gets their seat's view and legal moves; anyone else, signed "
        "in or not, the spectator's view of a public game (seat null, only the cards face "
        "up for everyone, no legal moves). A private game is 404 to anyone but its players.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, seat = selectors.game_to_watch(request.user, game_id)
        return _game_seen_from(game, seat)


class PlayByMailSerializer(RequestBody):
    play_by_mail = serializers.BooleanField(
        allow_null=True,
        help_text="true: this game's turns come by e-mail with the moves menu, and a reply "
        "plays; false: notices only; null: as my preference (PATCH /me/) says",
    )
    plays_by_mail = fields.BooleanField(
        read_only=True, help_text="Whether I now play this game by mail"
    )


class PlayByMailApi(APIView):
    @extend_schema(
        request=PlayByMailSerializer,
        responses={200: PlayByMailSerializer, **errors(400, 404, 413)},
        examples=[
            OpenApiExample("Play it by mail", value={"play_by_mail": True}, request_only=True),
            OpenApiExample(
                "Played by mail",
                value={"play_by_mail": True, "plays_by_mail": True},
                response_only=True,
            ),
        ],
        summary="Play this game by mail, or by notices only (docs/play-by-mail.md)",
    )
    def put(self, request: Request, game_id: int) -> Response:
        data = PlayByMailSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        choice = data.validated_data["play_by_mail"]
        now = mail_play.set_play_by_mail(
            game_id=game_id, user=player_of(request), play_by_mail=choice
        )
        return Response(PlayByMailSerializer({"play_by_mail": choice, "plays_by_mail": now}).data)


class GameListApi(ListApi):
    @extend_schema(
        examples=[
            OpenApiExample(
                "My games",
                value={name: GAME.value[name] for name in GameSummarySerializer().fields},
                response_only=True,
            )
        ],
        parameters=[
            OpenApiParameter(
                "filter",
                str,
                enum=["my_turn", "active", "finished"],
                required=False,
                description="my_turn: games waiting for you; active: being played; finished.",
            )
        ],
        responses={200: GameSummarySerializer(many=True), **errors(400)},
        summary="My games, soonest deadline first",
    )
    def get(self, request: Request) -> Response:
        user = player_of(request)
        choice = request.query_params.get("filter")
        if choice not in (None, "my_turn", "active", "finished"):
            raise ServiceError(400, "BAD_REQUEST", _("filter must be my_turn, active or finished"))
        return self.page(
            request,
            selectors.my_games(user, filter_=choice),
            lambda game: _summary(game, game.seat_of(user.pk)),
        )


class PublicGameListApi(ListApi):
    """The public games being played: anyone may watch them (docs/spectators.md)."""

    permission_classes = [AllowAny]

    @extend_schema(
        examples=[
            OpenApiExample(
                "Games to watch",
                value={
                    **{name: SPECTATED.value[name] for name in GameSummarySerializer().fields},
                    "players": {"A": "carol", "B": "dora"},
                },
                response_only=True,
            )
        ],
        parameters=[
            OpenApiParameter(
                "rules",
                str,
                enum=sorted(PRESETS),
                required=False,
                description="Only games of this preset (GET /api/v1/rules/)",
            ),
            OpenApiParameter(
                "player",
                str,
                required=False,
                description="Only games this player (a username, any case) plays in",
            ),
        ],
        responses={200: GameSummarySerializer(many=True), **errors(400)},
        summary="Public games being played, to watch (no sign-in needed)",
        description="Newest activity first. Each game is seen from the caller's seat when "
        "they play in it, else from a spectator's (seat null): GET /api/v1/games/{id}/ "
        "shows its table.",
    )
    def get(self, request: Request) -> Response:
        rules = request.query_params.get("rules")
        if rules is not None and rules not in PRESETS:
            raise ServiceError(
                400,
                "BAD_REQUEST",
                _("unknown rules %(rules)s: %(presets)s")
                % {"rules": repr(rules[:40]), "presets": ", ".join(PRESETS)},
            )
        # A null character can be in no username, and no text column can compare with it.
        player = request.query_params.get("player", "").replace("\x00", "")
        return self.page(
            request,
            selectors.public_games(rules=rules, player=player or None),
            lambda game: _summary(game, game.seat_of(request.user.pk)),
        )


class MoveLogEntrySerializer(serializers.Serializer[dict[str, Any]]):
    index = fields.IntegerField()
    turn = fields.IntegerField()
    seat = fields.CharField()
    entry = fields.CharField(
        help_text="The record entry as docs/notation.md writes it: A H3-F1, B resigns, "
        "B stop 2 S2 C-F3"
    )
    move = fields.CharField(
        help_text="A move in the notation, or an event: resigns, times-out, agrees-stalemate, "
        "stop:N:MOVE (a Stop! call on move N of the opponent's last turn, MOVE carried out), "
        "loses-turn"
    )
    violation = fields.CharField(
        required=False,
        allow_null=True,
        help_text="Finished games only: the priority violation the move held (S1-S3; S6, "
        "S7 under options V5, V12)",
    )
    called = fields.BooleanField(
        required=False, help_text="Finished games only: whether Stop! was called on the move"
    )

    def to_representation(self, instance: dict[str, Any]) -> dict[str, Any]:
        # While the game is played the slips are secret (R7.4): not even their key is sent.
        data = super().to_representation(instance)
        return {name: value for name, value in data.items() if name in instance}


class MoveLogApi(ListApi):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: MoveLogEntrySerializer(many=True), **errors(400, 404)},
        examples=[
            OpenApiExample(
                "The log",
                value={"index": 0, "turn": 0, "seat": "A", "move": "H3-F1"},
                response_only=True,
            )
        ],
        summary="Every move of a game, in order (a public game's to anyone)",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, _seat = selectors.game_to_watch(request.user, game_id)
        return self.page(
            request,
            selectors.move_log(engine_game(game)),
            lambda entry: MoveLogEntrySerializer(entry).data,
        )


class RecordApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **errors(404, 409)},
        examples=[
            OpenApiExample(
                "A finished game",
                value={
                    "id": 42,
                    "seed": "1234567890",
                    "seed_hash": "9f2c…",
                    "start": {"format": "rbank-position/1", "...": "the deal, every card"},
                    "moves": [{"index": 0, "turn": 0, "seat": "A", "move": "T"}],
                    "status": "won",
                    "ending": "cards",
                    "winner": "A",
                    "score": {"A": 57, "B": 0},
                },
                response_only=True,
            )
        ],
        summary="The full record of a finished game: the deal revealed, every move, scores",
        description="To its players, and to anyone once a public game is over.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, _seat = selectors.game_to_watch(request.user, game_id)
        return Response(selectors.game_record(game))


class ExportApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={(200, "text/plain"): OpenApiTypes.STR, **errors(404)},
        examples=[
            OpenApiExample(
                "An export",
                value='[Game "42"]\n[Rules "pagat"]\n[A "alice"]\n[B "bob"]\n'
                '[SeedHash "9f2c…"]\n[Status "playing"]\n\n1 A: H3-F1 T C-W\n2 B: T C-W\n',
                response_only=True,
                media_type="text/plain",
            )
        ],
        summary="The game in the notation (the seed once it is over), with its messages",
        description="The messages the caller may read are comment lines, {B: well played}: "
        "a player's all but those of players they block; a spectator's none while the "
        "game is played.",
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        game, seat = selectors.game_to_watch(request.user, game_id)
        response = HttpResponse(
            selectors.export_game(game, request.user, seat),
            content_type="text/plain; charset=utf-8",
        )
        response["Content-Disposition"] = f'inline; filename="russian-bank-{game.pk}.txt"'
        return response


def _summary(game: Game, seat: int | None) -> dict[str, Any]:
    """A game in a list, from ``seat`` (None: a spectator's)."""
    return GameSummarySerializer(selectors.game_summary(game, seat)).data


def game_response(request: Request, game: Game, engine: EngineGame | None = None) -> Response:
    """The game from the caller's seat in it (a write's answer: the caller plays)."""
    return _game_seen_from(game, game.seat_of(request.user.pk), engine)


def _game_seen_from(game: Game, seat: int | None, engine: EngineGame | None = None) -> Response:
    """The game from ``seat`` (None: a spectator's), with its version as the ETag."""
    state = selectors.game_state(game, seat, engine)
    return Response(GameStateSerializer(state).data, headers={"ETag": f'"{game.version}"'})
