"""The containers' health checks (docker/compose.yml), one short process each:

    python -m config.healthcheck web    # GET /healthz on this container's port
    python -m config.healthcheck beat   # beat's heartbeat file is recent
    python -m config.healthcheck mail   # the SMTP receiver answers on its port

Exit status 0 when healthy, 1 with one line saying why. (The worker's check is
Celery's own ``celery inspect ping``.)
"""

from __future__ import annotations

import os
import smtplib
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def web() -> str | None:
    """/healthz through gunicorn on PORT, asked for the first allowed host (Django
    refuses any other ``Host``)."""
    host = os.environ.get("ALLOWED_HOSTS", "localhost").split(",")[0].strip().lstrip(".")
    url = f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz"
    request = urllib.request.Request(url, headers={"Host": host if host != "*" else "localhost"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()
    except urllib.error.HTTPError as exc:
        return f"{url} answered {exc.code}: {exc.read().decode(errors='replace')}"
    except OSError as exc:
        return f"{url}: {exc}"
    return None


def beat() -> str | None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    heartbeat = Path(settings.BEAT_HEARTBEAT_FILE)
    try:
        age = time.time() - heartbeat.stat().st_mtime
    except OSError:
        return f"no heartbeat at {heartbeat}"
    if age > settings.BEAT_HEARTBEAT_MAX_AGE:
        return f"beat's last heartbeat is {age:.0f} s old"
    return None


def mail() -> str | None:
    """The play-by-mail receiver greets and answers NOOP on MAIL_RECEIVER_PORT."""
    port = int(os.environ.get("MAIL_RECEIVER_PORT", "2525"))
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            code, words = client.noop()
    except (OSError, smtplib.SMTPException) as exc:
        return f"SMTP on 127.0.0.1:{port}: {exc}"
    return None if code == 250 else f"SMTP on 127.0.0.1:{port} answered {code} {words!r}"


CHECKS = {"web": web, "beat": beat, "mail": mail}


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in CHECKS:
        print(f"usage: python -m config.healthcheck {'|'.join(CHECKS)}", file=sys.stderr)
        return 2
    problem = CHECKS[argv[0]]()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
