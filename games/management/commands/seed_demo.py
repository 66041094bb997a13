"""Create two demo players and a game in progress (used by ``make run``; safe to repeat)."""

from __future__ import annotations

import random
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand

from accounts.models import ApiToken
from games.models import Game
from games.play.dealing import start_game
from games.play.services import play_moves
from games.play.store import engine_game

DEMO_PLAYERS = (("alice", "alice-plays-bank"), ("bob", "bob-plays-bank"))


class Command(BaseCommand):
    help = "Create the demo players alice and bob with a game in progress."

    def handle(self, *args: Any, **options: Any) -> None:
        users = []
        for name, password in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(
                username=name, defaults={"email": f"{name}@example.com"}
            )
            if created:
                user.set_password(password)
                user.save()
            users.append(user)
        alice, bob = users
        game = (
            Game.objects.filter(status="playing", seats__user=alice, seats__letter="A")
            .filter(seats__user=bob, seats__letter="B")
            .first()
        )
        if game is None:
            game = start_game(alice, bob, seed=1)
            self._play_opening(game, alice, bob)
        for user, (name, password) in zip(users, DEMO_PLAYERS, strict=True):
            EmailAddress.objects.get_or_create(
                user=user, email=user.email, defaults={"verified": True, "primary": True}
            )
            # A fresh token each start: only its hash is stored, so it is shown once.
            user.api_tokens.filter(name="demo").delete()
            _, key = ApiToken.issue(user, "demo")
            self.stdout.write(f"demo player: {name} / {password}   API token: {key}")
        self.stdout.write(f"demo game:   /games/{game.pk}/ (API: /api/v1/games/{game.pk}/)")

    @staticmethod
    def _play_opening(game: Game, alice: User, bob: User) -> None:
        """A few random turns so the demo game is under way: each move asked of the game
        and played through the service, as a client would."""
        rng = random.Random(1)
        for _ in range(4):
            game.refresh_from_db()
            engine = engine_game(game)
            seat, played = engine.to_move, 0
            while engine.to_move == seat and not engine.is_over:
                legal = [str(m) for m in engine.legal_moves(seat)]
                ends = [m for m in legal if m in ("C-W", "E")]
                move = ends[0] if ends and played > 6 else rng.choice(legal)
                result = play_moves(game_id=game.pk, user=alice if seat == 0 else bob, moves=[move])
                assert result.engine is not None
                engine, played = result.engine, played + 1
