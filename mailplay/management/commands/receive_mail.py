"""``manage.py receive_mail``: the SMTP receiver of play by mail, until stopped."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from mailplay.smtp import controller


class Command(BaseCommand):
    help = "Receive the replies of play by mail over SMTP (aiosmtpd)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=settings.MAIL_RECEIVER_HOST)
        parser.add_argument("--port", type=int, default=settings.MAIL_RECEIVER_PORT)

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        server = controller(host, port)
        server.start()
        self.stdout.write(
            f"receiving mail for @{settings.MAIL_DOMAIN} on {host}:{port}", ending="\n"
        )
        self.stdout.flush()
        try:
            stop.wait()
        finally:
            server.stop()
            server.handler.close()
