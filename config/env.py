"""What every settings module reads: the environment's helpers, and the few settings
the others derive theirs from (config/settings.py, config/settings_mail.py,
config/settings_tasks.py), each read from the environment once, here."""

from __future__ import annotations

import os
from email.utils import getaddresses
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
#: What the service writes: the SQLite database, the broker's and the cache's files,
#: the development mailbox, static files, beat's schedule.
VAR_DIR = Path(os.environ.get("RBANK_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_addresses(name: str) -> list[tuple[str, str]]:
    """``Ann <ann@example.com>, bob@example.com`` as Django's ADMINS: (name, address)."""
    return [(who, address) for who, address in getaddresses([os.environ.get(name, "")]) if address]


#: Development: Django's debug pages, the development mailbox, no HTTPS (make run).
DEBUG = env_bool("DEBUG", False)
#: The site's address, as its e-mails link to it (and the default MAIL_DOMAIN).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
#: The Celery broker (config/settings_tasks.py), and the cache in the next database
#: (config/settings.py); empty, both are kept in files under VAR_DIR.
REDIS_URL = os.environ.get("REDIS_URL", "")
#: Seconds to wait for Redis to accept a connection: when it is down, a request gives
#: up soon (its e-mail waits in the outbox, throttling lets it through) instead of hanging.
REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", "2"))
