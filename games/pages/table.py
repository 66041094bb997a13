"""The card table (``/games/<id>/``): a player's or a spectator's, its fragment for
the page's script, and every action taken from it (moves, play by mail, resigning,
stalemate, Stop!, messages and their reports). Every action is a plain form."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Report
from games import notes, talk
from games.api.stream import holds_streams
from games.lobby import ratings
from games.models import Game, Message
from games.notify import mail_play
from games.pages import poll
from games.pages.access import player_game, user_of, wants_fragment, watchable, watched_game
from games.pages.board import build_board
from games.pages.forms import ReportForm
from games.pages.playback import turn_frames
from games.play import presence, selectors, services, stops
from games.play.stalemate import answer_stalemate, offer_stalemate
from games.play.store import engine_game
from games.templatetags.seats import and_list
from games.words.results import agreement_terms, result_line
from lib.errors import ServiceError
from lib.occasions import occasion_of


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
        "turn_frames": turn_frames(engine, seat, names, board),
    }


def readable_messages(
    game: Game, reader: User | AnonymousUser | None, seat: int | None
) -> list[dict[str, Any]]:
    """The messages ``reader`` (in ``seat``; None, a spectator) may read at ``game``,
    oldest first (``talk.messages_for``), each with whether the reader wrote it
    and whether they have reported it. A game without messages costs no query."""
    if not game.message_count:
        return []
    found = list(talk.messages_for(game, reader, seat))
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
        "talk_messages": readable_messages(game, game.user_at(seat), seat),
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
        "talk_messages": readable_messages(game, viewer, None) if finished else [],
        # Asks while the game is played; once over, nothing a spectator sees changes.
        "polls": not finished,
    }


@watchable
@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's table: a player's, to play from; anyone else's, when the game is
    public, a spectator's (``games/watch.html``)."""
    game, seat = watched_game(request, game_id)
    if seat is None:
        poll.remember_watched(game)
        watching = _watch_context(game, request.user)
        watching["occasion"] = occasion_of(game)  # the page's heading, not its fragment
        return render(request, "games/watch.html", watching)
    poll.remember(request, game)
    context = _game_context(game, seat)
    context["occasion"] = occasion_of(game)
    context["note"] = notes.note_text(game, request.user)
    # Served on ASGI, the page follows the player's event stream, which says the player
    # is looking at this game while it is open (games.play.presence); else it polls.
    context["stream_url"] = (
        f"{reverse('api-stream-events')}?game={game.pk}" if holds_streams(request) else ""
    )
    return render(request, "games/game.html", context)


@watchable
@require_GET
def game_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    """The table alone, for the page's polling; 204 while the game's stamp is the one
    shown (``games.pages.poll``). A spectator's poll is answered the same way, with the
    spectator's table."""
    game, seat = watched_game(request, game_id)
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
    game, seat = player_game(request, game_id)
    presence.mark(user_of(request).pk, game.pk)  # acting on its page: looking at the game
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
        notice=done if wants_fragment(request) and error is None else "",
        message_typed=message_typed if error is not None else "",
    )
    if wants_fragment(request):
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
    context["occasion"] = occasion_of(game)
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
            user=user_of(request),
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
            game_id=game_id, user=user_of(request), play_by_mail=choices[wanted]
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
                game_id=game_id, user=user_of(request), expected_version=_version(request)
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
    user = user_of(request)
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
            user=user_of(request),
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


@login_required
@require_POST
def write_note(request: HttpRequest, game_id: int) -> HttpResponse:
    """Keep the player's private note at the game (docs/notes.md). A refused note is
    the page again with the text as typed, beside the refusal."""
    game, seat = player_game(request, game_id)
    text = request.POST.get("note", "")
    try:
        kept = notes.write_note(game_id=game.pk, user=user_of(request), text=text)
    except ServiceError as exc:
        context = _game_context(game, seat)
        context.update(occasion=occasion_of(game), note=text[: 2 * notes.MAX_LENGTH])
        context["note_error"] = exc.message
        return render(request, "games/game.html", context, status=exc.status)
    messages.success(request, _("Note saved.") if kept else _("Note deleted."))
    return redirect(reverse("game", args=[game.pk]) + "#note")


@login_required
@require_POST
def write_message(request: HttpRequest, game_id: int) -> HttpResponse:
    """Write to the others at the game (docs/messages.md): on one's turn it goes with
    the turn, else at once. A refused message stays in the box."""
    text = request.POST.get("message", "")
    error = None
    done = ""
    try:
        message = services.write_message(game_id=game_id, user=user_of(request), text=text)
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
    player_game(request, game_id)  # a player's page: anyone else is told of no game
    form = ReportForm(request.POST)
    error = None
    try:
        if not Message.objects.filter(pk=message_id, game_id=game_id).exists():
            raise ServiceError(404, "NOT_FOUND", _("no such message"))
        if not form.is_valid():
            raise ServiceError(400, "BAD_REQUEST", _("choose why you report the message"))
        talk.report_message(user_of(request), message_id, reason=form.cleaned_data["reason"])
    except ServiceError as exc:
        error = exc
    done = _("Thank you: support staff will read your report.")
    return _after_action(request, game_id, error, done, about_messages=True)
