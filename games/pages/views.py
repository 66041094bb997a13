"""HTML pages: the lobby, the game table (a player's or a spectator's) and its messages,
the replay, the public games, a player's page (blocking and reporting them), the rules,
the invitation link.

Thin views, as the API's: read the request, call one service or selector, render.
A page that changes the game posts a form; the table's script posts the same
form with ``X-Requested-With: fetch`` and gets the table's HTML back instead of a
redirect, so the page updates in place with or without JavaScript.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy
from django.views.decorators.http import require_GET, require_POST, require_safe

from accounts import conduct, invitations
from accounts.bots import BOT_PLAYERS
from accounts.models import Report
from accounts.services import calendar_address, calendar_owner, has_account, profile_of
from games import talk
from games.api.stream import holds_streams
from games.engine import PRESETS, seed_commitment, view
from games.engine import Game as EngineGame
from games.lobby import challenges, ratings, rules_catalog
from games.models import Challenge, Game, Message
from games.notify import mail_play
from games.pages import calendar, poll
from games.pages.board import build_board, revealed_view
from games.pages.forms import NewGameForm, ReportForm
from games.play import presence, selectors, services, stops
from games.play.results import agreement_terms, result_line
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.play.store import engine_game
from games.templatetags.seats import and_list
from lib.errors import ServiceError

#: The computer's strengths as the lobby names them (the values posted stay these keys).
COMPUTER_LEVELS = {
    "easy": pgettext_lazy("computer strength", "easy"),
    "medium": pgettext_lazy("computer strength", "medium"),
    "strong": pgettext_lazy("computer strength", "strong"),
}


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required has run
    return request.user


def _wants_fragment(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


def _player_game(request: HttpRequest, game_id: int) -> tuple[Game, int]:
    """The game and the user's seat; a stranger gets the page for a game that does not exist."""
    try:
        game = selectors.game_for(request.user, game_id)
    except ServiceError:
        raise Http404("no such game") from None
    seat = game.seat_of(request.user.pk)
    assert seat is not None
    return game, seat


def _watched_game(request: HttpRequest, game_id: int) -> tuple[Game, int | None]:
    """The game and the seat it is seen from: the user's own, or None, a spectator's
    (a public game, docs/spectators.md); a private game is 404 as an unknown one is."""
    try:
        return selectors.game_to_watch(request.user, game_id)
    except ServiceError:
        raise Http404("no such game") from None


def _watchable(page: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
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


# ---------------------------------------------------------------------------- lobby


def lobby(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/welcome.html")
    return _lobby(request, NewGameForm())


def _lobby(request: HttpRequest, form: NewGameForm, status: int = 200) -> HttpResponse:
    user = _user(request)
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
    apart = set(User.objects.filter(conduct.kept_apart(user)).values_list("pk", flat=True))
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
            _user(request),
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
        )
    except ServiceError as exc:
        # A refusal is the form again, beside the field it is about; never the refusal's
        # own status (a 404 for an unknown player would read as "no such page").
        form.add_error(_refused_field(exc, data, _user(request).get_username()), exc.message)
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
        challenge = answer(challenge_id, _user(request))
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


# ----------------------------------------------------------------------- the game page


def _table_context(game: Game, seat: int | None) -> dict[str, Any]:
    """What a player's table and a spectator's share, built from ``seat``'s view (None:
    the spectator's, which shows only the cards that lie face up for everyone): the
    table, whose turn it is, the last turn, the result."""
    engine = engine_game(game)
    state = selectors.game_state(game, seat, engine)
    names = state["players"]
    last = state["last_turn"]
    board = build_board(
        state["position"],
        names=names,
        legal_moves=state["legal_moves"],
        last_turn=(last["seat"], last["moves"]),
    )
    if seat is not None and state["your_turn"]:
        slips = selectors.accepted_actions(engine, seat)
        board.can_turn |= "T" in slips
        board.can_discard |= "C-W" in slips
        board.can_end |= "E" in slips
    indexes = [] if engine.last_turn is None else list(engine.last_turn.indexes)
    ratings.annotate([game])
    return {
        "game": game,
        "standings": {letter: str(st) for letter, st in game.standings.items()},  # type: ignore[attr-defined]
        "state": state,
        "board": board,
        "finished": engine.is_over,
        "result": result_line(game, seat),
        "last_turn": last["moves"],
        "last_mover": names.get(last["seat"] or "", ""),
        "last_turn_steps": [
            (move, index + 1, number)
            for number, (move, index) in enumerate(zip(last["moves"], indexes, strict=True), 1)
        ],
        "stopped": last["stopped"],
        "correction": last["correction"],
        "lost_turn": last["lost"],
        "replay_from": engine.last_turn.start if engine.last_turn is not None else 0,
        "replay_url": reverse("game-replay", args=[game.pk]),  # once, not once per move
        "stalemate_score": engine.position.stalemate_score(),  # R8.5: what agreeing scores
        "to_move_name": names[game.to_move],
        "table_words": _table_words(),
    }


def _readable_messages(
    game: Game, reader: User | AnonymousUser | None, seat: int | None
) -> list[dict[str, Any]]:
    """The messages ``reader`` (in ``seat``; None, a spectator) may read at ``game``,
    oldest first (``selectors.messages_for``), each with whether the reader wrote it
    and whether they have reported it. A game without messages costs no query."""
    if not game.message_count:
        return []
    found = list(selectors.messages_for(game, reader, seat))
    me = reader.pk if reader is not None and reader.is_authenticated else None
    others = [message.pk for message in found if message.author_id != me]
    reported = (
        set(
            Report.objects.filter(reporter_id=me, message_id__in=others).values_list(
                "message_id", flat=True
            )
        )
        if me is not None and others
        else set()
    )
    return [
        {
            **talk.as_data(message, game),
            "created_at": message.created_at,  # shown in the reader's time zone
            "mine": me is not None and message.author_id == me,
            "reported": message.pk in reported,
        }
        for message in found
    ]


def _game_context(
    game: Game,
    seat: int,
    refusal: str | None = None,
    typed: str = "",
    *,
    about_messages: bool = False,
    notice: str = "",
    message_typed: str = "",
) -> dict[str, Any]:
    """A player's table, with what they may do. ``refusal`` (a refused action, in
    words) and ``notice`` (what was done) are shown in the messages panel when the
    action was about messages (``about_messages``), else above the table; ``typed``
    (a refused line of moves) and ``message_typed`` (a refused message) are back in
    their boxes, to be corrected."""
    context = _table_context(game, seat)
    names = context["state"]["players"]
    offer = game.stalemate_offer
    agreement = agreement_terms(
        game,
        seat,
        [context["state"]["position"][letter]["count"] for letter in game.letters],
        context["stalemate_score"],
    )
    return {
        **context,
        "seat": game.letters[seat],
        "opponent": and_list(
            [name for letter, name in names.items() if letter != game.letters[seat]]
        ),
        "refusal": None if about_messages else refusal,
        "typed": typed,  # a refused line, back in the box to be corrected
        "can_call_stop": context["state"]["can_call_stop"],
        "my_wrong_calls": context["state"]["wrong_calls"][game.letters[seat]],
        "offer_from_opponent": bool(offer) and game.letters[seat] not in offer,
        "offer_from_me": offer[:1] == game.letters[seat],
        "offered_by": names.get(offer[:1], ""),
        # What an agreement would score now, as the engine counts it, in words.
        "agreement": agreement,
        "offer_sentence": (
            # Translators: not a draw: an agreement scores the counts (R8.3), and the
            # lowest count wins. Never "Remis" or "nulle". %(terms)s: "0-4, you would
            # lose".
            _("%(player)s offers to end the game now, scored by the counts: %(terms)s.")
            % {"player": names[offer], "terms": agreement.short}
            if len(offer) == 1
            else _("%(players)s agree to end the game now, scored by the counts: %(terms)s.")
            % {"players": and_list([names[letter] for letter in offer]), "terms": agreement.short}
        ),
        "plays_by_mail": mail_play.plays_by_mail(game, seat),
        "talk_messages": _readable_messages(game, game.user_at(seat), seat),
        "message_limit": talk.MAX_LENGTH,
        "message_typed": message_typed,
        "message_refusal": refusal if about_messages else None,
        "message_notice": notice if about_messages else "",
        "report_reasons": Report.Reason.choices,
        # A player's page always asks: the others may write at any time.
        "polls": True,
    }


def _table_words() -> dict[str, str]:
    """What the table's script says (games/static/games/table.js), in the page's language:
    ``%(name)s`` placeholders, filled in by the script."""

    def picked(places: int) -> str:
        return ngettext(
            "%(pile)s picked up: choose where it goes (%(count)s legal place, marked ▼). "
            "Escape cancels.",
            "%(pile)s picked up: choose where it goes (%(count)s legal places, marked ▼). "
            "Escape cancels.",
            places,
        )

    return {
        "target": _("a legal destination"),
        # The script chooses between the two by the number of places (one, or more).
        "picked_one": picked(1),
        "picked_other": picked(2),
        "picked_nowhere": _("%(pile)s picked up, but it has no legal move now. Escape cancels."),
        "cancelled": _("Cancelled."),
        "unreachable": _(
            "The server could not be reached: nothing was played. "
            "Check your connection and try again."
        ),
        "answered": _("The server answered %(status)s: nothing was played. Reload the page."),
        # Translators: the time left to play, counted down on the game page: "2 d 03:04:05 left".
        "left_days": _("%(days)s d %(time)s left"),
        # Translators: the time left to play, counted down on the game page: "03:04:05 left".
        "left": _("%(time)s left"),
        "time_up": _("time is up"),
    }


def _watch_context(game: Game, viewer: User | AnonymousUser) -> dict[str, Any]:
    """The table as a spectator sees it (docs/spectators.md): built from the engine's
    spectator view, so only the cards that lie face up for everyone; no legal move, no
    form; who plays, whose turn, the deadline and the last turn; the messages once the
    game is over (none while it is played)."""
    context = _table_context(game, None)
    finished = context["finished"]
    return {
        **context,
        "talk_messages": _readable_messages(game, viewer, None) if finished else [],
        # Asks while the game is played; once over, nothing a spectator sees changes.
        "polls": not finished,
    }


@_watchable
@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's table: a player's, to play from; anyone else's, when the game is
    public, a spectator's (``games/watch.html``)."""
    game, seat = _watched_game(request, game_id)
    if seat is None:
        poll.remember_watched(game)
        return render(request, "games/watch.html", _watch_context(game, request.user))
    poll.remember(request, game)
    context = _game_context(game, seat)
    # Served on ASGI, the page follows the player's event stream, which says the player
    # is looking at this game while it is open (games.play.presence); else it polls.
    context["stream_url"] = (
        f"{reverse('api-stream-events')}?game={game.pk}" if holds_streams(request) else ""
    )
    return render(request, "games/game.html", context)


@_watchable
@require_GET
def game_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table alone, for the page's polling; 204 while the game's stamp is the one
    shown (``games.pages.poll``). A spectator's poll is answered the same way, with the
    spectator's table."""
    game, seat = _watched_game(request, game_id)
    if seat is None:
        poll.remember_watched(game)
    else:
        poll.remember(request, game)
    if _unchanged(request, game, seat):
        return HttpResponse(status=204)
    if seat is None:
        return render(request, "games/_watch.html", _watch_context(game, request.user))
    return render(request, "games/_game.html", _game_context(game, seat))


def _unchanged(request: HttpRequest, game: Game, seat: int | None) -> bool:
    """Whether the page polling has the game as it is: its version, and, when the poll
    names one, its message count. A spectator reads no message while the game is
    played, so their polls are about the version alone, whatever they send: the answer
    tells nobody but the players how many messages there are."""
    if request.GET.get("version") != str(game.version):
        return False
    count = request.GET.get("messages")
    if count is None or (seat is None and game.status == Game.Status.PLAYING):
        return True
    return count == str(game.message_count)


def _after_action(
    request: HttpRequest,
    game_id: int,
    error: ServiceError | None,
    done: str = "",
    typed: str = "",
    *,
    about_messages: bool = False,
    message_typed: str = "",
) -> HttpResponse:
    """The table again: in place for the page's script, else a redirect (or the page
    with the refusal, which loses nothing: the game was not changed, and ``typed``, the
    refused line, or ``message_typed``, the refused message, is back in its box). An
    action ``about_messages`` says what happened beside the messages."""
    game, seat = _player_game(request, game_id)
    presence.mark(_user(request).pk, game.pk)  # acting on its page: looking at the game
    refusal = None if error is None else _refusal_text(error)
    status = 200 if error is None else error.status
    context = _game_context(
        game,
        seat,
        refusal,
        typed if error is not None else "",
        about_messages=about_messages,
        # In place, what was done is said beside the messages; after a redirect, at
        # the top of the page, as every action's.
        notice=done if _wants_fragment(request) and error is None else "",
        message_typed=message_typed if error is not None else "",
    )
    if _wants_fragment(request):
        # The script asked for the table, and gets it: a refusal is part of the table
        # (its message, in words), so the answer is 200 with the code in a header.
        response = render(request, "games/_game.html", context)
        if error is not None:
            response["X-Refused"] = error.code
        return response
    if error is None:
        if done:
            messages.success(request, done)
        return redirect("game", game_id=game.pk)
    return render(request, "games/game.html", context, status=status)


def _refusal_text(error: ServiceError) -> str:
    if error.code == "STALE_VERSION":
        return _(
            "The game has moved on since this page was loaded, so nothing was played. "
            "Here is the table as it is now."
        )
    move = error.extra.get("move")
    if not move:
        return error.message
    # Translators: a refused move and why, e.g. "H3-F1: that card does not fit there".
    return pgettext("refusal", "%(move)s: %(message)s") % {"move": move, "message": error.message}


def _version(request: HttpRequest) -> int | None:
    """The version the form was drawn from; none sent: no check. A malformed one is
    refused rather than ignored, which would play the form without the stale check."""
    raw = request.POST.get("version", "")
    if not raw:
        return None
    if raw.isascii() and raw.isdigit() and len(raw) < 12:
        return int(raw)
    raise ServiceError(400, "BAD_REQUEST", _("the form's version is not a number: reload the page"))


@login_required
@require_POST
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    """Play one move or several (written in the notation, separated by spaces)."""
    line = request.POST.get("moves", "")
    moves = line.replace(",", " ").split()
    error = None
    try:
        services.play_moves(
            game_id=game_id,
            user=_user(request),
            moves=moves,
            expected_version=_version(request),
        )
    except ServiceError as exc:
        error = exc
    return _after_action(request, game_id, error, typed=line.strip()[:200])


@login_required
@require_POST
def play_by_mail(request: HttpRequest, game_id: int) -> HttpResponse:
    """This game's turns by e-mail with the moves menu, or notices only."""
    choices = {"on": True, "off": False, "default": None}
    wanted = request.POST.get("play_by_mail", "")
    if wanted not in choices:
        error = ServiceError(400, "BAD_REQUEST", _("choose to play this game by mail or not"))
        return _after_action(request, game_id, error)
    try:
        by_mail = mail_play.set_play_by_mail(
            game_id=game_id, user=_user(request), play_by_mail=choices[wanted]
        )
    except ServiceError as exc:
        return _after_action(request, game_id, exc)
    done = (
        _("You play this game by mail: every turn's e-mail has your moves, and a reply plays.")
        if by_mail
        else _("This game's e-mails are notices only.")
    )
    return _after_action(request, game_id, None, done)


@login_required
@require_POST
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    error = None
    if request.POST.get("confirm") != "yes":
        error = ServiceError(400, "BAD_REQUEST", _("tick the box to confirm that you resign"))
    else:
        try:
            services.resign(
                game_id=game_id, user=_user(request), expected_version=_version(request)
            )
        except ServiceError as exc:
            error = exc
    return _after_action(request, game_id, error, _("You resigned the game."))


@login_required
@require_POST
def stalemate(request: HttpRequest, game_id: int) -> HttpResponse:
    """Offer, accept or decline ending the game by the counts (R8.5). Offering and
    accepting ask the player to confirm the result the page showed them."""
    action = request.POST.get("stalemate")
    user = _user(request)
    error = None
    done = {
        "offer": _("Your offer is sent: if it is agreed, the game ends, scored by the counts."),
        "accept": _("Agreed: the game is over, scored by the counts."),
        "decline": _("Offer declined."),
    }.get(action or "", "")
    try:
        if action in ("offer", "accept") and request.POST.get("confirm") != "yes":
            error = ServiceError(
                400,
                "BAD_REQUEST",
                _("tick the box to confirm that you accept the result an agreement gives"),
            )
        elif action == "offer":
            offer_stalemate(game_id=game_id, user=user)
        elif action in ("accept", "decline"):
            answer_stalemate(game_id=game_id, user=user, accept=action == "accept")
        else:
            error = ServiceError(
                400, "BAD_REQUEST", _("offer, accept or decline ending the game by the counts")
            )
    except ServiceError as exc:
        error = exc
    return _after_action(request, game_id, error, done)


@login_required
@require_POST
def stop(request: HttpRequest, game_id: int) -> HttpResponse:
    """Call Stop! on a move of the opponent's last turn (classic games)."""
    raw = request.POST.get("move", "")
    choice = request.POST.get("choice", "").strip() or None
    error = None
    done = ""
    try:
        if not (raw.isascii() and raw.isdigit() and len(raw) < 4):
            raise ServiceError(400, "BAD_REQUEST", _("name the move to stop by its number"))
        outcome = stops.call_stop_on(
            game_id=game_id,
            user=_user(request),
            move_number=int(raw),
            choice=choice,
            expected_version=_version(request),
        )
        done = _(
            "Stop! Move %(number)s broke a rule (%(code)s): it is undone, your "
            "opponent's %(move)s was played instead, and it is your turn."
        ) % {"number": raw, "code": outcome.violation, "move": outcome.correction}
    except ServiceError as exc:
        error = exc
    return _after_action(request, game_id, error, done)


# ------------------------------------------------------------------------- messages


@login_required
@require_POST
def write_message(request: HttpRequest, game_id: int) -> HttpResponse:
    """Write to the others at the game (docs/messages.md): on one's turn it goes with
    the turn, else at once. A refused message stays in the box."""
    text = request.POST.get("message", "")
    error = None
    done = ""
    try:
        message = services.write_message(game_id=game_id, user=_user(request), text=text)
    except ServiceError as exc:
        error = exc
    else:
        done = (
            _("Message sent.")
            if message.delivered
            else _("Message sent: it is shown at once, and their e-mail brings it with your turn.")
        )
    return _after_action(
        request,
        game_id,
        error,
        done,
        about_messages=True,
        message_typed=text[: 4 * talk.MAX_LENGTH],
    )


@login_required
@require_POST
def report_message(request: HttpRequest, game_id: int, message_id: int) -> HttpResponse:
    """Report another player's message at this game to support staff (docs/conduct.md)."""
    _player_game(request, game_id)  # a player's page: anyone else is told of no game
    form = ReportForm(request.POST)
    error = None
    try:
        if not Message.objects.filter(pk=message_id, game_id=game_id).exists():
            raise ServiceError(404, "NOT_FOUND", _("no such message"))
        if not form.is_valid():
            raise ServiceError(400, "BAD_REQUEST", _("choose why you report the message"))
        talk.report_message(_user(request), message_id, reason=form.cleaned_data["reason"])
    except ServiceError as exc:
        error = exc
    done = _("Thank you: support staff will read your report.")
    return _after_action(request, game_id, error, done, about_messages=True)


# --------------------------------------------------------------- replay and export


@_watchable
@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through the game. While it is played: the last turn and the one under way,
    each step as the player (or a spectator, from the spectator's view) saw the table
    then. Once over: every step from the deal, every card face up. A step ``n`` is the
    table after the record's first ``n`` entries."""
    game, seat = _watched_game(request, game_id)
    engine = engine_game(game)
    finished = engine.is_over
    if finished:
        log = selectors.move_log(engine)
        first, last = 0, engine.entry_count
    else:
        log = _recent_log(engine)
        recent = dict(engine.recent_steps())
        first, last = min(recent, default=0), max(recent, default=0)
    raw = request.GET.get("step", "")
    step = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 9 else first
    step = min(max(step, first), last)
    if finished:
        seen = revealed_view(engine.position_at(step))
    else:  # events between moves change no card: the table after the move before
        seen = view(recent[max(s for s in recent if s <= step)], seat) if recent else {}
    names = game.names()
    starter = None if game.starter is None else game.letters[game.starter]
    previous = next((entry for entry in log if entry["index"] == step - 1), None)
    board = build_board(
        seen or engine.view(seat),
        names=names,
        last_turn=(previous["seat"], [previous["move"]]) if previous else (None, []),
    )
    # Each message at its step (its ply: written after that many entries), those of
    # the steps offered only; a spectator reads them once the game is over.
    said: dict[int, list[dict[str, Any]]] = {}
    for message in _readable_messages(game, request.user, seat):
        if first <= message["ply"] <= last:
            said.setdefault(message["ply"], []).append(message)
    for entry in log:
        entry["said"] = said.get(entry["index"] + 1, [])
    context = {
        "game": game,
        "board": board,
        "seat": None if seat is None else game.letters[seat],
        "spectator": seat is None,
        "step": step,
        "first": first,
        "last": last,
        "entries": log,
        "said_first": said.get(first, []),  # before the first move offered
        "said_now": said.get(step, []),
        "previous": previous,
        "finished": finished,
        "names": names,
        "seed_ok": finished and seed_commitment(game.seed) == game.seed_hash,
        "starter": starter,
        # Commands, not words: outside the sentences that name them, never translated.
        "check_command": format_html("printf 'rbank-deal/1:%s' {} | sha256sum", game.seed),
        "deal_command": format_html(
            "python -m games.engine deal --seed {} --rules {}{}",
            game.seed,
            game.rules,
            f" --starter {starter}" if starter else "",
        ),
        "result": result_line(game, seat),
        "plays_by_mail": seat is not None and mail_play.plays_by_mail(game, seat),
    }
    return render(request, "games/replay.html", context)


def _recent_log(engine: EngineGame) -> list[dict[str, Any]]:
    """The moves a player may step through while the game is played (the last turn and
    the one under way), as the log lists them."""
    rows = []
    for turn in (engine.last_turn,):
        if turn is not None:
            letter = engine.letter(turn.seat)
            rows += [
                {"index": i, "seat": letter, "move": str(m)}
                for m, i in zip(turn.moves, turn.indexes, strict=True)
            ]
    letter = engine.letter(engine.to_move)
    rows += [
        {"index": i, "seat": letter, "move": str(m)}
        for m, i in zip(engine.current_turn, engine.current_indexes, strict=True)
    ]
    return rows


@_watchable
@require_GET
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game in the notation, for a player or a spectator (the seed only once it is
    over), with the messages the reader may read as comments: a spectator's holds none
    while the game is played."""
    game, seat = _watched_game(request, game_id)
    text = selectors.export_game(game, request.user, seat)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="russian-bank-{game.pk}.txt"'
    return response


# ------------------------------------------------------------------------ other pages


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
            _user(request),
            opponent=BOT_PLAYERS[level][0],
            second_opponent=BOT_PLAYERS[other][0] if three else None,
            rules=preset,
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("lobby")
    assert challenge.game_id is not None
    return redirect("game", game_id=challenge.game_id)


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
    page = Paginator(games, WATCH_PAGE_SIZE).get_page(request.GET.get("page"))
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
    me = _user(request)
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
                _user(request),
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
    }
    return render(request, "pages/rules.html", context)


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
    user = _user(request)
    error = None
    if request.method == "POST":
        answer = request.POST.get("answer")
        try:
            if answer == "accept":
                challenge = challenges.accept_challenge(challenge.pk, user, token=token)
                invitations.forget(request)
                assert challenge.game_id is not None
                return redirect("game", game_id=challenge.game_id)
            if answer == "decline":
                challenge = challenges.decline_challenge(challenge.pk, user, token=token)
                invitations.forget(request)
        except ServiceError as exc:
            error = exc.message
    return render(request, "games/invitation.html", {"challenge": challenge, "error": error})


@require_safe
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """A player's calendar of deadlines (``games/pages/calendar.py``), for calendar programs:
    no sign-in, the secret in the address is the credential; an unknown or stopped
    one is 404. Nothing here reads the session, so the answer sets no cookie."""
    user = calendar_owner(token)
    if user is None:
        raise Http404("no such calendar")
    body = calendar.deadlines_calendar(user)
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    unchanged = get_conditional_response(request, etag=etag)
    response = unchanged or HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "private, max-age=300"
    return response
