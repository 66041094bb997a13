"""The error every service raises to refuse an action; the API renders it unchanged."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused action: ``status`` for HTTP, ``code`` for programs, ``message`` for people."""

    def __init__(self, status: int, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra
