"""Site-wide views that belong to no app."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static

from lib import mailbox


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says. The static URL is resolved
    per request, not at import: the hashed name exists only after collectstatic."""
    return HttpResponsePermanentRedirect(static("games/favicon.svg"))


def _debug_only() -> None:
    """The development mailbox exists only under DEBUG: elsewhere its pages are 404."""
    if not settings.DEBUG:
        raise Http404("no such page")


def dev_mail(request: HttpRequest) -> HttpResponse:
    """``/dev/mail/``: the e-mails kept under ``MAIL_FOLDER``, newest first, each with
    its links (DEBUG only; lib/mailbox.py)."""
    _debug_only()
    return render(
        request, "dev/mail.html", {"messages_kept": mailbox.kept(), "folder": mailbox.folder()}
    )


def dev_mail_message(request: HttpRequest, name: str) -> HttpResponse:
    """One kept e-mail: its text with the links made clickable, and its HTML part."""
    _debug_only()
    message = mailbox.read(name)
    if message is None:
        raise Http404("no such e-mail")
    if request.GET.get("part") == "html":
        return HttpResponse(message.html, content_type="text/html; charset=utf-8")
    return render(request, "dev/mail_message.html", {"message": message})
