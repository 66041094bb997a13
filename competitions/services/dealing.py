"""Dealing a pairing's game (or a knockout tie's match) exactly as a challenge does,
through ``games.play.dealing`` and ``games.lobby.matches``; and the byes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.utils import timezone

from games import clocks
from games.lobby.matches import start_match
from games.models import Game
from games.play.dealing import announce, start_game

from ..formats.results import BYE_POINTS
from ..models import Competition, Division, Entry, Pairing, Round

#: A round's deadline, shown in the calendar and on the page, is what its games may
#: take at most this many turns each at the clock's pace: a guide, never enforced
#: (each game's own clock decides a timeout).
ROUND_TURNS = 15


def round_deadline(competition: Competition) -> timedelta:
    clock = competition.clock()
    days = clock.days_per_turn if clock.control == clocks.PER_TURN else clock.bank_cap_days
    return timedelta(days=max(1, days) * ROUND_TURNS)


def new_round(competition: Competition, number: int, **extra: object) -> Round:
    now = timezone.now()
    competition.current_round = number
    competition.save(update_fields=["current_round"])
    return Round.objects.create(
        competition=competition,
        number=number,
        deadline=now + round_deadline(competition),
        **extra,
    )


def pair(
    competition: Competition,
    round_: Round,
    slots: Sequence[tuple[int, int | None]],
    division: Division | None = None,
) -> list[Pairing]:
    """The round's pairings (entry ids, seat A first; ``None`` in seat B: a bye),
    written in the order given (a knockout's bracket order) and their games dealt. A
    bye is decided at once and is no game against anyone."""
    entries = Entry.objects.select_related("player__profile").in_bulk(
        [e for slot in slots for e in slot if e is not None]
    )
    now = timezone.now()
    made = [
        Pairing(round=round_, seat_a=entries[a], seat_b=entries[b], division=division)
        if b is not None
        else Pairing(
            round=round_,
            seat_a=entries[a],
            bye=True,
            points_a=BYE_POINTS,
            points_b=0.0,
            decided_at=now,
            division=division,
        )
        for a, b in slots
    ]
    Pairing.objects.bulk_create(made)
    for pairing in made:
        if not pairing.bye:
            deal(competition, pairing)
    return made


def deal(competition: Competition, pairing: Pairing) -> None:
    """The pairing's game, or its match's first game, dealt and announced. A seat whose
    player has gone (a deleted account) forfeits it at once."""
    a, b = pairing.seat_a, pairing.seat_b
    assert b is not None
    if a.player is None or b.player is None or a.withdrawn_at or b.withdrawn_at:
        gone_a = a.player is None or a.withdrawn_at is not None
        gone_b = b.player is None or b.withdrawn_at is not None
        decide(pairing, (0.0 if gone_a else 1.0, 0.0 if gone_b else 1.0), forfeit=True)
        return
    settings = {
        "rules": competition.rules,
        "rule_options": competition.rule_options,
        "stop_mode": competition.stop_mode,
        "clock": competition.clock(),
        "rated": competition.rated,
        "public": competition.public,
    }
    game: Game
    if competition.match_target:
        match = start_match(a.player, b.player, target=competition.match_target, **settings)
        pairing.match = match
        game = match.games.get()
    else:
        game = start_game(a.player, b.player, **settings)
        pairing.game = game
    pairing.save(update_fields=["game", "match"])
    announce(game)


def decide(
    pairing: Pairing,
    points: tuple[float, float],
    scores: tuple[int, int] = (0, 0),
    *,
    forfeit: bool = False,
) -> None:
    pairing.points_a, pairing.points_b = points
    pairing.score_a, pairing.score_b = scores
    pairing.forfeit = forfeit
    pairing.decided_at = timezone.now()
    pairing.save(
        update_fields=["points_a", "points_b", "score_a", "score_b", "forfeit", "decided_at"]
    )
