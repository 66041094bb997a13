"""REST API for games (``/api/v1/``): thin views that parse input, call one service, render."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth.models import User
from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.conduct import MAX_DETAILS, report_player
from accounts.models import Report
from games import talk
from games.api.writes import HEADERS, expected_version, write
from games.engine import PRESETS, TEXT_PATTERN
from games.engine import Game as EngineGame
from games.lobby import challenges, ratings, rules_catalog
from games.models import Challenge, Game, StopMode
from games.notify import mail_play
from games.play import selectors, services, stalemate, stops
from games.play.clocks import TimeControl
from games.play.store import engine_game
from lib import fields
from lib.api import player_of
from lib.errors import ServiceError
from lib.openapi import (
    GAME,
    MESSAGE,
    MESSAGE_ERRORS,
    MOVES,
    NO_BODY,
    ONE_MOVE,
    SPECTATED,
    errors,
)
from lib.pagination import ListApi
from lib.serializers import NoBody, RequestBody


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


class RulesCatalogApi(APIView):
    """The rule presets and options a game may be made with: no sign-in needed."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        examples=[
            OpenApiExample(
                "Presets and options",
                value={
                    "presets": [
                        {"name": "pagat", "description": "The modern standard game…", "options": {}}
                    ],
                    "options": [
                        {
                            "name": "lenient_turn",
                            "description": "V8: you may turn your hand card…",
                            "default": False,
                            "values": [False, True],
                        }
                    ],
                    "stop_modes": ["referee", "classic"],
                },
                response_only=True,
            )
        ],
        summary="Rule presets and options (RULES.md §9)",
    )
    def get(self, request: Request) -> Response:
        return Response(
            {
                "presets": rules_catalog.presets(),
                "options": [asdict(option) for option in rules_catalog.options()],
                "stop_modes": StopMode.values,
            }
        )


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
    seed_hash = fields.CharField()
    seed = fields.CharField(allow_null=True)


#: A move as the notation writes it (docs/notation.md): letters and digits, one dash.
MOVE_TEXT = RegexValidator(
    f"^{TEXT_PATTERN}$", gettext_lazy("a move is written like H3-F1, T or C-W")
)


#: A message holds a character that is no space, no control character and no mark
#: that turns the text's direction: ``talk.clean`` takes those out, and a message with
#: nothing else is refused (400 EMPTY_MESSAGE). The schema says so.
MESSAGE_PATTERN = (
    r"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202a-\u202f\u205f"
    r"\u2066-\u2069\u3000]"
)


@extend_schema_field(
    {
        "type": "string",
        "minLength": 1,
        "maxLength": talk.MAX_LENGTH,
        "pattern": MESSAGE_PATTERN,
    }
)
class MessageTextField(fields.CharField):
    """A message as the player typed it: ``games.talk`` cleans it and refuses an empty
    one (EMPTY_MESSAGE); here only what the schema states is checked, the length as
    sent (MESSAGE_TOO_LONG). Control characters (a null one too) are the service's to
    take out, not a reason to refuse the request."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, **kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]

    def run_validation(self, data: Any = empty) -> Any:
        if data == "":
            return data  # EMPTY_MESSAGE, as the service says of every empty message
        return super().run_validation(data)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        if len(text) > talk.MAX_LENGTH:
            raise talk.too_long(len(text))
        return text


class MovesSerializer(RequestBody):
    moves = serializers.ListField(
        child=fields.CharField(max_length=16, validators=[MOVE_TEXT]),
        min_length=1,
        max_length=services.MAX_MOVES_PER_REQUEST,
        help_text="Moves in the notation, applied in order, all or none: ['H3-F1', 'T', 'C-W'].",
    )
    expected_version = fields.IntegerField(
        required=False, min_value=1, help_text="The version you saw; 412 if the game has moved on."
    )
    message = MessageTextField(
        required=False,
        help_text="A message to the others, stored with the moves (all or none) and told "
        "with your turn (docs/messages.md): plain text, at most 500 characters as sent",
    )


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


class PlayMovesApi(APIView):
    @extend_schema(
        request=MovesSerializer,
        responses={
            200: GameStateSerializer,
            **errors(400, 404, 409, 412, 413, more=MESSAGE_ERRORS),
        },
        examples=[
            MOVES,
            ONE_MOVE,
            OpenApiExample(
                "A turn with a message",
                value={"moves": ["T", "C-W"], "message": "Nice reserve play!"},
                request_only=True,
            ),
            GAME,
        ],
        parameters=HEADERS,
        summary="Post one move or a whole list (all or none), with a message if you like",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = MovesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.play_moves(
            game_id=game_id,
            user=player_of(request),
            moves=data.validated_data["moves"],
            expected_version=expected_version(request, data.validated_data),
            message=data.validated_data.get("message"),
        )
        return _game_response(request, result.game, result.engine)


class MessageSerializer(serializers.Serializer[dict[str, Any]]):
    """A message at a game (docs/messages.md), as the API and the events give it."""

    id = fields.IntegerField(help_text="What POST /api/v1/reports/ names to report it")
    seat = fields.CharField(help_text="The writer's seat")
    author = fields.CharField(help_text='The writer\'s username ("deleted player" once gone)')
    text = fields.CharField(
        help_text="Plain text, as the player wrote it (lines end with \\n): never markup, "
        "show it as text"
    )
    ply = fields.IntegerField(
        help_text="The record's length when it was written: it follows that many entries "
        "of the log (0: before the first move)"
    )
    created_at = serializers.DateTimeField()


class WriteMessageSerializer(RequestBody):
    text = MessageTextField(
        help_text="Plain text, at most 500 characters as sent; control characters are "
        "taken out, and a message with nothing else is refused (EMPTY_MESSAGE)"
    )


class MessageListApi(ListApi):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: MessageSerializer(many=True), **errors(400, 404)},
        examples=[MESSAGE],
        summary="The messages at a game you may read, oldest first",
        description="A player reads every message but those of players they block; a "
        "public game's spectator none while it is played, all once it is over.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, seat = selectors.game_to_watch(request.user, game_id)
        return self.page(
            request,
            selectors.messages_for(game, request.user, seat),
            lambda message: MessageSerializer(talk.as_data(message, game)).data,
        )

    @extend_schema(
        request=WriteMessageSerializer,
        responses={201: MessageSerializer, **errors(400, 404, 409, 413, more=MESSAGE_ERRORS)},
        examples=[
            OpenApiExample(
                "Between turns", value={"text": "Away until Monday, sorry!"}, request_only=True
            ),
            MESSAGE,
        ],
        parameters=HEADERS,
        summary="Write to the other players at a game you play (at any time)",
        description="On your turn the message goes with the turn (the next player reads it "
        "in their your_turn event and e-mail); otherwise the others are told at once (a "
        "message event and e-mail). A message changes no version: If-Match is not checked.",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = WriteMessageSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = player_of(request)
        message = services.write_message(
            game_id=game_id, user=user, text=data.validated_data["text"]
        )
        game = selectors.game_for(user, game_id)
        return Response(MessageSerializer(talk.as_data(message, game)).data, status=201)


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


class VersionSerializer(RequestBody):
    expected_version = fields.IntegerField(required=False, min_value=1)


class ResignApi(APIView):
    @extend_schema(
        request=VersionSerializer,
        responses={200: GameStateSerializer, **errors(400, 404, 409, 412, 413)},
        examples=[
            OpenApiExample("Resign", value={"expected_version": 7}, request_only=True),
            GAME,
        ],
        parameters=HEADERS,
        summary="Resign (R8.6: the opponent scores 30 + 20 + your count)",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = VersionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.resign(
            game_id=game_id,
            user=player_of(request),
            expected_version=expected_version(request, data.validated_data),
        )
        return _game_response(request, game)


class StopSerializer(RequestBody):
    move = fields.IntegerField(
        min_value=1, help_text="The move of the opponent's last turn to stop, counted from 1"
    )
    choice = fields.CharField(
        required=False,
        max_length=16,
        validators=[MOVE_TEXT],
        help_text="The compulsory move to carry out when several fit (R7.2: the caller "
        "chooses), written as the offender would write it (R is the offender's reserve). A "
        "move that was not compulsory is passed over for the first that was.",
    )
    expected_version = fields.IntegerField(required=False, min_value=1)


class StopApi(APIView):
    @extend_schema(
        request=StopSerializer,
        responses={200: GameStateSerializer, **errors(400, 404, 409, 412, 413)},
        examples=[
            OpenApiExample("Stop the third move", value={"move": 3}, request_only=True),
            OpenApiExample(
                "Stop it and choose the foundation",
                value={"move": 3, "choice": "H2-F5", "expected_version": 12},
                request_only=True,
            ),
            OpenApiExample(
                "A wrong call",
                value={
                    "error": "WRONG_STOP",
                    "message": "move 3 (H2-H6) broke no rule (wrong call number 1; "
                    "2 more and you lose a turn)",
                    "wrong_calls": 1,
                    "turn_lost": False,
                },
                response_only=True,
                status_codes=[409],
            ),
            GAME,
        ],
        parameters=HEADERS,
        summary="Call Stop! on a move of the opponent's last turn (classic games, R7.4)",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = StopSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        outcome = stops.call_stop_on(
            game_id=game_id,
            user=player_of(request),
            move_number=values["move"],
            choice=values.get("choice"),
            expected_version=expected_version(request, values),
        )
        return _game_response(request, outcome.game, outcome.engine)


class StalemateOfferApi(APIView):
    @extend_schema(
        request=NoBody,
        responses={200: GameStateSerializer, **errors(400, 404, 409, 412, 413)},
        examples=[NO_BODY, GAME],
        parameters=HEADERS,
        summary="Offer a stalemate",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        game = stalemate.offer_stalemate(
            game_id=game_id, user=player_of(request), expected_version=expected_version(request)
        )
        return _game_response(request, game)


class AnswerSerializer(RequestBody):
    accept = fields.BooleanField(help_text="true ends the game as a stalemate (R8.5)")


class StalemateAnswerApi(APIView):
    @extend_schema(
        request=AnswerSerializer,
        responses={200: GameStateSerializer, **errors(400, 404, 409, 412, 413)},
        examples=[OpenApiExample("Accept", value={"accept": True}, request_only=True), GAME],
        parameters=HEADERS,
        summary="Accept or decline the opponent's stalemate offer",
    )
    @write
    def post(self, request: Request, game_id: int) -> Response:
        data = AnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = stalemate.answer_stalemate(
            game_id=game_id,
            user=player_of(request),
            accept=data.validated_data["accept"],
            expected_version=expected_version(request),
        )
        return _game_response(request, game)


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


def _game_response(request: Request, game: Game, engine: EngineGame | None = None) -> Response:
    """The game from the caller's seat in it (a write's answer: the caller plays)."""
    return _game_seen_from(game, game.seat_of(request.user.pk), engine)


def _game_seen_from(game: Game, seat: int | None, engine: EngineGame | None = None) -> Response:
    """The game from ``seat`` (None: a spectator's), with its version as the ETag."""
    state = selectors.game_state(game, seat, engine)
    return Response(GameStateSerializer(state).data, headers={"ETag": f'"{game.version}"'})


class ChallengeSerializer(RequestBody):
    id = fields.IntegerField(read_only=True)
    challenger = fields.CharField(read_only=True)
    opponent = fields.CharField(required=False, help_text="A username to challenge")
    second_opponent = fields.CharField(
        required=False,
        help_text="The three-player game (rules three-player): the other named opponent",
    )
    accepted_by = serializers.ListField(
        child=fields.CharField(),
        read_only=True,
        help_text="Who has accepted, in seat order (B, then C)",
    )
    email = serializers.EmailField(required=False, help_text="Invite someone by e-mail")
    open = fields.BooleanField(required=False, default=False, help_text="Anyone may accept")
    rules = serializers.ChoiceField(
        choices=sorted(PRESETS),
        required=False,
        default="pagat",
        help_text="A preset: GET /api/v1/rules/ lists them",
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text='Options changed from the preset, e.g. {"lenient_turn": true, '
        '"reserve_size": 12} (GET /api/v1/rules/)',
    )
    stop_mode = serializers.ChoiceField(
        choices=StopMode.values,
        required=False,
        default=StopMode.REFEREE,
        help_text="referee (default): the server refuses every violation; classic: priority "
        "slips stand unless the opponent calls Stop! before their first move",
    )
    match_target = fields.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=10_000,
        help_text="Play a match to this many points; a single game when absent",
    )
    time_control = serializers.ChoiceField(
        choices=["per_turn", "bank"],
        required=False,
        default="per_turn",
        help_text="per_turn: days_per_turn for every turn; bank: a time bank per seat",
    )
    days_per_turn = fields.IntegerField(required=False, default=3, min_value=1, max_value=14)
    bank_initial_days = fields.IntegerField(required=False, default=7, min_value=1, max_value=60)
    bank_increment_days = fields.IntegerField(required=False, default=1, min_value=0, max_value=14)
    bank_cap_days = fields.IntegerField(
        required=False,
        default=14,
        min_value=1,
        max_value=60,
        help_text="The most a time bank may hold; one below the initial bank is raised to it",
    )
    weekend_pause = fields.BooleanField(required=False, default=False)
    rated = fields.BooleanField(
        required=False,
        default=True,
        help_text="Whether the game changes the players' ratings (a computer's never moves)",
    )
    public = fields.BooleanField(
        required=False,
        default=True,
        help_text="Anyone may watch its games (the default); false: its players only",
    )
    min_rating = fields.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=4000,
        help_text="An open challenge: only players rated this or more (in its family) see it",
    )
    max_rating = fields.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=4000,
        help_text="An open challenge: only players rated this or less see it",
    )
    status = fields.CharField(read_only=True)
    game = fields.IntegerField(read_only=True, allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)


class ChallengeOutSerializer(serializers.Serializer[dict[str, Any]]):
    """A challenge as its challenger, a named player or anyone (open) sees it."""

    id = fields.IntegerField()
    challenger = fields.CharField()
    opponent = fields.CharField(allow_null=True)
    second_opponent = fields.CharField(allow_null=True)
    accepted_by = serializers.ListField(
        child=fields.CharField(), help_text="Who has accepted, in seat order (B, then C)"
    )
    email = fields.CharField(
        allow_blank=True,
        help_text='The invited address, shown to the challenger only; to others "(by e-mail)"',
    )
    open = fields.BooleanField()
    rules = fields.CharField()
    options = serializers.DictField()
    stop_mode = serializers.ChoiceField(choices=StopMode.values)
    match_target = fields.IntegerField(allow_null=True)
    time_control = serializers.ChoiceField(choices=["per_turn", "bank"])
    days_per_turn = fields.IntegerField()
    bank_initial_days = fields.IntegerField()
    bank_increment_days = fields.IntegerField()
    bank_cap_days = fields.IntegerField()
    weekend_pause = fields.BooleanField()
    rated = fields.BooleanField()
    public = fields.BooleanField(help_text="Whether anyone may watch its games")
    min_rating = fields.IntegerField(allow_null=True)
    max_rating = fields.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Challenge.Status.values)
    game = fields.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


CHALLENGE = OpenApiExample(
    "A challenge",
    value={
        "id": 3,
        "challenger": "alice",
        "opponent": "bob",
        "second_opponent": None,
        "accepted_by": [],
        "email": "",
        "open": False,
        "rules": "pagat",
        "options": {},
        "stop_mode": "referee",
        "match_target": None,
        "rated": True,
        "public": True,
        "min_rating": None,
        "max_rating": None,
        "status": "pending",
        "game": None,
        "created_at": "2026-11-22T09:00:00Z",
    },
    response_only=True,
)


class ChallengeAnswerSerializer(RequestBody):
    token = fields.CharField(
        required=False, max_length=64, help_text="The invitation link's token (e-mail invitations)"
    )


def _challenge(challenge: Challenge, user: User) -> dict[str, Any]:
    """The challenge as ``user`` may see it, through its output serializer."""
    mine = challenge.challenger_id == user.pk
    return ChallengeOutSerializer(
        {
            "id": challenge.pk,
            "challenger": challenge.challenger.get_username(),
            "opponent": challenge.opponent.get_username() if challenge.opponent else None,
            "second_opponent": (
                challenge.second_opponent.get_username() if challenge.second_opponent else None
            ),
            "accepted_by": [
                player.get_username()
                for player in (challenge.accepted_by, challenge.second_accepted_by)
                if player is not None
            ],
            # Only the challenger sees the address they invited.
            "email": challenge.email if mine else ("" if not challenge.email else "(by e-mail)"),
            "open": challenge.is_open,
            "rules": challenge.rules,
            "options": challenge.rule_options,
            "stop_mode": challenge.stop_mode,
            "match_target": challenge.match_target,
            **{k: v for k, v in asdict(challenge.clock()).items() if k != "control"},
            "time_control": challenge.time_control,
            "rated": challenge.rated,
            "public": challenge.public,
            "min_rating": challenge.min_rating,
            "max_rating": challenge.max_rating,
            "status": challenge.status,
            "game": challenge.game_id,
            "created_at": challenge.created_at,
        }
    ).data


class ChallengeListApi(ListApi):
    @extend_schema(
        responses={200: ChallengeOutSerializer(many=True), **errors(400)},
        examples=[CHALLENGE],
        summary="Challenges: mine and open",
    )
    def get(self, request: Request) -> Response:
        user = player_of(request)
        return self.page(request, challenges.challenges_for(user), lambda c: _challenge(c, user))

    @extend_schema(
        request=ChallengeSerializer,
        responses={201: ChallengeOutSerializer, **errors(400, 403, 404, 409, 413)},
        examples=[
            OpenApiExample("By username", value={"opponent": "bob"}, request_only=True),
            OpenApiExample(
                "By e-mail, a match",
                value={"email": "dora@example.com", "match_target": 300},
                request_only=True,
            ),
            OpenApiExample("Open to anyone", value={"open": True}, request_only=True),
            OpenApiExample(
                "A private game", value={"opponent": "bob", "public": False}, request_only=True
            ),
            OpenApiExample(
                "Three players",
                value={"rules": "three-player", "opponent": "bob", "second_opponent": "carol"},
                request_only=True,
            ),
            CHALLENGE,
        ],
        parameters=HEADERS,
        summary="Challenge a player, invite by e-mail, or open a challenge",
    )
    @write
    def post(self, request: Request) -> Response:
        data = ChallengeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        user = player_of(request)
        challenge = challenges.create_challenge(
            user,
            opponent=values.get("opponent"),
            second_opponent=values.get("second_opponent"),
            email=values.get("email"),
            is_open=values["open"],
            rules=values["rules"],
            rule_options=values["options"],
            stop_mode=values["stop_mode"],
            match_target=values.get("match_target"),
            clock=TimeControl(
                control=values["time_control"],
                days_per_turn=values["days_per_turn"],
                bank_initial_days=values["bank_initial_days"],
                bank_increment_days=values["bank_increment_days"],
                # A cap below the initial bank is raised to it, as the page's form does.
                bank_cap_days=max(values["bank_cap_days"], values["bank_initial_days"]),
                weekend_pause=values["weekend_pause"],
            ),
            rated=values["rated"],
            min_rating=values.get("min_rating"),
            max_rating=values.get("max_rating"),
            public=values["public"],
        )
        return Response(_challenge(challenge, user), status=201)


def _answer(request: Request) -> tuple[User, str | None]:
    data = ChallengeAnswerSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    return player_of(request), data.validated_data.get("token")


ANSWERED = {200: ChallengeOutSerializer, **errors(400, 404, 409, 413)}


class ChallengeAcceptApi(APIView):
    @extend_schema(
        request=ChallengeAnswerSerializer,
        responses=ANSWERED,
        examples=[NO_BODY, CHALLENGE],
        parameters=HEADERS,
        summary="Accept a challenge: the game (or match) starts",
    )
    @write
    def post(self, request: Request, challenge_id: int) -> Response:
        user, token = _answer(request)
        return Response(
            _challenge(challenges.accept_challenge(challenge_id, user, token=token), user)
        )


class ChallengeDeclineApi(APIView):
    @extend_schema(
        request=ChallengeAnswerSerializer,
        responses=ANSWERED,
        examples=[NO_BODY, CHALLENGE],
        parameters=HEADERS,
        summary="Decline a challenge (or leave an open three-player one you joined)",
    )
    @write
    def post(self, request: Request, challenge_id: int) -> Response:
        user, token = _answer(request)
        return Response(
            _challenge(challenges.decline_challenge(challenge_id, user, token=token), user)
        )


class ChallengeCancelApi(APIView):
    @extend_schema(
        request=NoBody,
        responses=ANSWERED,
        examples=[NO_BODY, CHALLENGE],
        parameters=HEADERS,
        summary="Cancel a challenge you sent",
    )
    @write
    def post(self, request: Request, challenge_id: int) -> Response:
        NoBody(data=request.data).is_valid(raise_exception=True)
        user = player_of(request)
        return Response(_challenge(challenges.cancel_challenge(challenge_id, user), user))


class StandingSerializer(serializers.Serializer[dict[str, Any]]):
    rating = fields.IntegerField(help_text="Glicko-2, rounded")
    provisional = fields.BooleanField(help_text="Its deviation is still wide (shown with ?)")
    games = fields.IntegerField(help_text="Rated games in this family")


class PlayerSerializer(serializers.Serializer[dict[str, Any]]):
    username = fields.CharField()
    display_name = fields.CharField()
    computer = fields.CharField(
        allow_null=True, help_text="A computer player's level (easy, medium, strong), or null"
    )
    ratings = serializers.DictField(
        child=StandingSerializer(),
        help_text="Rating family -> the player's rating in it (families they have played)",
    )


class RecordSerializer(serializers.Serializer[dict[str, Any]]):
    family = fields.CharField(help_text="standard, one-pack, three-player or foster")
    rating = fields.IntegerField()
    deviation = fields.IntegerField()
    provisional = fields.BooleanField()
    games = fields.IntegerField()
    wins = fields.IntegerField()
    losses = fields.IntegerField()
    draws = fields.IntegerField()


class PlayerProfileSerializer(PlayerSerializer):
    records = RecordSerializer(many=True, help_text="Rating and record per family played")


PLAYER = OpenApiExample(
    "A player",
    value={
        "username": "bob",
        "display_name": "Bob",
        "computer": None,
        "ratings": {"standard": {"rating": 1523, "provisional": False, "games": 31}},
    },
    response_only=True,
)


def _players() -> QuerySet[User]:
    return (
        User.objects.filter(is_active=True)
        .select_related("profile")
        .prefetch_related("ratings")
        .order_by("username")
    )


class PlayerListApi(ListApi):
    @extend_schema(
        parameters=[OpenApiParameter("search", str, required=False)],
        examples=[PLAYER],
        responses={200: PlayerSerializer(many=True), **errors(400)},
        summary="Players, to challenge by username, with their ratings",
    )
    def get(self, request: Request) -> Response:
        users = _players()
        search = request.query_params.get("search", "").strip().replace("\x00", "")
        if search:
            users = users.filter(username__istartswith=search)
        return self.page(request, users, lambda u: PlayerSerializer(ratings.player_summary(u)).data)


class PlayerDetailApi(APIView):
    @extend_schema(
        responses={200: PlayerProfileSerializer, **errors(404)},
        examples=[
            OpenApiExample(
                "A player",
                value={
                    **PLAYER.value,
                    "records": [
                        {
                            "family": "standard",
                            "rating": 1523,
                            "deviation": 71,
                            "provisional": False,
                            "games": 31,
                            "wins": 17,
                            "losses": 13,
                            "draws": 1,
                        }
                    ],
                },
                response_only=True,
            )
        ],
        summary="A player: ratings and record in each family of rules",
    )
    def get(self, request: Request, username: str) -> Response:
        user = _players().filter(username__iexact=username).first()
        if user is None:
            raise ServiceError(
                404,
                "NO_SUCH_PLAYER",
                _("there is no player called %(name)s") % {"name": repr(username)},
            )
        return Response(PlayerProfileSerializer(ratings.player_profile(user)).data)


class LeaderboardRowSerializer(RecordSerializer):
    username = fields.CharField()
    display_name = fields.CharField()


class LeaderboardApi(ListApi):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "family",
                str,
                required=False,
                enum=sorted(ratings.FAMILY_NAMES),
                description="The family of rules (default standard)",
            )
        ],
        responses={200: LeaderboardRowSerializer(many=True), **errors(400)},
        examples=[
            OpenApiExample(
                "The ladder",
                value={
                    "username": "alice",
                    "display_name": "Alice",
                    "family": "standard",
                    "rating": 1712,
                    "deviation": 64,
                    "provisional": False,
                    "games": 48,
                    "wins": 30,
                    "losses": 16,
                    "draws": 2,
                },
                response_only=True,
            )
        ],
        summary=f"The ladder: players with {ratings.LEADERBOARD_MIN_GAMES} rated games or more",
    )
    def get(self, request: Request) -> Response:
        family = request.query_params.get("family", "standard")
        if family not in ratings.FAMILY_NAMES:
            raise ServiceError(
                400,
                "BAD_REQUEST",
                _("family is one of %(families)s")
                % {"families": ", ".join(sorted(ratings.FAMILY_NAMES))},
            )
        return self.page(
            request,
            ratings.leaderboard(family),
            lambda row: LeaderboardRowSerializer(ratings.ladder_row(row)).data,
        )


class ReportSerializer(RequestBody):
    message = fields.IntegerField(
        required=False, min_value=1, help_text="A message's id (GET .../messages/)"
    )
    player = fields.CharField(
        required=False, max_length=150, trim_whitespace=False, help_text="A player's username"
    )
    reason = serializers.ChoiceField(
        choices=Report.Reason.values, help_text="abuse, spam, cheating or other"
    )
    details = fields.CharField(
        required=False,
        default="",
        allow_blank=True,
        trim_whitespace=False,
        max_length=MAX_DETAILS,
        help_text="What happened, for support staff",
    )


class ReportOutSerializer(serializers.Serializer[dict[str, Any]]):
    id = fields.IntegerField()
    reason = serializers.ChoiceField(choices=Report.Reason.values)
    created_at = serializers.DateTimeField()


class ReportApi(APIView):
    @extend_schema(
        request=ReportSerializer,
        responses={
            201: ReportOutSerializer,
            **errors(
                400,
                404,
                413,
                more={
                    400: [
                        (
                            "Your own message",
                            "SAME_PLAYER",
                            {"message": "you cannot report your own message"},
                        )
                    ],
                    404: [
                        (
                            "A message you may not read",
                            "NOT_FOUND",
                            {"message": "no such message"},
                        ),
                        (
                            "No such player",
                            "NO_SUCH_PLAYER",
                            {"message": "there is no player called 'malory'"},
                        ),
                    ],
                    429: [
                        (
                            "Too many reports",
                            "TOO_MANY_REPORTS",
                            {
                                "message": "at most 20 reports a day: support staff will "
                                "read those you sent"
                            },
                        )
                    ],
                },
            ),
        },
        examples=[
            OpenApiExample(
                "A message", value={"message": 812, "reason": "abuse"}, request_only=True
            ),
            OpenApiExample(
                "A player",
                value={
                    "player": "mallory",
                    "reason": "cheating",
                    "details": "Plays the engine's first legal move, instantly, every time.",
                },
                request_only=True,
            ),
            OpenApiExample(
                "Reported",
                value={"id": 31, "reason": "abuse", "created_at": "2026-11-25T09:20:00Z"},
                response_only=True,
            ),
        ],
        summary="Report a message or a player to support staff (docs/conduct.md)",
        description="Exactly one of message (one you may read, not yours) or player. A "
        "message is reported once by each player: a second report answers the first. "
        "Whoever is reported is never told by whom.",
    )
    def post(self, request: Request) -> Response:
        data = ReportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if ("message" in values) == ("player" in values):
            raise ServiceError(
                400,
                "BAD_REQUEST",
                _("give exactly one of: message (its id) or player (a username)"),
            )
        user = player_of(request)
        if "message" in values:
            report = talk.report_message(
                user, values["message"], reason=values["reason"], details=values["details"]
            )
        else:
            report = report_player(
                user, values["player"], reason=values["reason"], details=values["details"]
            )
        return Response(
            ReportOutSerializer(
                {"id": report.pk, "reason": report.reason, "created_at": report.created_at}
            ).data,
            status=201,
        )
