"""The lobby (``/``): the games waiting for the player, challenges to answer, a new
game against a player or the computer; an e-mailed invitation followed."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import conduct, invitations
from accounts.bots import BOT_PLAYERS
from accounts.services import calendar_address, has_account, profile_of
from games.engine import PRESETS
from games.engine import Game as EngineGame
from games.lobby import challenges, ratings, rules_catalog
from games.models import Challenge
from games.pages.access import user_of
from games.pages.board import Board, build_board
from games.pages.forms import NewGameForm
from games.play import selectors
from games.words.results import result_line
from lib.errors import ServiceError

#: The computer's strengths as the lobby names them (the values posted stay these keys).
COMPUTER_LEVELS = {
    "easy": pgettext_lazy("computer strength", "easy"),
    "medium": pgettext_lazy("computer strength", "medium"),
    "strong": pgettext_lazy("computer strength", "strong"),
}


def lobby(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        moves_url = request.build_absolute_uri(reverse("api-game-moves", args=[7]))
        return render(
            request,
            "games/welcome.html",
            {
                "board": sample_table(get_language() or "en"),
                # Commands, not words: the same in every language.
                "sample_reply": "H3-F1 R-H3 T C-W",
                "sample_request": (
                    'curl -H "Authorization: Token rb_…" -H "Content-Type: application/json" \\\n'
                    f'  -d \'{{"moves": ["T"]}}\' {moves_url}'
                ),
            },
        )
    return _lobby(request, NewGameForm())


#: The home page's table: a real deal a few dozen moves in, drawn as a spectator sees it.
SAMPLE_SEED, SAMPLE_MOVES = 20261127, 36


@lru_cache(maxsize=8)
def sample_table(language: str) -> Board:
    """The table the home page shows, in ``language`` (its piles' names are words)."""
    game = EngineGame(SAMPLE_SEED)
    rng = random.Random(SAMPLE_SEED)
    for _move in range(SAMPLE_MOVES):
        seat = game.to_move
        moves = game.legal_moves(seat)
        # Mostly the moves a player makes first (onto the foundations, out of the
        # reserve), so the table looks like a game under way, not a scramble.
        keen = [m for m in moves if str(m).startswith("R-") or "-F" in str(m)]
        game.play(seat, [rng.choice(keen or moves)])
    names = {"A": pgettext("seat", "you"), "B": _("your opponent")}
    return build_board(game.view(None), names=names)


def _lobby(request: HttpRequest, form: NewGameForm, status: int = 200) -> HttpResponse:
    user = user_of(request)
    games = list(selectors.my_games(user, filter_="active"))
    ratings.annotate(games)
    rows = [(game, game.seat_of(user.pk)) for game in games]
    pending = list(challenges.challenges_for(user).filter(status=Challenge.Status.PENDING))
    ratings.annotate_challenges(pending)
    context = {
        "my_turn": [(g, s) for g, s in rows if g.to_move == g.letters[s or 0]],
        "waiting": [(g, s) for g, s in rows if g.to_move != g.letters[s or 0]],
        "finished": [
            (game, result_line(game, game.seat_of(user.pk)))
            for game in selectors.my_games(user, filter_="finished").order_by("-finished_at")[:20]
        ],
        "received": [c for c in pending if user in c.invited and user not in c.accepted],
        "sent": [c for c in pending if c.challenger_id == user.pk],
        "open": [
            c
            for c in pending
            if c.is_open and c.challenger_id != user.pk and user not in c.accepted
        ],
        # G3: three-player challenges this player accepted, waiting for the third.
        "joined": [c for c in pending if user in c.accepted],
        "form": form,
        "computers": [
            (level, name, ratings.BOT_RATINGS[level], COMPUTER_LEVELS.get(level, level))
            for level, (name, _bot) in BOT_PLAYERS.items()
        ],
        "presets": rules_catalog.preset_choices(),
        "near": _near(user) if not games else [],
        "my_standing": ratings.standings([user], "standard")[user.pk],
        "calendar": _calendar_link(user),
    }
    return render(request, "games/lobby.html", context, status=status)


#: How many players rated nearest the lobby suggests.
NEAR_COUNT = 5


def _near(user: User) -> list[tuple[User, ratings.Standing]]:
    """The players rated nearest to ``user`` whom they may challenge: none they block
    or who blocks them (docs/conduct.md)."""
    apart = conduct.kept_apart(user)
    near = ratings.near(user, "standard", count=NEAR_COUNT + len(apart))
    return [(other, standing) for other, standing in near if other.pk not in apart][:NEAR_COUNT]


def _calendar_link(user: User) -> str:
    """The lobby's "Add to calendar": the player's feed for the calendar program to
    subscribe to, or the account page's section that makes one."""
    token = profile_of(user).calendar_token
    if token:
        return calendar_address(token, scheme="webcal")
    return reverse("profile") + "#calendar"


@login_required
@require_POST
def new_challenge(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    data = form.cleaned_data
    opponent = data["opponent"]
    second_opponent = data.get("second_opponent") or None
    try:
        challenge = challenges.create_challenge(
            user_of(request),
            opponent=None if "@" in opponent else opponent or None,
            second_opponent=second_opponent,
            email=opponent if "@" in opponent else None,
            is_open=not opponent,
            rules=data["rules"],
            rule_options=form.rule_options(),
            stop_mode=data["stop_mode"],
            match_target=data["match_target"],
            clock=form.time_control(),
            rated=data["rated"],
            min_rating=data["min_rating"] if not opponent else None,
            max_rating=data["max_rating"] if not opponent else None,
            public=not data["private"],
            contribution=request.POST.get("contribution"),
        )
    except ServiceError as exc:
        # A refusal is the form again, beside the field it is about; never the refusal's
        # own status (a 404 for an unknown player would read as "no such page").
        form.add_error(_refused_field(exc, data, user_of(request).get_username()), exc.message)
        return _lobby(request, form, status=400)
    if challenge.game_id is not None:  # a computer took it up at once
        return redirect("game", game_id=challenge.game_id)
    if challenge.email:
        messages.success(request, _("Invitation sent to %(email)s.") % {"email": challenge.email})
    elif challenge.is_open:
        messages.success(request, _("Your open challenge is waiting for a taker."))
    elif second_opponent:
        sent = _("Challenge sent to %(opponent)s and %(second)s.")
        messages.success(request, sent % {"opponent": opponent, "second": second_opponent})
    else:
        messages.success(request, _("Challenge sent to %(opponent)s.") % {"opponent": opponent})
    return redirect("lobby")


def _refused_field(error: ServiceError, data: dict[str, Any], me: str) -> str | None:
    """The opponent field a refused challenge is about: the one the refusal quotes (an
    unknown player, a malformed address), the one naming oneself, or the one naming a
    player (or an address) that takes no challenge from us; else None, the form."""
    refused = str(error.extra.get("player", "")).lower()
    for field in ("second_opponent", "opponent"):
        value = str(data.get(field) or "")
        if value and (
            repr(value) in error.message
            or (error.code == "SAME_PLAYER" and value.lower() == me.lower())
            or (bool(refused) and value.lower() == refused)
        ):
            return field
    return None


@login_required
@require_POST
def answer_challenge(request: HttpRequest, challenge_id: int, action: str) -> HttpResponse:
    answer = {
        "accept": challenges.accept_challenge,
        "decline": challenges.decline_challenge,
        "cancel": challenges.cancel_challenge,
    }[action]
    try:
        if action == "accept":
            contribution = request.POST.get("contribution")
            challenge = challenges.accept_challenge(
                challenge_id, user_of(request), contribution=contribution
            )
        else:
            challenge = answer(challenge_id, user_of(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby")
    if action == "accept" and challenge.game_id is not None:
        return redirect("game", game_id=challenge.game_id)
    if action == "accept":  # G3: a seat taken, the game waits for a third player
        messages.success(request, _("You are in: the game starts when a third player accepts."))
        return redirect("lobby")
    if challenge.status == Challenge.Status.PENDING:  # G3: left an open challenge
        messages.success(request, _("You have left the challenge."))
        return redirect("lobby")
    answered: dict[str, str] = {
        Challenge.Status.ACCEPTED: _("Challenge accepted."),
        Challenge.Status.DECLINED: _("Challenge declined."),
        Challenge.Status.CANCELLED: _("Challenge cancelled."),
    }
    messages.success(request, answered.get(challenge.status, f"Challenge {challenge.status}."))
    return redirect("lobby")


@login_required
@require_POST
def play_computer(request: HttpRequest) -> HttpResponse:
    """The lobby's "Play the computer": a challenge the computer takes up at once."""
    level, preset = request.POST.get("level", ""), request.POST.get("rules", "pagat")
    if level not in BOT_PLAYERS:
        messages.error(request, _("Choose the computer's strength: easy, medium or strong."))
        return redirect("lobby")
    # Three seats: the level chosen, and a second computer of another level.
    other = "medium" if level != "medium" else "easy"
    three = preset in PRESETS and PRESETS[preset].seats == 3
    try:
        challenge = challenges.create_challenge(
            user_of(request),
            opponent=BOT_PLAYERS[level][0],
            second_opponent=BOT_PLAYERS[other][0] if three else None,
            rules=preset,
            contribution=request.POST.get("contribution"),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby")
    assert challenge.game_id is not None
    return redirect("game", game_id=challenge.game_id)


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Show an e-mail invitation; accept or decline it once signed in (sign up on the way)."""
    try:
        challenge = challenges.challenge_by_token(token)
    except ServiceError as exc:
        return render(request, "games/invitation.html", {"error": exc.message}, status=exc.status)
    if not request.user.is_authenticated:
        # Sign up first, or log in when the invited address has an account already; the
        # sign-up page then knows the invitation.
        invitations.remember(request, token)
        query = urlencode({"next": request.get_full_path()})
        known = has_account(challenge.email)
        return redirect(f"{reverse('account_login' if known else 'account_signup')}?{query}")
    user = user_of(request)
    error = None
    if request.method == "POST":
        answer = request.POST.get("answer")
        try:
            if answer == "accept":
                challenge = challenges.accept_challenge(
                    challenge.pk, user, token=token, contribution=request.POST.get("contribution")
                )
                invitations.forget(request)
                assert challenge.game_id is not None
                return redirect("game", game_id=challenge.game_id)
            if answer == "decline":
                challenge = challenges.decline_challenge(challenge.pk, user, token=token)
                invitations.forget(request)
        except ServiceError as exc:
            error = exc.message
    return render(request, "games/invitation.html", {"challenge": challenge, "error": error})
