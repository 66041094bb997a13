"""Reads: what a participant may know of a game. Always built from a per-seat view."""

from __future__ import annotations

from dataclasses import asdict
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, QuerySet
from django.utils.translation import gettext as _

from games.engine import Game as EngineGame
from games.engine import review
from games.models import SEATS, Game, GameReview
from games.notes import note_text
from games.play.store import engine_game
from games.talk import messages_for
from lib.errors import ServiceError


def games_of(user: User) -> QuerySet[Game]:
    return Game.objects.filter(seats__user=user).prefetch_related(SEATS)


def game_for(user: User | AnonymousUser, game_id: int) -> Game:
    """The game if ``user`` plays in it; strangers get 404, as for a game that does not exist."""
    game = Game.objects.prefetch_related(SEATS).filter(pk=game_id).first()
    if game is None or game.seat_of(user.pk) is None:
        raise ServiceError(404, "NOT_FOUND", _("no such game"))
    return game


def game_to_watch(user: User | AnonymousUser, game_id: int) -> tuple[Game, int | None]:
    """The game and the seat it is seen from: a player's own seat; None, the spectator's
    (docs/spectators.md), for anyone else when the game is public. A private game is
    404 to a stranger, the very answer for a game that does not exist, so that nobody
    learns which ids hold private games."""
    game = Game.objects.prefetch_related(SEATS).filter(pk=game_id).first()
    seat = None if game is None else game.seat_of(user.pk)
    if game is None or (seat is None and not game.public):
        raise ServiceError(404, "NOT_FOUND", _("no such game"))
    return game, seat


#: The longest player name the list of public games filters by (a username's length).
PLAYER_FILTER_LENGTH = 150


def public_games(*, rules: str | None = None, player: str | None = None) -> QuerySet[Game]:
    """Public games being played, newest activity first: ``rules``, a preset's name, and
    ``player``, a username (any case), narrow it down. A list shows summaries only, so
    the stored engine state and record (the largest columns) are not read."""
    games = Game.objects.filter(public=True, status=Game.Status.PLAYING)
    if rules:
        games = games.filter(rules=rules)
    if player:
        games = games.filter(seats__user__username__iexact=player[:PLAYER_FILTER_LENGTH])
    return games.defer("state", "record").prefetch_related(SEATS).order_by("-updated_at", "-pk")


def game_state(game: Game, seat: int | None, engine: EngineGame | None = None) -> dict[str, Any]:
    """The game as ``seat`` sees it: the view, its legal moves, version, deadline, last turn."""
    engine = engine if engine is not None else engine_game(game)
    finished = engine.is_over
    my_turn = seat is not None and not finished and engine.to_move == seat
    return {
        **game_summary(game, seat),
        "position": engine.view(seat),
        "legal_moves": (
            sorted(str(m) for m in engine.legal_moves(seat)) if my_turn and seat is not None else []
        ),
        "last_turn": last_turn(engine),
        "current_turn": [str(m) for m in engine.current_turn],
        "can_call_stop": my_turn and seat is not None and engine.can_call_stop(seat),
        "ply": engine.entry_count,
        "seed_hash": game.seed_hash,
        "seed": game.seed if finished else None,
        "fair_deal": fair_deal(game),
    }


def fair_deal(game: Game) -> dict[str, Any]:
    """How the game's seed was made (docs/fair-deal.md), as anyone who may see the game
    may know it: the scheme, the commitment, the contributions (none predicts the deal
    without the secret), and the server's secret and the seed once the game is over."""
    over = game.status != Game.Status.PLAYING
    return {
        "scheme": game.deal_scheme,
        "commitment": game.seed_hash,
        "contributions": list(game.contributions),
        "server_secret": (game.server_secret or None) if over else None,
        "seed": game.seed if over else None,
    }


def fair_deal_tags(game: Game) -> list[tuple[str, str]] | None:
    """The export's tags for a scheme 2 deal (docs/notation.md): the scheme, the
    commitment, the contributions and, once the game is over, the secret. None for a
    scheme 1 game: the engine writes its ``SeedHash``."""
    if game.deal_scheme == 1:
        return None
    given = " ".join(f"{c['seat']}={c['value']}:{c['by']}" for c in game.contributions)
    tags = [
        ("DealScheme", str(game.deal_scheme)),
        ("Commitment", game.seed_hash),
        ("Contributions", given),
    ]
    if game.status != Game.Status.PLAYING:
        tags.append(("Secret", game.server_secret))
    return tags


def last_turn(engine: EngineGame) -> dict[str, Any]:
    """The last finished turn as every player may know it."""
    last = engine.last_turn
    if last is None:
        return {"seat": None, "moves": [], "stopped": None, "correction": None, "lost": False}
    return {
        "seat": engine.letter(last.seat),
        "moves": [str(m) for m in last.moves],
        "stopped": last.stopped,
        "correction": None if last.correction is None else str(last.correction),
        "lost": last.lost,
    }


def accepted_actions(engine: EngineGame, seat: int) -> set[str]:
    """Of turn (T), discard (C-W) and end (E): those the game accepts from ``seat`` now.
    A classic game accepts priority slips too (R7.4): the page offers them as it offers
    legal ones, for a classic game is not refereed move by move."""
    if engine.is_over or engine.to_move != seat:
        return set()
    position = engine.position
    return {
        text for text in ("T", "C-W", "E") if engine.refusal(seat, position.parse(text)) is None
    }


def _seconds(value: timedelta | None) -> int | None:
    return None if value is None else int(value.total_seconds())


def my_games(user: User, *, filter_: str | None = None) -> QuerySet[Game]:
    """The user's games, soonest deadline first. ``filter_``: my_turn, active or finished."""
    games = games_of(user)
    if filter_ == "my_turn":
        games = Game.objects.filter(
            status=Game.Status.PLAYING, seats__user=user, seats__letter=F("to_move")
        ).prefetch_related(SEATS)
    elif filter_ == "active":
        games = games.filter(status=Game.Status.PLAYING)
    elif filter_ == "finished":
        games = games.exclude(status=Game.Status.PLAYING)
    return games.order_by(F("deadline").asc(nulls_last=True), "-updated_at", "pk")


def game_summary(game: Game, seat: int | None) -> dict[str, Any]:
    """A game in a list: no position, nothing hidden."""
    return {
        "id": game.pk,
        "version": game.version,
        "rules": game.rules,
        "rule_options": game.rule_options,
        "stop_mode": game.stop_mode,
        "wrong_calls": {seat.letter: seat.wrong_calls for seat in game.seat_rows},
        "players": game.names(),
        "public": game.public,
        "seat": None if seat is None else game.letters[seat],
        "status": game.status,
        "to_move": game.to_move,
        "your_turn": game.status == Game.Status.PLAYING
        and seat == game.letters.index(game.to_move),
        "stalemate_offer": game.stalemate_offer or None,
        "clock": {
            **asdict(game.clock()),
            "bank_seconds": (
                {seat.letter: _seconds(seat.bank) for seat in game.seat_rows}
                if game.time_control == "bank"
                else None
            ),
        },
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "match": game.match_id,
    }


def move_log(engine: EngineGame) -> list[dict[str, Any]]:
    """Every entry of the record in order: its index, turn, seat, its text (``A H3-F1``,
    ``B resigns``) and ``move``, the move or the event. Once the game is over each move
    also says which priority violation it held, if any, and whether Stop! was called on
    it (R7.4: never while the game is played)."""
    rows = engine.log()
    for row in rows:
        row.setdefault("move", row["entry"].split(" ", 1)[1])
    return rows


def export_game(
    game: Game, reader: User | AnonymousUser | None = None, seat: int | None = None
) -> str:
    """The game in the notation (docs/notation.md), with the messages ``reader`` (in
    ``seat``; None: a spectator) may read. The seed appears only once the game is over, so
    an export never lets anyone deal the hidden cards of a game in play. A finished
    game's review, once ready, adds its notes as comments of its own (docs/review.md)."""
    header = [("Game", str(game.pk)), ("Rules", game.rules), *game.names().items()]
    note = note_text(game, reader) if seat is not None else ""
    if note:  # the reader's own private note: theirs alone (docs/notes.md)
        escaped = note.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        header.append(("Note", escaped))
    comments = [(m.ply, m.seat, m.text) for m in messages_for(game, reader, seat)]
    if game.status != Game.Status.PLAYING:
        found = GameReview.objects.filter(game=game, format=review.FORMAT).first()
        if found is not None:
            comments += review.export_comments(found.document)
    return engine_game(game).export(header, game.rule_options, comments, fair_deal_tags(game))


def game_record(game: Game) -> dict[str, Any]:
    """The full record of a finished game: the deal revealed, every entry, the scores.

    Refused while the game is played: the deal would show every hidden card.
    """
    if game.status == Game.Status.PLAYING:
        raise ServiceError(409, "GAME_NOT_OVER", _("the record is revealed when the game ends"))
    engine = engine_game(game)
    record = engine.full_record()
    del record["entries"]
    return {
        "id": game.pk,
        **record,
        "seed_hash": game.seed_hash,
        "fair_deal": fair_deal(game),
        "rules": game.rules,
        "rule_options": game.rule_options,
        "players": game.names(),
        "moves": move_log(engine),
    }
