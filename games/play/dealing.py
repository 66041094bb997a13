"""Dealing a game: its seats, its secret seed, the first turn's clock, and the first
mover told (a challenge accepted, a match's next game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clocks import TimeControl
from games.engine import fairdeal, seed_commitment
from games.models import Game, Match, Seat, StopMode
from games.play import deadlines
from games.play.happenings import GameDealt, publish
from games.play.store import engine_game, keep, new_engine_game
from lib.errors import ServiceError


@dataclass(frozen=True)
class FairDeal:
    """A scheme 2 deal's makings: the server's secret and each seat's contribution."""

    secret: str
    contributions: tuple[fairdeal.Contribution, ...]

    @classmethod
    def drawn(cls, seats: int, secret: str | None = None) -> FairDeal:
        """Every contribution drawn by the server (and ``secret`` if none is given)."""
        return cls(
            secret or fairdeal.new_secret(),
            tuple(
                fairdeal.Contribution(letter, fairdeal.new_contribution(), fairdeal.SERVER)
                for letter in "ABC"[:seats]
            ),
        )


def start_game(
    *players: User,
    rules: str = "pagat",
    rule_options: dict[str, Any] | None = None,
    stop_mode: str = StopMode.REFEREE,
    seed: int | None = None,
    match: Match | None = None,
    clock: TimeControl | None = None,
    starter: int | None = None,
    rated: bool = False,
    public: bool = True,
    fair: FairDeal | None = None,
) -> Game:
    """Deal a new game between ``players``, seated A, B (and C, G3) in that order. The
    seed stays secret until the game ends. ``starter`` names the seat to start (V3
    ``alternate``); else the deal chooses. A match's game is as public as its match.

    The seed (docs/fair-deal.md): ``fair``, the secret a challenge committed to and the
    seats' contributions, makes a scheme 2 seed; with neither it nor ``seed`` (a match's
    later game, a competition's game: no player is at hand) the server draws a secret
    and every seat's contribution, and the record says so; ``seed`` (a test, the demo)
    deals that seed under scheme 1."""
    if len({p.pk for p in players}) != len(players):
        raise ServiceError(400, "SAME_PLAYER", _("a game needs different players in every seat"))
    clock = clock or (match.clock() if match is not None else TimeControl())
    game = Game(
        rules=rules,
        rule_options=rule_options or {},
        stop_mode=stop_mode,
        match=match,
        rated=match.rated if match is not None else rated,
        public=match.public if match is not None else public,
    )
    seats = game.game_rules().seats
    if seats != len(players):
        raise ServiceError(
            400,
            "WRONG_PLAYER_COUNT",
            _("the %(rules)s rules are for %(seats)s players") % {"rules": rules, "seats": seats},
        )
    if seed is not None:
        game.seed, game.seed_hash = str(seed), seed_commitment(seed)
    else:
        fair = fair or FairDeal.drawn(seats)
        game.deal_scheme = fairdeal.CONTRIBUTED
        game.server_secret, game.seed_hash = fair.secret, fairdeal.commitment(fair.secret)
        game.contributions = [c.as_dict() for c in fair.contributions]
        game.seed = fairdeal.derive_seed(fair.secret, [c.value for c in fair.contributions])
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
    publish(GameDealt(game, engine_game(game)))
