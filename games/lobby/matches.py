"""Matches (R8.7): a match and its first game; each game's score added to the totals
and the next game dealt until a seat wins."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from games.clocks import TimeControl
from games.engine import Game as EngineGame
from games.engine import Match as MatchScore
from games.models import Game, Match, MatchSeat, StopMode
from games.play.dealing import FairDeal, announce, start_game
from games.play.happenings import GameEnded


def start_match(
    *players: User,
    target: int = 300,
    rules: str = "pagat",
    rule_options: dict[str, Any] | None = None,
    stop_mode: str = StopMode.REFEREE,
    clock: TimeControl | None = None,
    rated: bool = False,
    public: bool = True,
    fair: FairDeal | None = None,
) -> Match:
    """R8.7: a match and its first game; every game of it has the same rules and clock,
    and is as public as the match (``start_game`` reads ``Match.public``)."""
    match = Match(
        target=target,
        rules=rules,
        rule_options=rule_options or {},
        stop_mode=stop_mode,
        rated=rated,
        public=public,
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
        fair=fair,
    )
    return match


def settle_match(game: Game, engine: EngineGame) -> None:
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


def game_ended(happening: GameEnded) -> None:
    """Subscriber of ``GameEnded`` (``games.apps``): a match's game settles its match."""
    if happening.game.match_id is not None:
        settle_match(happening.game, happening.engine)
