"""The account's webhooks page (``/account/webhooks/``): the player's webhooks, each
with its recent deliveries; register, turn off or on, ping, replace the secret,
delete. A secret is shown on the answer that made it only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from games.feed.events import KINDS
from lib.errors import ServiceError

from . import services
from .addresses import MAX_URL_LENGTH
from .models import Delivery, Webhook

#: Deliveries shown under each webhook (the API's log has them all).
RECENT = 20

#: A delivery's status, in the words of the page's log.
STATUS_WORDS = {
    "pending": pgettext_lazy("webhook delivery", "pending"),
    "sending": pgettext_lazy("webhook delivery", "sending"),
    "delivered": pgettext_lazy("webhook delivery", "delivered"),
    "failed": pgettext_lazy("webhook delivery", "failed"),
    "skipped": pgettext_lazy("webhook delivery", "skipped"),
}


class WebhookForm(forms.Form):
    url = forms.CharField(
        max_length=MAX_URL_LENGTH,
        label=gettext_lazy("URL"),
        help_text=gettext_lazy(
            "Where the events are POSTed, e.g. https://bot.example.com/rbank/events"
        ),
    )
    kinds = forms.MultipleChoiceField(
        # format_lazy: the words of each kind in the language of the page, not the
        # language active when this module was imported.
        choices=[(kind, format_lazy("{}: {}", kind, words)) for kind, words in KINDS.items()],
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Events"),
        initial=["your_turn", "game_over"],
    )


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required has run
    return request.user


def _recent(hook: Webhook) -> list[tuple[Delivery, str]]:
    """The webhook's last deliveries, newest first, each with its status in words."""
    rows = hook.deliveries.order_by("-pk")[:RECENT]
    return [(row, str(STATUS_WORDS.get(row.status, row.status))) for row in rows]


def _page(
    request: HttpRequest, form: WebhookForm, *, shown: Webhook | None = None, status: int = 200
) -> HttpResponse:
    hooks = list(Webhook.objects.filter(user=_user(request)).order_by("pk"))
    context: dict[str, Any] = {
        "form": form,
        "webhooks": [(hook, _recent(hook)) for hook in hooks],
        "shown": shown,
        "max_webhooks": services.MAX_WEBHOOKS,
    }
    response = render(request, "webhooks/webhooks.html", context, status=status)
    if shown is not None:
        response["Cache-Control"] = "no-store"  # the secret must not stay in a cache
    return response


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request: HttpRequest) -> HttpResponse:
    form = WebhookForm(request.POST or None)
    if request.method != "POST":
        return _page(request, form)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        hook = services.create_webhook(
            _user(request), form.cleaned_data["url"], form.cleaned_data["kinds"]
        )
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _page(request, form, status=400)
    return _page(request, WebhookForm(), shown=hook, status=201)


@login_required
@require_POST
def replace_secret(request: HttpRequest, webhook_id: int) -> HttpResponse:
    try:
        hook = services.rotate_secret(_user(request), webhook_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("webhooks")
    return _page(request, WebhookForm(), shown=hook)


@login_required
@require_POST
def switch(request: HttpRequest, webhook_id: int) -> HttpResponse:
    """Turn a webhook on (``active=1``: it resumes its pending deliveries) or off."""
    on = request.POST.get("active") == "1"
    return _act(
        request,
        lambda: services.update_webhook(_user(request), webhook_id, {"active": on}),
        _("The webhook is on.") if on else _("The webhook is off."),
    )


@login_required
@require_POST
def ping(request: HttpRequest, webhook_id: int) -> HttpResponse:
    return _act(
        request,
        lambda: services.ping(_user(request), webhook_id),
        _("A ping is on its way: its outcome shows in the log below."),
    )


@login_required
@require_POST
def delete(request: HttpRequest, webhook_id: int) -> HttpResponse:
    return _act(
        request,
        lambda: services.delete_webhook(_user(request), webhook_id),
        _("The webhook is deleted: nothing more is sent to it."),
    )


def _act(request: HttpRequest, action: Callable[[], object], done: str) -> HttpResponse:
    """Do ``action``; say ``done``, or why it was refused; back to the webhooks page."""
    try:
        action()
        messages.success(request, done)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("webhooks")
