"""Competitions' pages: the list (open for entry, running, finished), a competition's
page (standings with tie-breaks, crosstable, each round's pairings with their games,
enter and withdraw), and the form that makes one. A public competition's page is
anyone's to read; a private one's its players', its invited and its link's holders'."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from lib.errors import ServiceError

from .forms import CompetitionForm
from .models import Competition, Format
from .services import entering, ladder, views

PAGE_SIZE = 25
LISTS = {
    "open": Competition.Status.OPEN,
    "running": Competition.Status.RUNNING,
    "finished": Competition.Status.FINISHED,
}


def _user(request: HttpRequest) -> User | None:
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None


def competition_list(request: HttpRequest) -> HttpResponse:
    shown = request.GET.get("status", "open")
    shown = shown if shown in LISTS else "open"
    found = (
        entering.visible(_user(request)).filter(status=LISTS[shown]).order_by("-created_at", "-pk")
    )
    page = Paginator(views.with_counts(found), PAGE_SIZE).get_page(request.GET.get("page"))
    tabs = [
        ("open", _("Open for entry")),
        ("running", _("Running")),
        ("finished", _("Finished")),
    ]
    return render(
        request,
        "competitions/list.html",
        {"page": page, "shown": shown, "tabs": tabs},
    )


def competition_page(request: HttpRequest, competition_id: int) -> HttpResponse:
    token = request.GET.get("token") or None
    try:
        competition = entering.competition_for(competition_id, _user(request), token)
    except ServiceError:
        raise Http404("no such competition") from None
    context: dict[str, Any] = views.page_context(competition, _user(request))
    context["token"] = token or ""
    context["invitation_link"] = request.build_absolute_uri(
        f"/competitions/{competition.pk}/?token={competition.token}"
    )
    return render(request, "competitions/competition.html", context)


@login_required
def new_competition(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    assert user is not None
    form = CompetitionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = entering.create_competition(user, form.terms())
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Your competition is open for entry."))
            return redirect("competition", competition_id=made.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "competitions/new.html", {"form": form}, status=status)


@login_required
@require_POST
def act(request: HttpRequest, competition_id: int, action: str) -> HttpResponse:
    """Enter, withdraw, start early (its maker) or (a ladder) challenge; a refusal is
    said on the page."""
    user = _user(request)
    assert user is not None
    token = request.POST.get("token") or None
    try:
        if action == "enter" and request.POST.get("computer"):
            entry = entering.enter_computer(competition_id, user, request.POST["computer"])
            messages.success(request, _("%(name)s has entered.") % {"name": entry.name})
        elif action == "enter":
            entering.enter(competition_id, user, token=token)
            messages.success(request, _("You have entered."))
        elif action == "withdraw":
            entering.withdraw(competition_id, user)
            messages.success(request, _("You have withdrawn."))
        elif action == "start":
            entering.start_now(competition_id, user)
            messages.success(request, _("The competition has started."))
        else:
            pairing = ladder.challenge(competition_id, user, request.POST.get("target", ""))
            if pairing.game_id is not None:
                return redirect("game", game_id=pairing.game_id)
    except ServiceError as exc:
        if exc.status == 404 and exc.code == "NOT_FOUND":
            raise Http404("no such competition") from None
        messages.error(request, exc.message)
    url = f"/competitions/{competition_id}/"
    if token:
        url += f"?token={token}"
    return redirect(url)


__all__ = ["Format"]
