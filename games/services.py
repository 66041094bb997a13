"""The only code that writes games: one transaction per action, the game row locked.

Every rule is the engine's (``games.engine.Game``): a service loads the engine game
from its row (``games.store``), asks it to act, stores what it became, and does what
the rules do not know of: versions, clocks, e-mails, matches. Views and tasks call
these functions and never touch a model's fields directly (HackSoft styleguide).
Every refusal raises a ``ServiceError`` carrying the HTTP status and the error code
the API returns unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.engine import BY_TIMEOUT, GameError, MoveRefused, Refusal, new_seed, seed_commitment
from games.engine import Game as EngineGame
from games.engine import Match as MatchScore
from games.engine.messages import render
from rbank_site.errors import ServiceError
from rbank_site.logs import fields, logs_refusals

from . import deadlines
from .clocks import TimeControl
from .models import SEATS, Game, Match, MatchSeat, Seat, StopMode
from .notifications import notify
from .store import engine_game, keep, new_engine_game

logger = logging.getLogger(__name__)

#: Most moves one request may post (a turn rarely holds more than a few dozen).
MAX_MOVES_PER_REQUEST = 600

#: The HTTP status of each refusal code the engine gives for a game's actions (a
#: refused move is 400 whatever its code, unless its turn was over: 409).
#: A refusal by the rules is a conflict with the game as it stands (409): the same
#: request may be right in another position. Only a request no position could take is 400.
_MALFORMED = frozenset({"NO_MOVES"})
#: Engine codes the API gives under another name.
_CODES = {"NO_MOVES": "BAD_REQUEST"}


def _not_found() -> ServiceError:
    # Strangers get the same answer for a private game as for no game at all.
    return ServiceError(404, "NOT_FOUND", "no such game")


def refused(game: Game, exc: Refusal) -> ServiceError:
    """The engine's refusal as the API gives it: its code, an HTTP status, its words
    with seats named by their players, and its parameters for programs."""
    names = game.names()
    params = dict(exc.params)
    for key in ("to_move", "offerer"):  # a seat, as its player reads it
        letter = params.get(key)
        if isinstance(letter, str):
            params[key] = "your opponent" if len(names) == 2 else names.get(letter, letter)
    extra: dict[str, Any] = {}
    status = 400 if exc.code in _MALFORMED else 409
    if isinstance(exc, MoveRefused):
        extra = {"move": params["move"], "index": params["index"]}
    if exc.code == "WRONG_STOP":
        extra = {"wrong_calls": params["wrong_calls"], "turn_lost": params["turn_lost"]}
    return ServiceError(status, _CODES.get(exc.code, exc.code), render(exc.reason, params), **extra)


def start_game(
    *players: User,
    rules: str = "pagat",
    rule_options: dict[str, Any] | None = None,
    stop_mode: str = StopMode.REFEREE,
    seed: int | None = None,
    match: Match | None = None,
    clock: TimeControl | None = None,
    starter: int | None = None,
) -> Game:
    """Deal a new game between ``players``, seated A, B (and C, G3) in that order. The
    seed stays secret until the game ends. ``starter`` names the seat to start (V3
    ``alternate``); else the deal chooses."""
    if len({p.pk for p in players}) != len(players):
        raise ServiceError(400, "SAME_PLAYER", "a game needs different players in every seat")
    clock = clock or (match.clock() if match is not None else TimeControl())
    seed = new_seed() if seed is None else seed
    game = Game(
        rules=rules,
        rule_options=rule_options or {},
        stop_mode=stop_mode,
        match=match,
        seed=str(seed),
        seed_hash=seed_commitment(seed),
    )
    seats = game.game_rules().seats
    if seats != len(players):
        raise ServiceError(400, "WRONG_PLAYER_COUNT", f"the {rules} rules are for {seats} players")
    engine = new_engine_game(game, starter)
    game.starter = engine.first_seat
    game.set_clock(clock)
    rows = [
        Seat(letter=letter, user=player, bank=clock.initial_bank)
        for letter, player in zip(engine.rules.seat_names, players, strict=True)
    ]
    game.__dict__["_seat_rows"] = rows
    deadlines.start_turn(game, engine.to_move, timezone.now())
    keep(game, engine)
    game.version = 1
    game.save()
    for row in rows:
        row.game = game
    Seat.objects.bulk_create(rows)
    return game


def announce(game: Game) -> None:
    """A game begins for its players (a challenge accepted, a match's next game): the
    seat to move hears of its first turn as of every later one, as its preferences say,
    even a player who has just accepted on the page (a game lasts days; they may leave)."""
    game.ply = 0
    notify(
        "your_turn",
        user=game.user_at(engine_game(game).to_move),
        game=game,
        last_turn=[],
        lost_turn=False,
        first_turn=True,
    )


@dataclass(frozen=True)
class MovesResult:
    game: Game
    applied: list[str]
    engine: EngineGame | None = None  # the game as this call left it


@logs_refusals("move")
def play_moves(
    *,
    game_id: int,
    user: User,
    moves: Sequence[str],
    expected_version: int | None = None,
) -> MovesResult:
    """Apply a list of moves for ``user``'s seat, all or none, under the game's row lock."""
    if not moves:
        raise ServiceError(400, "BAD_REQUEST", "send at least one move")
    if len(moves) > MAX_MOVES_PER_REQUEST:
        raise ServiceError(400, "BAD_REQUEST", f"at most {MAX_MOVES_PER_REQUEST} moves per request")
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        try:
            entries = engine.play(seat, list(moves))
        except GameError as exc:
            raise refused(game, exc) from None
        applied = [str(entry.move) for entry in entries]
        record_turns(game, engine, seat)
        save(game, engine)
        return MovesResult(game, applied, engine=engine)


def record_turns(game: Game, engine: EngineGame, seat: int) -> None:
    """After ``seat`` acted: if its turn passed, charge its clock, start the next
    seat's and tell that player (not saved)."""
    if engine.is_over or engine.to_move == seat:
        return
    now = timezone.now()
    deadlines.charge_turn(game, seat, now)
    deadlines.start_turn(game, engine.to_move, now)
    game.ply = engine.entry_count  # the e-mail shows the game as it is now
    last = engine.last_turn
    notify(
        "your_turn",
        user=game.user_at(engine.to_move),
        game=game,
        last_turn=[] if last is None else [str(m) for m in last.moves],
        lost_turn=last is not None and last.lost,
    )


def lock_for_player(game_id: int, user: User) -> tuple[Game, int]:
    """The game row, locked until the transaction ends, and the user's seat in it."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .prefetch_related(SEATS)
        .filter(pk=game_id)
        .first()
    )
    seat = None if game is None else game.seat_of(user.pk)
    if game is None or seat is None:
        raise _not_found()
    return game, seat


def check_version(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise ServiceError(
            412,
            "STALE_VERSION",
            f"the game has changed (version {game.version}, you sent {expected_version}): "
            "reload it and try again",
            version=game.version,
        )


def playing_engine(game: Game) -> EngineGame:
    """The engine game of a game still being played."""
    if game.state is None:
        raise ServiceError(409, "GAME_OVER", "the game is over")
    return engine_game(game)


def save(game: Game, engine: EngineGame) -> None:
    """Store the engine game and bump the version; a game just over tells its players
    and settles its match."""
    was_playing = game.state is not None
    keep(game, engine)
    game.save()
    changed = game.changed_seats()
    if changed:
        Seat.objects.bulk_update(changed, ["bank", "wrong_calls", "offer", "score"])
    if engine.is_over and was_playing:
        logger.info(
            "game over %s",
            fields(game=game.pk, status=game.status, ending=game.ending, score=engine.score),
        )
        kind = "timeout" if game.ending == BY_TIMEOUT else "game_over"
        for player in game.players:
            notify(kind, user=player, game=game)
        if game.match_id is not None:
            _settle_match(game, engine)


def _settle_match(game: Game, engine: EngineGame) -> None:
    """Add the game's score to the match (R8.7, the engine's rule: the higher total at
    or over the target wins; on a tie another game is played); deal the next game
    until the match is won."""
    assert game.match_id is not None
    match = Match.objects.select_for_update().get(pk=game.match_id)
    score = MatchScore(seats=len(match.letters), target=match.target, totals=match.totals)
    score.add_game(engine.score)
    for row, total in zip(match.seat_rows, score.totals, strict=True):
        row.total = total
    MatchSeat.objects.bulk_update(match.seat_rows, ["total"])
    if score.winner is not None:
        match.winner = match.letters[score.winner]
        match.finished_at = timezone.now()
    match.save()
    if score.winner is None:
        following = start_game(
            *match.players,
            rules=match.rules,
            rule_options=match.rule_options,
            stop_mode=match.stop_mode,
            match=match,
            starter=score.next_starter(match.game_rules(), engine.first_seat),
        )
        announce(following)


@logs_refusals("resign")
def resign(*, game_id: int, user: User, expected_version: int | None = None) -> Game:
    """R8.6: the user's seat forfeits; the others score (the engine's forfeit)."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        _act(game, lambda: engine.resign(seat))
        save(game, engine)
        return game


def timeout(game: Game) -> None:
    """R8.6: the seat to move ran out of time (the deadline sweep checked it under the
    row lock)."""
    engine = playing_engine(game)
    _act(game, lambda: engine.timeout(engine.to_move))
    save(game, engine)


@logs_refusals("stalemate-offer")
def offer_stalemate(*, game_id: int, user: User, expected_version: int | None = None) -> Game:
    """R8.5: offer to end the game as a stalemate; stands until answered or played over."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        _act(game, lambda: engine.offer_stalemate(seat))
        save(game, engine)
        logger.info("stalemate offered %s", fields(game=game.pk, seat=game.letters[seat]))
        for other, player in enumerate(game.players):
            if other != seat:
                notify("stalemate_offer", user=player, game=game)
        return game


@logs_refusals("stalemate-answer")
def answer_stalemate(
    *, game_id: int, user: User, accept: bool, expected_version: int | None = None
) -> Game:
    """Accept or decline a stalemate offer. The game ends, scored as R8.3, once every
    seat has agreed; one refusal withdraws the offer."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        answer = engine.agree_stalemate if accept else engine.decline_stalemate
        _act(game, lambda: answer(seat))
        logger.info(
            "stalemate answered %s", fields(game=game.pk, seat=game.letters[seat], accept=accept)
        )
        save(game, engine)
        return game


def _act(game: Game, action: Callable[[], object]) -> None:
    """Carry out an engine action; its refusal becomes the API's."""
    try:
        action()
    except GameError as exc:
        raise refused(game, exc) from None


def resign_every_game(sender: object, *, user: User, **kwargs: Any) -> int:
    """A player's account is about to go (``accounts.signals.account_deleting``): they
    resign every game they are playing (R8.6: the others need not wait for their
    clock). Returns how many."""
    playing = list(
        Game.objects.filter(seats__user=user, status=Game.Status.PLAYING).values_list(
            "pk", flat=True
        )
    )
    for game_id in playing:
        resign(game_id=game_id, user=user)
    return len(playing)


def start_match(
    *players: User,
    target: int = 300,
    rules: str = "pagat",
    rule_options: dict[str, Any] | None = None,
    stop_mode: str = StopMode.REFEREE,
    clock: TimeControl | None = None,
) -> Match:
    """R8.7: a match and its first game; every game of it has the same rules and clock."""
    match = Match(
        target=target,
        rules=rules,
        rule_options=rule_options or {},
        stop_mode=stop_mode,
    )
    match.set_clock(clock or TimeControl())
    match.save()
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, letter=letter, user=player)
        for letter, player in zip("ABC", players, strict=False)
    )
    start_game(
        *players,
        rules=rules,
        rule_options=rule_options,
        stop_mode=stop_mode,
        match=match,
    )
    return match
