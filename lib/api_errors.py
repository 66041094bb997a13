"""One error shape for the whole API: ``{"error": CODE, "message": ...}``."""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.signals import got_request_exception
from django.db import OperationalError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin
from django.utils.formats import number_format
from django.utils.log import log_response
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import csrf, defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from lib.errors import ServiceError

logger = logging.getLogger(__name__)

_CODES = {
    status.HTTP_400_BAD_REQUEST: "BAD_REQUEST",
    status.HTTP_401_UNAUTHORIZED: "NOT_AUTHENTICATED",
    status.HTTP_403_FORBIDDEN: "FORBIDDEN",
    status.HTTP_404_NOT_FOUND: "NOT_FOUND",
    status.HTTP_405_METHOD_NOT_ALLOWED: "METHOD_NOT_ALLOWED",
    status.HTTP_406_NOT_ACCEPTABLE: "NOT_ACCEPTABLE",
    status.HTTP_413_REQUEST_ENTITY_TOO_LARGE: "TOO_LARGE",
    status.HTTP_415_UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
    status.HTTP_429_TOO_MANY_REQUESTS: "THROTTLED",
}


def _message(detail: Any) -> str:
    if isinstance(detail, dict) and set(detail) == {"detail"}:
        return _message(detail["detail"])
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_message(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return "; ".join(_message(item) for item in detail)
    return str(detail)


class TooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


def _too_large(exc: Exception) -> TooLarge:
    """Django's upload limits, met while DRF reads the body: a 413, not a logged 400 page."""
    if isinstance(exc, TooManyFieldsSent):
        count = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        words = ngettext("%(count)s field", "%(count)s fields", count)
    elif isinstance(exc, TooManyFilesSent):
        count = settings.DATA_UPLOAD_MAX_NUMBER_FILES
        words = ngettext("%(count)s file", "%(count)s files", count)
    else:
        count = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        words = ngettext("%(count)s byte", "%(count)s bytes", count)
    # The number grouped as the request's language writes it (2,621,440 in English).
    limit = words % {"count": number_format(count, force_grouping=True)}
    return TooLarge(_("the request body is too large: at most %(limit)s") % {"limit": limit})


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        body = {"error": exc.code, "message": exc.message, **exc.extra}
        return Response(body, status=exc.status)
    if isinstance(exc, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        exc = _too_large(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = _CODES.get(response.status_code, "ERROR")
    if isinstance(exc, exceptions.ParseError):
        code = "MALFORMED_JSON"
    response.data = {"error": code, "message": _message(response.data)}
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Unknown URLs: the API's error shape under /api/, Django's page elsewhere."""
    if _is_api(request):
        return JsonResponse(
            {
                "error": "NOT_FOUND",
                "message": _("there is no API resource at %(path)s") % {"path": request.path},
            },
            status=404,
        )
    return defaults.page_not_found(request, exception or Exception())


_REFUSED_EARLY = gettext_lazy(
    "the request was refused before it reached the API: a Host header this site does "
    "not serve, or a malformed request"
)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """What Django refuses before any API view runs (a bad Host header, say): the error
    shape under /api/, Django's page elsewhere."""
    if _is_api(request):
        return JsonResponse({"error": "BAD_REQUEST", "message": str(_REFUSED_EARLY)}, status=400)
    return defaults.bad_request(request, exception or Exception())


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A signed-in browser's write without the CSRF token: the error shape under /api/
    (DRF's views check it themselves; this is for any other view there), Django's page
    elsewhere."""
    if _is_api(request):
        return JsonResponse(
            {
                "error": "FORBIDDEN",
                "message": _("CSRF check failed: send the X-CSRFToken header, or use a token"),
            },
            status=403,
        )
    return csrf.csrf_failure(request, reason)


#: Seconds a client is asked to wait when the database was out of reach.
RETRY_AFTER_SECONDS = 5

#: The request attribute that holds the ``OperationalError`` it met, if any.
_OUT_OF_REACH = "_database_out_of_reach"


def server_error(request: HttpRequest) -> HttpResponse:
    """An unhandled exception: 500 (the error shape under /api/, Django's page
    elsewhere). One that found the database out of reach is answered 503 instead, by
    ``DatabaseUnavailableMiddleware``."""
    if _is_api(request):
        return JsonResponse(
            {"error": "SERVER_ERROR", "message": _("something went wrong on our side")},
            status=500,
        )
    return defaults.server_error(request)


@receiver(got_request_exception, dispatch_uid="lib.api_errors.note_database_out_of_reach")
def note_database_out_of_reach(
    sender: object, request: HttpRequest | None = None, **_: Any
) -> None:
    """Marks a request whose uncaught exception is an ``OperationalError``. Django sends
    this signal for every exception that escapes a view or a middleware, as it turns
    the exception into a 500 (its debug page with DEBUG on, ``server_error`` without),
    before any outer middleware runs on: an outer middleware sees only the 500."""
    exception = sys.exc_info()[1]
    if request is not None and isinstance(exception, OperationalError):
        setattr(request, _OUT_OF_REACH, exception)


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """A request that found the database out of reach (every connection of the pool
    busy for ``DB_POOL_TIMEOUT``, or the server down) is answered 503 with
    Retry-After, not 500: nothing was done, and the same request may be sent again.

    Wherever the ``OperationalError`` was raised (the view, or a middleware reading
    the session, the user or the player's profile first), with DEBUG on or off: Django
    turns it into a 500 where it is raised, ``note_database_out_of_reach`` marks the
    request, and this middleware, the outermost (first in ``MIDDLEWARE``), answers
    the marked request 503 in place of that 500. What a cluster under load with
    ``make cluster``'s DEBUG answered 500 when its pool had no free connection
    (docs/scaling.md)."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        exception = getattr(request, _OUT_OF_REACH, None)
        if exception is None:
            return response
        unavailable = _unavailable(request)
        # The headers the middlewares below gave the 500 (the security headers, Vary,
        # Content-Language) are the 503's too; not those of the 500's own body.
        for header, value in response.items():
            if header.lower() not in ("content-type", "content-length"):
                unavailable.headers.setdefault(header, value)
        # Django has logged the exception, with its traceback, as it made the 500; the
        # 503 is logged once, as a warning (not a second error).
        log_response(
            "database out of reach: %s %s: %s",
            request.method,
            request.path,
            str(exception),
            response=unavailable,
            request=request,
            logger=logger,
            level="warning",
        )
        return unavailable


def _unavailable(request: HttpRequest) -> HttpResponse:
    message = _("the service is busy: try again in a few seconds")
    if _is_api(request):
        response: HttpResponse = JsonResponse(
            {"error": "SERVICE_UNAVAILABLE", "message": message}, status=503
        )
    else:
        response = render(request, "503.html", status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
