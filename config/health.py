"""``/healthz``: can this process serve? The database answers a ``SELECT 1`` and the
Celery broker takes a connection. No login, no session, one query: a load balancer or
compose may ask every few seconds.

200 ``{"database": "ok", "broker": "ok"}``, or 503 naming what failed (the reason goes
to the log, not to whoever asks).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.celery import app
from lib.logs import fields

logger = logging.getLogger(__name__)

OK, DOWN = "ok", "unavailable"


def database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def broker() -> None:
    """One connection, no retry: Redis's connect timeout (REDIS_TIMEOUT) bounds it."""
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=0)


CHECKS: dict[str, Callable[[], None]] = {"database": database, "broker": broker}


def _state(name: str, check: Callable[[], None]) -> str:
    try:
        check()
    except Exception as exc:  # whatever the driver raises, the part is down
        logger.warning("health check failed %s", fields(part=name, error=repr(exc)))
        return DOWN
    return OK


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    states = {name: _state(name, check) for name, check in CHECKS.items()}
    return JsonResponse(states, status=200 if set(states.values()) == {OK} else 503)
