"""Log lines that read as ``event key=value ...``: short, and easy to grep or parse.

Each module logs to its own logger (``logging.getLogger(__name__)``: ``games.play.services``,
``games.play.stops``...); the settings' LOGGING sends them all to the console at
``LOG_LEVEL``.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from lib.errors import ServiceError

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


#: The signature of a play-by-mail reply or bounce address (games.notify.mail_play): the last
#: part of its local part, 16 base32 letters.
_SIGNATURE = re.compile(r"\b((?:play|bounce)\+[0-9a-z.]*\.)[a-z2-7]{16}\b", re.IGNORECASE)


def without_signatures(text: str) -> str:
    """``text`` with the signature of every reply or bounce address in it hidden: a reply
    address is a capability (whoever holds it may play the seat), so none is written
    whole anywhere but in the e-mail it belongs to."""
    return _SIGNATURE.sub(r"\1*", text)


def hide_signatures(record: logging.LogRecord) -> bool:
    """Every line keeps its text but not the signature of a reply or bounce address,
    whoever logged it: the SMTP server's own lines name each recipient, and a
    template's error at DEBUG shows its whole context. Always True (a filter that
    changes the line, drops none)."""
    message = record.getMessage()
    hidden = without_signatures(message)
    if hidden != message:
        record.msg, record.args = hidden, None
    if record.exc_info and not record.exc_text:  # the formatter then writes this text
        record.exc_text = logging.Formatter().formatException(record.exc_info)
    if record.exc_text:
        record.exc_text = without_signatures(record.exc_text)
    if record.stack_info:
        record.stack_info = without_signatures(record.stack_info)
    return True


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
