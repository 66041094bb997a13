"""Ratings: Glicko-2 (``games.lobby.glicko2``) per family of rules, updated in the transaction
that ends a rated game.

- **Families.** The standard game with all its options is one family; the one-pack
  game (G2), the three-player game (G3) and Foster's two games (V14, G4) are the
  others: a player's skill at one says little of the others.
- **A game is a rating period**, as correspondence servers do: each player's rating
  moves once per rated game that ends, and before it moves, its deviation grows with
  the weeks since their last rated game in that family (``RATING_PERIOD_DAYS``).
- **Results.** The winner beats every other seat; a seat that resigned or ran out of
  time loses to every other seat; seats that neither won nor forfeited (a stalemate,
  or the two others of a three-player forfeit) are compared by their points: more
  points win, equal points draw.
- **Three players**, decided: rated pairwise (each seat plays a result against each of
  the other two in the same period). Glicko-2 takes several results in a period, so
  this needs no second model; a model made for several players (openskill) would
  rate the same order of finish the same way in the long run.
- **Computer players** have fixed ratings (``BOT_RATINGS``) that never move; a game
  against one is rated for the person only.
- A rating is **provisional** while its deviation is above ``PROVISIONAL_DEVIATION``
  (110, as lichess marks it with "?"); the leaderboard lists players with at least
  ``LEADERBOARD_MIN_GAMES`` rated games in the family.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Final

from django.contrib.auth.models import User
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.bots import level_of
from games.engine import Game as EngineGame
from games.lobby import glicko2
from games.models import Challenge, Game, Rating
from games.play.happenings import GameEnded

#: The engine's family of rules -> the rating family.
FAMILIES: Final = {
    "standard": "standard",
    "one-pack": "one-pack",
    "three-player": "three-player",
    "foster": "foster",
    "foster-one-pack": "foster",
}
#: The rating families as the pages name them.
FAMILY_NAMES: Final = {
    "standard": gettext_lazy("Standard (two packs)"),
    "one-pack": gettext_lazy("One pack"),
    "three-player": gettext_lazy("Three players"),
    "foster": gettext_lazy("Foster's games"),
}
RATING_PERIOD_DAYS: Final = 7
PROVISIONAL_DEVIATION: Final = 110.0
LEADERBOARD_MIN_GAMES: Final = 5
#: The computer players' fixed ratings, set from bench/bots.py's win rates between them:
#: medium wins 99% of its games against easy (about 800 points on Glicko's scale),
#: strong 62% against medium (about 85).
BOT_RATINGS: Final = {"easy": 650.0, "medium": 1450.0, "strong": 1535.0}
BOT_DEVIATION: Final = 50.0


def family_of(game: Game) -> str:
    return FAMILIES[game.game_rules().family]


@dataclass(frozen=True)
class Standing:
    """A player's rating in a family, as shown: rounded, and whether provisional."""

    rating: int
    provisional: bool
    games: int

    def __str__(self) -> str:
        return f"{self.rating}{'?' if self.provisional else ''}"


def standing(row: Rating | None, user: User | None = None) -> Standing:
    level = level_of(user) if user is not None else ""
    if level:
        return Standing(round(BOT_RATINGS[level]), False, row.games if row else 0)
    if row is None:
        return Standing(round(glicko2.DEFAULT_RATING), True, 0)
    return Standing(round(row.rating), row.deviation > PROVISIONAL_DEVIATION, row.games)


def standings(users: Iterable[User], family: str) -> dict[int, Standing]:
    """Each user's standing in ``family``, in one query."""
    users = [user for user in users if user is not None]
    rows = {r.user_id: r for r in Rating.objects.filter(user__in=users, family=family)}
    return {user.pk: standing(rows.get(user.pk), user) for user in users}


def glicko(row: Rating | None, user: User | None, now: datetime) -> glicko2.Rating:
    """The player's rating as Glicko-2 reads it at ``now`` (idle weeks widen it)."""
    level = level_of(user) if user is not None else ""
    if level:
        return glicko2.Rating(BOT_RATINGS[level], BOT_DEVIATION)
    if row is None:
        return glicko2.Rating()
    current = glicko2.Rating(row.rating, row.deviation, row.volatility)
    if row.rated_at is None:
        return current
    periods = (now - row.rated_at).total_seconds() / (RATING_PERIOD_DAYS * 86400)
    return glicko2.idle(current, periods) if periods > 0 else current


def outcome(engine: EngineGame, seat: int, other: int) -> float:
    """``seat``'s result against ``other``: 1, 0.5 or 0 (see the module's rules)."""
    forfeiter, winner, score = engine.forfeiter, engine.winner, engine.score or []
    if forfeiter in (seat, other):
        return 0.0 if forfeiter == seat else 1.0
    if winner in (seat, other):
        return 1.0 if winner == seat else 0.0
    mine, theirs = score[seat], score[other]
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


def rate_game(game: Game, engine: EngineGame, now: datetime | None = None) -> None:
    """A rated game is over: every person's rating in its family moves (inside the
    transaction that ended it)."""
    if not game.rated or not engine.is_over:
        return
    now = now or timezone.now()
    family = family_of(game)
    users: Sequence[User | None] = game.players
    people = [u for u in users if u is not None and not level_of(u)]
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(user__in=people, family=family)
    }
    before = [glicko(rows.get(u.pk) if u else None, u, now) for u in users]
    for seat, user in enumerate(users):
        if user is None or user not in people:
            continue
        results = [
            glicko2.Result(before[other], outcome(engine, seat, other))
            for other in range(len(users))
            if other != seat
        ]
        after = glicko2.update(before[seat], results)
        row = rows.get(user.pk) or Rating(user=user, family=family)
        row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
        row.games += 1
        total = sum(result.score for result in results) / len(results)
        row.wins += total > 0.5
        row.losses += total < 0.5
        row.draws += total == 0.5
        row.rated_at = now
        row.save()


def leaderboard(family: str) -> QuerySet[Rating]:
    """The players of ``family`` with enough rated games, best first (no computers)."""
    return (
        Rating.objects.filter(family=family, games__gte=LEADERBOARD_MIN_GAMES)
        .exclude(user__profile__bot_level__gt="")
        .select_related("user__profile")  # each row shows the display name
        .order_by(F("rating").desc(), "user__username")
    )


def near(user: User, family: str, count: int = 5) -> list[tuple[User, Standing]]:
    """Players rated nearest to ``user`` in ``family`` (people, active ones first)."""
    mine = standing(Rating.objects.filter(user=user, family=family).first(), user).rating
    rows = (
        Rating.objects.filter(family=family, user__is_active=True)
        .exclude(user=user)
        .exclude(user__profile__bot_level__gt="")
        .select_related("user")
    )
    ranked = sorted(rows, key=lambda r: (abs(r.rating - mine), -r.games))[:count]
    return [(r.user, standing(r)) for r in ranked]


def within(challenge: Challenge, user: User) -> bool:
    """Whether ``user``'s rating in the challenge's family lies in its range."""
    if challenge.min_rating is None and challenge.max_rating is None:
        return True
    row = Rating.objects.filter(user=user, family=challenge.rating_family).first()
    mine = standing(row, user).rating
    low = challenge.min_rating if challenge.min_rating is not None else mine
    high = challenge.max_rating if challenge.max_rating is not None else mine
    return low <= mine <= high


def range_words(challenge: Challenge) -> str:
    """The challenge's rating range, in the active language: ``1200-1500``,
    ``1200 or more`` or ``up to 1500``."""
    low, high = challenge.min_rating, challenge.max_rating
    if low is not None and high is not None:
        # Translators: a rating range, from one rating to another (1200-1500).
        return _("%(low)s-%(high)s") % {"low": low, "high": high}
    if low is not None:
        return _("%(low)s or more") % {"low": low}
    return _("up to %(high)s") % {"high": high}


def in_range(user: User) -> Q:
    """Open challenges whose rating range holds ``user``'s rating in their family."""
    mine = {r.family: round(r.rating) for r in Rating.objects.filter(user=user)}
    fits = Q()
    for family in set(FAMILIES.values()):
        rating = mine.get(family, round(glicko2.DEFAULT_RATING))
        fits |= (
            Q(rating_family=family)
            & (Q(min_rating__isnull=True) | Q(min_rating__lte=rating))
            & (Q(max_rating__isnull=True) | Q(max_rating__gte=rating))
        )
    return fits | Q(min_rating__isnull=True, max_rating__isnull=True)


def record(row: Rating) -> dict[str, Any]:
    """A rating as shown: rounded, provisional or not, with the record behind it."""
    return {
        "family": row.family,
        "rating": round(row.rating),
        "deviation": round(row.deviation),
        "provisional": row.deviation > PROVISIONAL_DEVIATION,
        "games": row.games,
        "wins": row.wins,
        "losses": row.losses,
        "draws": row.draws,
    }


def _who(user: User) -> dict[str, Any]:
    return {
        "username": user.get_username(),
        "display_name": getattr(getattr(user, "profile", None), "display_name", ""),
    }


def player_summary(user: User) -> dict[str, Any]:
    """A player and their standing in each family they have played (a computer: in
    every family, at its fixed rating), ``ratings`` prefetched with the user."""
    level = level_of(user)
    rows = {row.family: row for row in user.ratings.all()}
    families = FAMILY_NAMES if level else rows
    return {
        **_who(user),
        "computer": level or None,
        "ratings": {family: asdict(standing(rows.get(family), user)) for family in families},
    }


def player_profile(user: User) -> dict[str, Any]:
    """``player_summary`` and the record behind each rating."""
    records = [record(row) for row in sorted(user.ratings.all(), key=lambda r: r.family)]
    return {**player_summary(user), "records": records}


def ladder_row(row: Rating) -> dict[str, Any]:
    """A line of the ladder: the player and their rating's record."""
    return {**_who(row.user), **record(row)}


def annotate_challenges(challenges: Sequence[Challenge]) -> None:
    """Give each challenge its challenger's standing in its family, for the lobby
    (``challenge.standing``), in one query."""
    users = {challenge.challenger for challenge in challenges}
    rows = {(r.user_id, r.family): r for r in Rating.objects.filter(user__in=users)}
    for challenge in challenges:
        family = challenge.rating_family or "standard"
        row = rows.get((challenge.challenger_id, family))
        challenge.standing = standing(row, challenge.challenger)  # type: ignore[attr-defined]


def annotate(games: Sequence[Game]) -> None:
    """Give each game its players' standings in its family, for the pages
    (``game.standings``: seat letter -> ``Standing``), in one query for them all."""
    users = {seat.user for game in games for seat in game.seat_rows if seat.user is not None}
    rows = {(r.user_id, r.family): r for r in Rating.objects.filter(user__in=users)}
    for game in games:
        family = family_of(game)
        game.standings = {  # type: ignore[attr-defined]
            seat.letter: standing(rows.get((seat.user_id, family)), seat.user)
            for seat in game.seat_rows
            if seat.user is not None
        }


def game_ended(happening: GameEnded) -> None:
    """Subscriber of ``GameEnded`` (``games.apps``)."""
    rate_game(happening.game, happening.engine)
