"""What every game page checks first: who asks, and which game they may see (a
player's seat, or a spectator's of a public game)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse

from games.models import Game
from games.play import selectors
from lib.errors import ServiceError


def user_of(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required has run
    return request.user


def wants_fragment(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


def player_game(request: HttpRequest, game_id: int) -> tuple[Game, int]:
    """The game and the user's seat; a stranger gets the page for a game that does not exist."""
    try:
        game = selectors.game_for(request.user, game_id)
    except ServiceError:
        raise Http404("no such game") from None
    seat = game.seat_of(request.user.pk)
    assert seat is not None
    return game, seat


def watched_game(request: HttpRequest, game_id: int) -> tuple[Game, int | None]:
    """The game and the seat it is seen from: the user's own, or None, a spectator's
    (a public game, docs/spectators.md); a private game is 404 as an unknown one is."""
    try:
        return selectors.game_to_watch(request.user, game_id)
    except ServiceError:
        raise Http404("no such game") from None


def watchable(page: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A game's page that anyone may open when the game is public. Signed out, a
    game that is not there to watch (private or unknown alike) sends the visitor to
    log in, as every game page did before games could be watched: the answer never
    tells a private game from a missing one. Signed in, both are 404."""

    @wraps(page)
    def answer(request: HttpRequest, game_id: int) -> HttpResponse:
        try:
            return page(request, game_id)
        except Http404:
            if request.user.is_authenticated:
                raise
            return redirect_to_login(request.get_full_path())

    return answer
