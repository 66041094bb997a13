"""``manage.py make_vapid_keys``: the server's VAPID key pair for push notifications,
written to ``VAPID_KEY_FILE`` (under the var dir by default, never in the repository).

``--if-absent`` keeps a key that is there (``make run`` calls it at each start);
otherwise an existing file is refused, for a new key unsubscribes every browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.push import keys


class Command(BaseCommand):
    help = "Make the VAPID key pair of push notifications (VAPID_KEY_FILE)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-absent", action="store_true", help="do nothing when a key is configured"
        )
        parser.add_argument("--print", action="store_true", help="print the public key")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(settings.VAPID_KEY_FILE)
        if settings.VAPID_PRIVATE_KEY or path.exists():
            if not options["if_absent"]:
                where = "VAPID_PRIVATE_KEY" if settings.VAPID_PRIVATE_KEY else path
                raise CommandError(
                    f"a VAPID key is already configured ({where}); a new one would end"
                    " every browser's subscription: delete it first"
                )
        else:
            keys.write_key_file(path)
            self.stdout.write(f"VAPID key written to {path}")
        if options["print"]:
            self.stdout.write(keys.public_key())
