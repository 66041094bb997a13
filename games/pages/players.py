"""Players' pages: the leaderboard, a player's ratings and record, blocking and
reporting a player; the public games to watch; the rules page."""

from __future__ import annotations

from functools import cached_property
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts import conduct
from games.lobby import ratings, rules_catalog
from games.models import Game
from games.pages.access import user_of
from games.pages.diagrams import diagrams
from games.pages.forms import ReportForm
from games.pages.lobby import COMPUTER_LEVELS
from games.play import selectors
from lib.errors import ServiceError


def leaderboard(request: HttpRequest) -> HttpResponse:
    family = request.GET.get("family", "standard")
    if family not in ratings.FAMILY_NAMES:
        family = "standard"
    rows = [ratings.ladder_row(row) for row in ratings.leaderboard(family)[:100]]
    context = {
        "family": family,
        "families": ratings.FAMILY_NAMES.items(),
        "rows": rows,
        "min_games": ratings.LEADERBOARD_MIN_GAMES,
    }
    return render(request, "games/leaderboard.html", context)


#: Games a page of the list of public games shows.
WATCH_PAGE_SIZE = 50
#: The list counts, and pages through, at most this many games: counting every game
#: being played (100,000 of them) on each visit cost more than the rest of the page,
#: and a deep page's OFFSET as much again (docs/big-database.md).
WATCH_LIMIT = 1_000


class NewestPages(Paginator[Game]):
    """Pages of the first ``limit`` items of a list, whose count reads at most
    ``limit + 1`` rows; ``more`` says whether the list goes on past them."""

    def __init__(self, object_list: QuerySet[Game], per_page: int, limit: int) -> None:
        super().__init__(object_list, per_page)
        self.games = object_list
        self.limit = limit

    @cached_property
    def found(self) -> int:
        # Any limit + 1 rows tell: unordered, the first an index finds.
        return self.games.order_by()[: self.limit + 1].count()

    @cached_property
    def count(self) -> int:
        return min(self.found, self.limit)

    @property
    def more(self) -> bool:
        return self.found > self.limit


@require_safe
def watch(request: HttpRequest) -> HttpResponse:
    """Games being played that anyone may watch (docs/spectators.md), newest activity
    first, by rules and by player; no sign-in needed. A filter that names no preset is
    no filter, and a page number out of range is the nearest page."""
    presets = rules_catalog.preset_choices()
    rules = request.GET.get("rules", "")
    rules = rules if rules in dict(presets) else ""
    player = request.GET.get("player", "").replace("\x00", "").strip()
    player = player[: selectors.PLAYER_FILTER_LENGTH]
    games = selectors.public_games(rules=rules or None, player=player or None)
    page = NewestPages(games, WATCH_PAGE_SIZE, WATCH_LIMIT).get_page(request.GET.get("page"))
    filters = urlencode(
        {name: value for name, value in (("rules", rules), ("player", player)) if value}
    )
    context = {
        "page": page,
        "presets": presets,
        "rules": rules,
        "player": player,
        "filters": filters,
        "rows": [(game, game.names()) for game in page],
    }
    return render(request, "games/public_games.html", context)


def player(request: HttpRequest, username: str) -> HttpResponse:
    return _player_page(request, username)


def _player_page(
    request: HttpRequest, username: str, report_form: ReportForm | None = None, status: int = 200
) -> HttpResponse:
    """A player's ratings and record; for a signed-in visitor who is someone else, a
    block (which only the blocker ever sees) and a report (docs/conduct.md)."""
    user = (
        User.objects.filter(username__iexact=username, is_active=True)
        .select_related("profile")
        .prefetch_related("ratings")
        .first()
    )
    if user is None:
        raise Http404("no such player")
    profile = ratings.player_profile(user)
    for record in profile["records"]:
        record["name"] = ratings.FAMILY_NAMES[record["family"]]
    level = profile["computer"]
    viewer = request.user
    # A computer player writes nothing and takes every challenge: nothing to keep away.
    conduct_forms = viewer.is_authenticated and viewer.pk != user.pk and not level
    context = {
        "player": profile,
        "the_user": user,
        "computer_level": COMPUTER_LEVELS.get(level, level) if level else "",
        "conduct": conduct_forms,
        "blocking": conduct_forms and conduct.blocks(viewer.pk, user.pk),
        "report_form": report_form or ReportForm(),
    }
    return render(request, "games/player.html", context, status=status)


@login_required
@require_POST
def block_player(request: HttpRequest, username: str) -> HttpResponse:
    """Block (``block=yes``) or unblock (``block=no``) the player, from their page."""
    me = user_of(request)
    try:
        if request.POST.get("block") == "no":
            conduct.unblock(me, username)
            messages.success(request, _("You no longer block %(name)s.") % {"name": username})
        else:
            blocked = conduct.block(me, username)
            username = blocked.get_username()
            messages.success(
                request,
                _(
                    "You block %(name)s: they cannot challenge you, you do not read what "
                    "they write, and neither of you sees the other's open challenges. "
                    "Nobody else is told."
                )
                % {"name": username},
            )
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("player", username=username)


@login_required
@require_POST
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """Report the player to support staff; a refused report is the form again."""
    form = ReportForm(request.POST)
    if form.is_valid():
        try:
            conduct.report_player(
                user_of(request),
                username,
                reason=form.cleaned_data["reason"],
                details=form.cleaned_data["details"],
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Thank you: support staff will read your report."))
            return redirect("player", username=username)
    return _player_page(request, username, report_form=form, status=400)


def rules(request: HttpRequest) -> HttpResponse:
    context = {
        "presets": rules_catalog.presets_in_plain_words(),
        "options": rules_catalog.options(),
        "diagrams": diagrams(get_language() or "en"),
    }
    return render(request, "pages/rules.html", context)
