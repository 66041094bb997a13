"""Reads: what a participant may know of a game. Always built from a per-seat view."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, Q, QuerySet

from games.engine import Position, deal, from_document, to_document, view
from games.engine.errors import PRIORITY_VIOLATIONS
from rbank_site.errors import ServiceError

from .models import Game, StopMode
from .services import EVENTS, LOSES_TURN, STOP_PREFIX, read_stop_event
from .stops import stop_refusal


def games_of(user: User) -> QuerySet[Game]:
    return Game.objects.filter(
        Q(player_a=user) | Q(player_b=user) | Q(player_c=user)
    ).select_related("player_a", "player_b", "player_c")


def game_for(user: User | AnonymousUser, game_id: int) -> Game:
    """The game if ``user`` plays in it; strangers get 404, as for a game that does not exist."""
    game = (
        Game.objects.select_related("player_a", "player_b", "player_c").filter(pk=game_id).first()
    )
    if game is None or game.seat_of(user.pk) is None:
        raise ServiceError(404, "NOT_FOUND", "no such game")
    return game


def game_state(game: Game, seat: int | None, position: Position | None = None) -> dict[str, Any]:
    """The game as ``seat`` sees it: the view, its legal moves, version, deadline, last turn."""
    position = position if position is not None else from_document(game.position)
    finished = position.is_over
    my_turn = seat is not None and not finished and position.to_move == seat
    return {
        **game_summary(game, seat),
        "position": view(position, seat),
        "legal_moves": sorted(str(m) for m in position.legal_moves()) if my_turn else [],
        "last_turn": {
            "seat": game.last_turn.get("seat"),
            "moves": game.last_turn.get("moves", []),
            "stopped": game.last_turn.get("stopped"),
            "correction": game.last_turn.get("correction"),
            "lost": bool(game.last_turn.get("lost")),
        },
        "current_turn": game.current_turn,
        "can_call_stop": my_turn and can_call_stop(game, seat),
        "ply": game.ply,
        "seed_hash": game.seed_hash,
        "seed": game.seed if finished else None,
    }


def can_call_stop(game: Game, seat: int | None) -> bool:
    """Whether ``seat`` may call Stop! now (R7.4). Says nothing of any violation."""
    return seat is not None and stop_refusal(game, seat) is None


def slip_actions(game: Game, position: Position) -> set[str]:
    """Of turn (T), discard (C-W) and end (E): those a classic game would accept now
    only as a priority slip (R7.4). The page offers them as it offers legal ones: a
    classic game is not refereed move by move."""
    if game.stop_mode != StopMode.CLASSIC or position.is_over:
        return set()
    slips = set()
    for text in ("T", "C-W", "E"):
        refusal = position.refusal(position.parse(text))
        if refusal is not None and refusal.code in PRIORITY_VIOLATIONS:
            slips.add(text)
    return slips


def _seconds(value: timedelta | None) -> int | None:
    return None if value is None else int(value.total_seconds())


def my_games(user: User, *, filter_: str | None = None) -> QuerySet[Game]:
    """The user's games, soonest deadline first. ``filter_``: my_turn, active or finished."""
    games = games_of(user)
    if filter_ == "my_turn":
        games = games.filter(status=Game.Status.PLAYING).filter(
            Q(player_a=user, to_move="A")
            | Q(player_b=user, to_move="B")
            | Q(player_c=user, to_move="C")
        )
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
        "wrong_calls": {letter: int(game.wrong_calls.get(letter, 0)) for letter in game.letters},
        "players": game.names(),
        "seat": None if seat is None else game.letters[seat],
        "status": game.status,
        "to_move": game.to_move,
        "your_turn": game.status == Game.Status.PLAYING
        and seat == game.letters.index(game.to_move),
        "stalemate_offer": game.stalemate_offer or None,
        "clock": {
            **asdict(game.clock()),
            "bank_seconds": (
                {letter: _seconds(game.bank(s)) for s, letter in enumerate(game.letters)}
                if game.time_control == "bank"
                else None
            ),
        },
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "match": game.match_id,
    }


def move_log(game: Game) -> list[dict[str, Any]]:
    """Every move in order, each with its seat and turn (moves name piles, never hidden
    cards). Once the game is over each entry also says which priority violation it
    held, if any, called or not (R7.4: never while the game is played)."""
    finished = game.status != Game.Status.PLAYING
    entries = []
    for index, turn, seat, text, violation in game.moves.order_by("index").values_list(
        "index", "turn", "seat", "text", "violation"
    ):
        entry: dict[str, Any] = {"index": index, "turn": turn, "seat": seat, "move": text}
        if finished:
            entry["violation"] = violation or None
        entries.append(entry)
    return entries


def _is_event(text: str) -> bool:
    return text in EVENTS or text == LOSES_TURN or text.startswith(STOP_PREFIX)


def export_game(game: Game) -> str:
    """The game in the notation: tag lines, then one line per turn (docs/export.md).

    The seed appears only once the game is over, so an export never lets anyone
    deal the hidden cards of a game still being played.
    """
    position = from_document(game.position)
    tags = [
        ("Game", str(game.pk)),
        ("Rules", game.rules),
        *game.names().items(),
        ("SeedHash", game.seed_hash),
    ]
    if game.rule_options:
        tags.append(("Options", json.dumps(game.rule_options, sort_keys=True).replace('"', '\\"')))
    if game.stop_mode != StopMode.REFEREE:
        tags.append(("Stop", game.stop_mode))
    if position.is_over:
        tags.append(("Seed", game.seed))
    tags.append(("Status", game.status))
    if position.score is not None:
        tags.append(
            (
                "Score",
                " ".join(f"{s}={p}" for s, p in zip(game.letters, position.score, strict=True)),
            )
        )
    if game.ending:
        tags.append(("Ending", game.ending))
    lines = [f'[{name} "{value}"]' for name, value in tags]
    lines.append("")
    turns: dict[int, tuple[str, list[str]]] = {}
    events = []
    for entry in move_log(game):
        if entry["move"].startswith(STOP_PREFIX) or entry["move"] == LOSES_TURN:
            # A Stop! call or a lost turn: a line of its own, before the caller's turn.
            turns.setdefault(entry["turn"], (entry["seat"], []))[1].append(f"({entry['move']})")
        elif entry["move"] in EVENTS:
            events.append(f"{entry['seat']} {entry['move']}")
        else:
            turns.setdefault(entry["turn"], (entry["seat"], []))[1].append(entry["move"])
    for number, (seat, moves) in sorted(turns.items()):
        lines.append(f"{number + 1} {seat}: {' '.join(moves)}")
    lines.extend(events)  # an event ends the game: it comes last
    return "\n".join(lines) + "\n"


def game_record(game: Game) -> dict[str, Any]:
    """The full record of a finished game: the deal revealed, every move, the scores.

    Refused while the game is played: the deal would show every hidden card.
    """
    if game.status == Game.Status.PLAYING:
        raise ServiceError(409, "GAME_NOT_OVER", "the record is revealed when the game ends")
    position = from_document(game.position)
    start = deal(game.seed, game.game_rules(), starter=game.starter)
    moves = move_log(game)
    first_of_turn: dict[int, int] = {}  # the first move of each turn (events aside)
    for entry in moves:
        if not _is_event(entry["move"]):
            first_of_turn.setdefault(entry["turn"], entry["index"])
    # A call is logged at the start of the caller's turn, the one after the stopped turn.
    called = {
        first_of_turn[entry["turn"] - 1] + read_stop_event(entry["move"])[0] - 1
        for entry in moves
        if entry["move"].startswith(STOP_PREFIX)
    }
    return {
        "id": game.pk,
        "rules": game.rules,
        "rule_options": game.rule_options,
        "starter": None if game.starter is None else game.letters[game.starter],
        "players": game.names(),
        "seed": game.seed,
        "seed_hash": game.seed_hash,
        "start": to_document(start),
        "moves": moves,
        "violations": [
            {**entry, "called": entry["index"] in called}
            for entry in moves
            if entry.get("violation")
        ],
        "stop_mode": game.stop_mode,
        "status": game.status,
        "ending": game.ending,
        "winner": None if position.winner is None else game.letters[position.winner],
        "score": (
            None if position.score is None else dict(zip(game.letters, position.score, strict=True))
        ),
        "final": to_document(position),
    }
