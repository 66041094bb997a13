"""What the Django side's competition tests share: players, a competition made and
filled, and its games ended through the play services (never by writing rows)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from competitions.models import Competition, Pairing
from competitions.services.entering import Terms, create_competition, enter
from games.models import Game
from games.play.services import resign


def players(count: int, prefix: str = "p") -> list[User]:
    return [
        User.objects.create_user(f"{prefix}{n:04d}", f"{prefix}{n:04d}@example.com", "pw-x-12345")
        for n in range(1, count + 1)
    ]


def filled(
    count: int, organiser: User | None = None, prefix: str = "p", **terms: Any
) -> Competition:
    """A competition with ``count`` players entered; it starts when full unless
    ``max_players`` says more."""
    organiser = organiser or User.objects.create_user(
        "organiser" if prefix == "p" else f"{prefix}-organiser", "org@example.com", "pw-org-123"
    )
    terms.setdefault("max_players", count)
    competition = create_competition(
        organiser, Terms(name=terms.pop("name", "Autumn cup"), **terms)
    )
    for player in players(count, prefix):
        enter(competition.pk, player)
    competition.refresh_from_db()
    return competition


def open_games(competition: Competition) -> list[Game]:
    return list(
        Game.objects.filter(
            status=Game.Status.PLAYING, pairing__round__competition=competition
        ).order_by("pk")
    )


def lose(game: Game, letter: str = "B") -> None:
    """The seat ``letter`` resigns: the other wins."""
    game.refresh_from_db()
    resign(game_id=game.pk, user=game.user_at("AB".index(letter)))


def play_out(competition: Competition, limit: int = 200) -> None:
    """Every game of every round ends (seat B resigns) until the competition is over."""
    for _ in range(limit):
        games = open_games(competition)
        if not games:
            break
        for game in games:
            lose(game)
    competition.refresh_from_db()


def decided(competition: Competition) -> list[Pairing]:
    return list(Pairing.objects.filter(round__competition=competition, decided_at__isnull=False))
