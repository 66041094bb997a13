"""Make ``main.sqlite3.gz``: a database as main stored it before the games were split
into rooms and the outboxes became one (commit 29f4b35), for
``tests/service/test_migration_from_main.py`` to migrate.

It runs that commit's code, checked out beside (its modules are named as they were
then, hence ``import_module``):

    git worktree add --detach /tmp/main-29f4b35 29f4b35
    DEBUG=1 .venv/bin/python tests/data/main_db/make.py /tmp/main-29f4b35 tests/data/main_db

and writes the database and ``expected.json``: the rows of each table, by status."""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import sys
from datetime import timedelta
from importlib import import_module
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(code: Path, out: Path) -> None:
    database = out / "main.sqlite3"
    database.unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "rbank_site.settings"
    os.chdir(code)
    sys.path[:0] = [str(code), str(HERE)]
    import django

    django.setup()
    tally = import_module("check").tally
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    fill()
    counts = tally()
    with connection.cursor() as cursor:  # everything into the file itself, no WAL beside
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cursor.execute("PRAGMA journal_mode=DELETE")
    connection.close()
    with open(database, "rb") as raw, gzip.open(out / "main.sqlite3.gz", "wb") as packed:
        shutil.copyfileobj(raw, packed)
    database.unlink()
    (out / "expected.json").write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n")


def fill() -> None:
    """Three players, a game in play with messages, a game over, a challenge, a webhook,
    two replies by mail (one handled), and each outbox's rows in every state."""
    from allauth.account.models import EmailAddress
    from django.apps import apps
    from django.contrib.auth.models import User
    from django.utils import timezone

    services = import_module("games.services")
    engine_game = import_module("games.store").engine_game
    start_game = import_module("games.dealing").start_game
    notification_model = apps.get_model("games", "Notification")
    delivery_model = apps.get_model("webhooks", "Delivery")

    users = []
    for name in ("alice", "bob", "carol"):
        user = User.objects.create_user(name, f"{name}@example.com", f"{name}-plays-bank")
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        users.append(user)
    alice, bob, carol = users
    apps.get_model("webhooks", "Webhook")._default_manager.create(
        user=alice, url="https://hooks.example.com/rb", kinds=["your_turn", "move", "game_over"]
    )

    playing = start_game(alice, bob, seed=1)
    rng = random.Random(1)
    for _ in range(6):
        playing.refresh_from_db()
        engine = engine_game(playing)
        seat, played = engine.to_move, 0
        while engine.to_move == seat and not engine.is_over:
            legal = [str(m) for m in engine.legal_moves(seat)]
            ends = [m for m in legal if m in ("C-W", "E")]
            move = ends[0] if ends and played > 6 else rng.choice(legal)
            result = services.play_moves(game_id=playing.pk, user=users[seat], moves=[move])
            engine, played = result.engine, played + 1
    services.write_message(game_id=playing.pk, user=alice, text="Bonne chance !")
    services.write_message(game_id=playing.pk, user=bob, text="Danke, dir auch.")

    over = start_game(alice, carol, seed=2)
    services.write_message(game_id=over.pk, user=carol, text="gg")
    services.resign(game_id=over.pk, user=carol)

    import_module("games.challenges").create_challenge(carol, opponent="bob", rules="pagat")

    now = timezone.now()
    rows = list(notification_model._default_manager.order_by("id"))
    states = [("sent", 1), ("failed", 5), ("sending", 1), ("outdated", 0)]
    for row, (status, attempts) in zip(rows, states, strict=False):
        row.status, row.attempts = status, attempts
        row.claimed_at = now - timedelta(minutes=3) if attempts else None
        row.sent_at = now if status == "sent" else None
        row.next_attempt_at = now + timedelta(minutes=2) if status == "sending" else None
        row.last_error = "550 mailbox unavailable" if status == "failed" else ""
        row.save()
    deliveries = list(delivery_model._default_manager.order_by("id"))
    states = [("delivered", 1), ("failed", 8), ("sending", 2)]
    for delivery, (status, attempts) in zip(deliveries, states, strict=False):
        delivery.status, delivery.attempts, delivery.claimed_at = status, attempts, now
        delivery.response_status = 200 if status == "delivered" else 503
        delivery.save()

    playing.refresh_from_db()
    address = str(import_module("games.mail_play").ReplyAddress(playing.pk, "B", playing.version))
    for number, sender in enumerate(("bob@example.com", "stranger@example.org")):
        raw = (
            f"From: {sender}\r\nTo: {address}\r\nSubject: Re: your turn\r\n"
            f"Message-ID: <reply-{number}@example.com>\r\n\r\nH1-H2\r\n"
        ).encode()
        receipt = import_module("mailplay.receiving").receive(
            raw, source="smtp", envelope_from=sender, envelope_to=[address]
        )
        if number == 0:
            import_module("mailplay.handling").handle(receipt.row.pk)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
