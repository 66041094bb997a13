"""The only code that writes games: one transaction per action, the game row locked.

Views and tasks call these functions and never touch a model's fields directly
(HackSoft styleguide). Every refusal raises a ``ServiceError`` carrying the HTTP
status and the error code the API returns unchanged.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import (
    BY_AGREEMENT,
    BY_RESIGNATION,
    BY_TIMEOUT,
    IllegalMove,
    Move,
    Position,
    call_stop,
    deal,
    from_document,
    new_seed,
    seed_commitment,
    to_document,
)
from games.engine.match import alternating_starter
from games.engine.rules import ALTERNATE
from rbank_site.errors import ServiceError
from rbank_site.logs import fields, logs_refusals

from . import deadlines
from .clocks import TimeControl
from .models import Game, IdempotentRequest, Match, MoveRecord, StopMode
from .notifications import notify

logger = logging.getLogger(__name__)

#: Log entries that are events, not moves (the notation has no word for them).
RESIGN = "resigns"
TIMEOUT = "times-out"
AGREE_STALEMATE = "agrees-stalemate"
EVENTS = frozenset({RESIGN, TIMEOUT, AGREE_STALEMATE})
#: Stop! by correspondence (games/stops.py): a call on move N of the opponent's last
#: turn, with the compulsory move carried out (``stop:3:H3-F1``), and the turn a third
#: wrong call costs (R7.5). These do not end the game.
STOP_PREFIX = "stop:"
LOSES_TURN = "loses-turn"


def stop_event(number: int, correction: Move | str) -> str:
    return f"{STOP_PREFIX}{number}:{correction}"


def read_stop_event(text: str) -> tuple[int, str]:
    number, correction = text.removeprefix(STOP_PREFIX).split(":", 1)
    return int(number), correction


#: Most moves one request may post (a turn rarely holds more than a few dozen).
MAX_MOVES_PER_REQUEST = 600


def _not_found() -> ServiceError:
    # Strangers get the same answer for a private game as for no game at all.
    return ServiceError(404, "NOT_FOUND", "no such game")


def start_game(
    player_a: User,
    player_b: User,
    *,
    player_c: User | None = None,
    rules: str = "pagat",
    rule_options: dict[str, Any] | None = None,
    stop_mode: str = StopMode.REFEREE,
    seed: int | None = None,
    match: Match | None = None,
    clock: TimeControl | None = None,
    starter: int | None = None,
) -> Game:
    """Deal a new game between two players (three with ``player_c``, G3). The seed stays
    secret until the game ends. ``starter`` names the seat to start (V3 ``alternate``);
    else the deal chooses."""
    players = [player_a, player_b] + ([player_c] if player_c is not None else [])
    if len({p.pk for p in players}) != len(players):
        raise ServiceError(400, "SAME_PLAYER", "a game needs different players in every seat")
    clock = clock or (match.clock() if match is not None else TimeControl())
    seed = new_seed() if seed is None else seed
    game = Game(
        rules=rules,
        rule_options=rule_options or {},
        stop_mode=stop_mode,
        match=match,
        player_a=player_a,
        player_b=player_b,
        player_c=player_c,
        seed=str(seed),
        seed_hash=seed_commitment(seed),
    )
    seats = game.game_rules().seats
    if seats != len(players):
        raise ServiceError(400, "WRONG_PLAYER_COUNT", f"the {rules} rules are for {seats} players")
    position = deal(seed, game.game_rules(), starter=starter)
    game.position = to_document(position)
    game.to_move = position.seat_name(position.to_move)
    game.starter = position.to_move
    game.set_clock(clock)
    for seat in range(seats):
        game.set_bank(seat, clock.initial_bank)
    deadlines.start_turn(game, position.to_move, timezone.now())
    game.save()
    return game


@dataclass(frozen=True)
class MovesResult:
    game: Game
    applied: list[str]
    replayed: bool = False  # an Idempotency-Key retry: nothing was applied this time
    position: Position | None = None  # the new position, when this call made it


@logs_refusals("move")
def play_moves(
    *,
    game_id: int,
    user: User,
    moves: Sequence[str],
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> MovesResult:
    """Apply a list of moves for ``user``'s seat, all or none, under the game's row lock."""
    if not moves:
        raise ServiceError(400, "BAD_REQUEST", "send at least one move")
    if len(moves) > MAX_MOVES_PER_REQUEST:
        raise ServiceError(400, "BAD_REQUEST", f"at most {MAX_MOVES_PER_REQUEST} moves per request")
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        fingerprint = hashlib.sha256(
            json.dumps([list(moves), expected_version]).encode()
        ).hexdigest()
        if idempotency_key:
            earlier = IdempotentRequest.objects.filter(user=user, key=idempotency_key).first()
            if earlier is not None:
                if earlier.game_id != game.pk or earlier.response.get("fingerprint") != fingerprint:
                    raise ServiceError(
                        422,
                        "IDEMPOTENCY_KEY_REUSED",
                        "this Idempotency-Key was used for another request",
                    )
                return MovesResult(game, list(earlier.response["applied"]), replayed=True)
        check_version(game, expected_version)
        position = from_document(game.position)
        applied = _apply_all(game, position, seat, moves)
        if not position.is_over and position.to_move != seat:
            notify(
                "your_turn",
                user=game.user_at(position.to_move),
                game=game,
                last_turn=game.last_turn.get("moves", []),
            )
        if game.stalemate_offer and game.letters[seat] not in game.stalemate_offer:
            game.stalemate_offer = ""  # playing on declines the others' offer
        save_position(game, position)
        if idempotency_key:
            try:
                with transaction.atomic():
                    IdempotentRequest.objects.create(
                        user=user,
                        key=idempotency_key,
                        game=game,
                        status_code=200,
                        response={"applied": applied, "fingerprint": fingerprint},
                    )
            except IntegrityError:  # the same key raced in another game: refuse both ways
                raise ServiceError(
                    422, "IDEMPOTENCY_KEY_REUSED", "this Idempotency-Key is already in use"
                ) from None
        return MovesResult(game, applied, position=position)


def lock_for_player(game_id: int, user: User) -> tuple[Game, int]:
    """The game row, locked until the transaction ends, and the user's seat in it."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("player_a", "player_b", "player_c")
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


def save_position(game: Game, position: Position) -> None:
    """Store the new snapshot and bump the version; settle the match when the game ends."""
    game.position = to_document(position)
    game.version += 1
    game.status = position.status
    game.to_move = position.seat_name(position.to_move)
    if position.is_over:
        game.finished_at = timezone.now()
        game.deadline = game.reminder_at = None
        game.ending = position.ending or ""
        game.stalemate_offer = ""
    game.save()
    if position.is_over:
        logger.info(
            "game over %s",
            fields(game=game.pk, status=game.status, ending=game.ending, score=position.score),
        )
        kind = "timeout" if game.ending == BY_TIMEOUT else "game_over"
        for player in game.players:
            notify(kind, user=player, game=game)
        if game.match_id is not None:
            _settle_match(game, position)


def _settle_match(game: Game, position: Position) -> None:
    """Add the game's score to the match; deal the next game until a seat reaches the target."""
    assert game.match_id is not None
    match = Match.objects.select_for_update().get(pk=game.match_id)
    match.add_score(position.score or [0] * len(match.letters))
    totals = match.totals
    if max(totals) >= match.target:
        # The highest total wins the match; on a tie, the first seat in order.
        match.winner = match.letters[totals.index(max(totals))]
        match.finished_at = timezone.now()
    match.save()
    if not match.winner:
        starter = None
        if match.game_rules().starter == ALTERNATE and game.starter is not None:
            # The next seat starts.
            starter = alternating_starter(game.starter, 1, len(match.letters))
        start_game(
            game.player_a,
            game.player_b,
            player_c=game.player_c,
            rules=match.rules,
            rule_options=match.rule_options,
            stop_mode=match.stop_mode,
            match=match,
            starter=starter,
        )


@logs_refusals("resign")
def resign(*, game_id: int, user: User, expected_version: int | None = None) -> Game:
    """R8.6: the user's seat forfeits; the opponent scores 30 + 20 + the resigning seat's count."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        position = playing_position(game)
        position.forfeit(seat, BY_RESIGNATION)
        log_event(game, position, seat, RESIGN)
        save_position(game, position)
        return game


@logs_refusals("stalemate-offer")
def offer_stalemate(*, game_id: int, user: User) -> Game:
    """R8.5: offer to end the game as a stalemate; stands until answered or played over."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        playing_position(game)
        mine = game.letters[seat]
        if mine in game.stalemate_offer:
            raise ServiceError(409, "ALREADY_OFFERED", "you have already agreed to a stalemate")
        if game.stalemate_offer:
            offerer = (
                "your opponent" if len(game.letters) == 2 else game.names()[game.stalemate_offer[0]]
            )
            raise ServiceError(
                409, "OFFER_PENDING", f"{offerer} has offered a stalemate: accept or decline it"
            )
        game.stalemate_offer = mine
        game.version += 1
        game.save(update_fields=["stalemate_offer", "version", "updated_at"])
        logger.info("stalemate offered %s", fields(game=game.pk, seat=mine))
        for other, player in enumerate(game.players):
            if other != seat:
                notify("stalemate_offer", user=player, game=game)
        return game


@logs_refusals("stalemate-answer")
def answer_stalemate(*, game_id: int, user: User, accept: bool) -> Game:
    """Accept or decline a stalemate offer. The game ends, scored as R8.3, once every
    seat has agreed (with three seats, both the others must accept); one refusal
    withdraws the offer."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        position = playing_position(game)
        mine = game.letters[seat]
        if not game.stalemate_offer or mine in game.stalemate_offer:
            raise ServiceError(409, "NO_OFFER", "no stalemate offer awaits your answer")
        logger.info("stalemate answered %s", fields(game=game.pk, seat=mine, accept=accept))
        if accept and len(game.stalemate_offer) + 1 < len(game.letters):
            game.stalemate_offer += mine  # the others have still to answer
            game.version += 1
            game.save(update_fields=["stalemate_offer", "version", "updated_at"])
        elif accept:
            position.finish_stalemate(BY_AGREEMENT)
            log_event(game, position, seat, AGREE_STALEMATE)
            save_position(game, position)
        else:
            game.stalemate_offer = ""
            game.version += 1
            game.save(update_fields=["stalemate_offer", "version", "updated_at"])
        return game


def playing_position(game: Game) -> Position:
    position = from_document(game.position)
    if position.is_over:
        raise ServiceError(409, "GAME_OVER", "the game is over")
    return position


def start_match(
    player_a: User,
    player_b: User,
    *,
    player_c: User | None = None,
    target: int = 300,
    rules: str = "pagat",
    rule_options: dict[str, Any] | None = None,
    stop_mode: str = StopMode.REFEREE,
    clock: TimeControl | None = None,
) -> Match:
    """R8.7: a match and its first game; every game of it has the same rules and clock."""
    match = Match(
        player_a=player_a,
        player_b=player_b,
        player_c=player_c,
        target=target,
        rules=rules,
        rule_options=rule_options or {},
        stop_mode=stop_mode,
    )
    match.set_clock(clock or TimeControl())
    match.save()
    start_game(
        player_a,
        player_b,
        player_c=player_c,
        rules=rules,
        rule_options=rule_options,
        stop_mode=stop_mode,
        match=match,
    )
    return match


def _apply_all(game: Game, position: Position, seat: int, moves: Sequence[str]) -> list[str]:
    """Push each move; the first refusal raises and the transaction rolls everything back."""
    if position.is_over:
        raise ServiceError(409, "GAME_OVER", "the game is over")
    if position.to_move != seat:
        whose = "your opponent" if len(game.letters) == 2 else game.names()[game.to_move]
        raise ServiceError(409, "NOT_YOUR_TURN", f"it is {whose}'s turn")
    classic = game.stop_mode == StopMode.CLASSIC
    records = []
    applied = []
    for i, text in enumerate(moves):
        if position.is_over or position.to_move != seat:
            raise ServiceError(
                409, "NOT_YOUR_TURN", "your turn ended before this move", move=text, index=i
            )
        try:
            move = position.parse(text)
            turn = position.turns
            # A classic game accepts a priority slip and records it, unseen (R7.4).
            violation = position.push(move, classic=classic)
        except IllegalMove as exc:
            raise ServiceError(400, exc.code, exc.message, move=text, index=i) from None
        applied.append(str(move))
        records.append(
            MoveRecord(
                game=game,
                index=game.ply,
                seat=game.letters[seat],
                turn=turn,
                text=str(move),
                violation=violation or "",
            )
        )
        game.ply += 1
        game.current_turn.append(str(move))
        if position.turns != turn:  # the turn ended with this move
            game.last_turn = {
                "seat": game.letters[seat],
                "moves": game.current_turn,
                "start": game.ply - len(game.current_turn),
            }
            game.current_turn = []
    MoveRecord.objects.bulk_create(records)
    if position.to_move != seat and not position.is_over:
        now = timezone.now()
        deadlines.charge_turn(game, seat, now)
        deadlines.start_turn(game, position.to_move, now)
    return applied


def log_event(game: Game, position: Position, seat: int, event: str) -> None:
    """Append an event that is not a move to the log: a resignation, a timeout, an agreed
    stalemate, a Stop! call, a turn lost to wrong calls (``EVENTS``, ``STOP_PREFIX``)."""
    MoveRecord.objects.create(
        game=game, index=game.ply, seat=game.letters[seat], turn=position.turns, text=event
    )
    game.ply += 1


def rebuild_position(game: Game, upto: int | None = None) -> Position:
    """Deal the game's seed and replay its log (the first ``upto`` entries, or all of it):
    the whole log must rebuild the stored snapshot."""
    position = deal(game.seed, game.game_rules(), starter=game.starter)
    records = game.moves.order_by("index")
    if upto is not None:
        records = records.filter(index__lt=upto)
    classic = game.stop_mode == StopMode.CLASSIC
    # A Stop! rolls back to the start of the offender's turn: a classic game keeps it.
    turn_start = position.copy() if classic else position
    last_start = turn_start
    turn_moves: list[Move] = []
    last_moves: list[Move] = []
    for record in records.values_list("seat", "text"):
        seat = game.letters.index(record[0])
        text = record[1]
        if text == RESIGN:
            position.forfeit(seat, BY_RESIGNATION)
        elif text == TIMEOUT:
            position.forfeit(seat, BY_TIMEOUT)
        elif text == AGREE_STALEMATE:
            position.finish_stalemate(BY_AGREEMENT)
        elif text.startswith(STOP_PREFIX) or text == LOSES_TURN:
            if text == LOSES_TURN:
                position.stop_turn()
            else:
                number, correction = read_stop_event(text)
                position = call_stop(
                    last_start, last_moves, number - 1, last_start.parse(correction)
                )
            turn_start, turn_moves = position.copy(), []
        else:
            move = position.parse(text)
            turn = position.turns
            position.push(move, by_seat=seat, classic=classic)
            if classic:
                turn_moves.append(move)
                if position.turns != turn:
                    last_start, last_moves = turn_start, turn_moves
                    turn_start, turn_moves = position.copy(), []
    return position
