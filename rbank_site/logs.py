"""Log lines that read as ``event key=value ...``: short, and easy to grep or parse.

Each module logs to its own logger (``logging.getLogger(__name__)``: ``games.services``,
``games.stops``...); the settings' LOGGING sends them all to the console at
``LOG_LEVEL``.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from rbank_site.errors import ServiceError

P = ParamSpec("P")
R = TypeVar("R")


def _value(value: object) -> str:
    if hasattr(value, "get_username"):  # a user: their name, as support staff search it
        value = value.get_username()
    elif isinstance(value, list | tuple):  # a score: 90,0
        value = ",".join(map(str, value))
    text = str(value)
    # Quoted when it could be misread: empty, spaces, quotes, "=" (a player's move text).
    return repr(text) if not text or any(c in text for c in " \t\r\n\"'=") else text


def fields(**values: object) -> str:
    """``game=12 user=alice move='H2 H7'``: every value on one line, quoted if need be."""
    return " ".join(f"{key}={_value(value)}" for key, value in values.items())


def not_a_health_check(record: logging.LogRecord) -> bool:
    """False for Django's line about a 503 from /healthz: the check logs what failed
    itself, and a probe every few seconds must not e-mail the admins each time."""
    return getattr(getattr(record, "request", None), "path", None) != "/healthz"


#: The services' keyword arguments a refusal's line names, and the names it uses.
ARGUMENTS = {"game_id": "game", "user": "user"}


def logs_refusals(action: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Log every ``ServiceError`` the service raises, at INFO, with its code:
    ``refused action=move game=12 user=alice code=S4 move=H2-H7 index=0``.

    The service's keyword arguments ``game_id`` and ``user`` name the game and player;
    the error's extras (the move, its index...) follow. Services take keywords only.
    """

    def decorate(service: Callable[P, R]) -> Callable[P, R]:
        logger = logging.getLogger(service.__module__)

        @functools.wraps(service)
        def logged(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return service(*args, **kwargs)
            except ServiceError as exc:
                about: dict[str, Any] = {
                    name: kwargs[key] for key, name in ARGUMENTS.items() if key in kwargs
                }
                logger.info(
                    "refused %s", fields(action=action, **about, code=exc.code, **exc.extra)
                )
                raise

        return logged

    return decorate
