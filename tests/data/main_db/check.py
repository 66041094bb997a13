"""Open a database ``make.py`` made, as the code stands now, after ``migrate``: print
its rows per table and status (as ``expected.json`` counts them), after checking that
every game replays and that the game in play takes its next move."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def main(database: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    sys.path.insert(0, str(HERE.parents[2]))
    import django

    django.setup()
    from django.core.management import call_command

    from games.models import Game
    from games.play.services import play_moves
    from games.play.store import engine_game

    call_command("migrate", verbosity=0)
    counts = tally()
    call_command("verify_games")  # raises CommandError when a game differs
    # Dealt before the fair deal: each keeps its seed's commitment, and it verifies.
    from games.engine import fairdeal

    for old in Game.objects.all():
        assert old.deal_scheme == 1 and fairdeal.verify(1, old.seed_hash, old.seed).ok, old.pk
    game = Game.objects.get(status="playing")
    engine = engine_game(game)
    seat = engine.to_move
    move = str(engine.legal_moves(seat)[0])
    player = game.seats.get(letter="AB"[seat]).user
    assert player is not None
    play_moves(game_id=game.pk, user=player, moves=[move])
    print(json.dumps(counts, sort_keys=True))


def tally() -> dict[str, Any]:
    """Rows per table, and per status where the table has one."""
    from django.apps import apps
    from django.db.models import Count

    counts: dict[str, Any] = {}
    for model in apps.get_models():
        if model._meta.app_label not in {"games", "accounts", "mailplay", "webhooks", "auth"}:
            continue
        label = model._meta.label
        if label == "auth.Permission":  # made anew for each model, not stored data
            continue
        counts[label] = {"rows": model._default_manager.count()}
        if any(field.name == "status" for field in model._meta.get_fields()):
            counts[label]["status"] = dict(
                model._default_manager.values_list("status")
                .annotate(n=Count("id"))
                .order_by("status")
            )
    return counts


if __name__ == "__main__":
    main(Path(sys.argv[1]))
