"""Make ``main.sqlite3.gz``: a database as the service stored it before the games were
split into rooms and the three outboxes became one (commit 0cbb2ab), for
``tests/service/test_migration_from_main.py`` to migrate.

Run from a checkout of that commit (``git worktree add /tmp/old 0cbb2ab``), in its
virtualenv: ``DEBUG=1 python tests/data/main_db/make.py OUT_DIR``. It writes the
database and ``expected.json``: how many rows each table holds, by status."""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def main(out: Path) -> None:
    database = out / "main.sqlite3"
    database.unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(HERE.parents[2]))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    fill()
    counts = tally()
    from django.db import connection

    with connection.cursor() as cursor:  # everything into the file itself, no WAL beside
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cursor.execute("PRAGMA journal_mode=DELETE")
    connection.close()
    with open(database, "rb") as raw, gzip.open(out / "main.sqlite3.gz", "wb") as packed:
        shutil.copyfileobj(raw, packed)
    database.unlink()
    (out / "expected.json").write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n")


def fill() -> None:
    from allauth.account.models import EmailAddress
    from django.contrib.auth.models import User
    from django.utils import timezone

    from games.lobby.challenges import create_challenge
    from games.models import Notification
    from games.notify.mail_play import ReplyAddress
    from games.play.dealing import start_game
    from games.play.services import play_moves, resign, write_message
    from games.play.store import engine_game
    from mailplay.handling import handle
    from mailplay.receiving import receive
    from webhooks.models import Delivery, Webhook

    users = []
    for name in ("alice", "bob", "carol"):
        user = User.objects.create_user(name, f"{name}@example.com", f"{name}-plays-bank")
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        users.append(user)
    alice, bob, carol = users
    Webhook.objects.create(
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
            result = play_moves(game_id=playing.pk, user=users[seat], moves=[move])
            assert result.engine is not None
            engine, played = result.engine, played + 1
    write_message(game_id=playing.pk, user=alice, text="Bonne chance !")
    write_message(game_id=playing.pk, user=bob, text="Danke, dir auch.")

    over = start_game(alice, carol, seed=2)
    write_message(game_id=over.pk, user=carol, text="gg")
    resign(game_id=over.pk, user=carol)

    create_challenge(carol, opponent="bob", rules="pagat")

    # Each outbox with rows in every state a worker leaves them in.
    now = timezone.now()
    rows = list(Notification.objects.order_by("id"))
    for row, (status, attempts) in zip(
        rows, [("sent", 1), ("failed", 5), ("sending", 1), ("outdated", 0)], strict=False
    ):
        row.status, row.attempts = status, attempts
        row.claimed_at = now - timedelta(minutes=3) if attempts else None
        row.sent_at = now if status == "sent" else None
        row.next_attempt_at = now + timedelta(minutes=2) if status == "sending" else None
        row.last_error = "550 mailbox unavailable" if status == "failed" else ""
        row.save()
    deliveries = list(Delivery.objects.order_by("id"))
    for delivery, (status, attempts) in zip(
        deliveries, [("delivered", 1), ("failed", 8), ("sending", 2)], strict=False
    ):
        delivery.status, delivery.attempts, delivery.claimed_at = status, attempts, now
        delivery.response_status = 200 if status == "delivered" else 503
        delivery.save()
    playing.refresh_from_db()
    address = str(ReplyAddress(playing.pk, "B", playing.version))
    for number, sender in enumerate(("bob@example.com", "stranger@example.org")):
        raw = (
            f"From: {sender}\r\nTo: {address}\r\nSubject: Re: your turn\r\n"
            f"Message-ID: <reply-{number}@example.com>\r\n\r\nH1-H2\r\n"
        ).encode()
        receipt = receive(raw, source="smtp", envelope_from=sender, envelope_to=[address])
        if number == 0:
            assert receipt.row is not None
            handle(receipt.row.pk)


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
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
