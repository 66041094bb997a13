"""A game step by step (``/games/<id>/replay/``) and its export in the notation."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engine import Game as EngineGame
from games.engine import Rules, fairdeal, family_of, revealed_view, view
from games.models import Game
from games.notify import mail_play
from games.pages.access import watchable, watched_game
from games.pages.board import build_board
from games.pages.playback import MOST_MOVES, played_out
from games.pages.table import readable_messages
from games.play import selectors
from games.play.store import engine_game
from games.review import services as reviews
from games.words.results import result_line


@watchable
@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through the game. While it is played: the last turn and the one under way,
    each step as the player (or a spectator, from the spectator's view) saw the table
    then. Once over: every step from the deal, every card face up. A step ``n`` is the
    table after the record's first ``n`` entries."""
    game, seat = watched_game(request, game_id)
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
    end = min(last, step + MOST_MOVES)  # the steps the page plays out from this one
    if finished:  # one pass over the record: ``index`` leads to step ``index + 1``
        views = [] if step else [revealed_view(engine.position_at(0))]
        for index, _entry, position in engine.steps():
            if index + 1 >= step:
                views.append(revealed_view(position))
            if index + 1 >= end:
                break
    else:  # events between moves change no card: the table after the move before
        views = [
            view(recent[max(s for s in recent if s <= at)], seat)
            for at in range(step, end + 1)
            if recent
        ]
    seen = views[0] if views else {}
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
    for message in readable_messages(game, request.user, seat):
        if first <= message["ply"] <= last:
            said.setdefault(message["ply"], []).append(message)
    for entry in log:
        entry["said"] = said.get(entry["index"] + 1, [])
    review = reviews.stored_review(game) if finished else None
    if review is not None:
        marked = {turn["index"]: turn for turn in review["turns"] if turn["marks"]}
        for entry in log:
            entry["review"] = marked.get(entry["index"])
    moved = {entry["index"]: entry["move"] for entry in log}
    played = [moved.get(index, "") for index in range(step, end)]
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
        "seed_ok": finished and deal_check(game).ok,
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
        "replaying": True,
        "turn_frames": played_out(views, played, names) if played else [],
        "review": review,
        "review_turns": review_turns(review) if review is not None else [],
    }
    return render(request, "games/replay.html", context)


def deal_check(game: Game) -> fairdeal.Check:
    """The server's own check of a finished game's deal (docs/fair-deal.md)."""
    values = [c["value"] for c in game.contributions]
    return fairdeal.verify(game.deal_scheme, game.seed_hash, game.seed, game.server_secret, values)


def deal_rules(rules: Rules) -> dict[str, Any]:
    """What ``verify.js`` needs of the rules to shuffle and lay out the cards."""
    return {
        "seats": rules.seats,
        "packs": rules.packs,
        "jokers": family_of(rules).jokers,
        "seat_suits": list(rules.seat_suits),
        "reserve_size": rules.reserve_size,
        "houses_per_seat": rules.houses_per_seat,
        "rows": rules.face_down_tableau,
    }


@watchable
@require_GET
def verify(request: HttpRequest, game_id: int) -> HttpResponse:
    """How the deal was made, and, once the game is over, the check of it: the page's
    script recomputes the commitment, the seed and the deal in the browser
    (``verify.js``), from the values shown here and the deal the replay shows."""
    game, _seat = watched_game(request, game_id)
    engine = engine_game(game)
    finished = engine.is_over
    context: dict[str, Any] = {
        "game": game,
        "finished": finished,
        "fair": selectors.fair_deal(game),
        "by_server": any(c["by"] == fairdeal.SERVER for c in game.contributions),
        "words": {
            "commitment_ok": _("✓ The commitment matches the secret (or the seed)."),
            "commitment_bad": _("✗ The commitment does not match."),
            "seed_ok": _("✓ The seed is the keyed hash of the secret and the contributions."),
            "seed_bad": _("✗ The seed is not the keyed hash of the secret and the contributions."),
            "deal_ok": _("✓ The deal is the one the seed gives, card by card."),
            "deal_bad": _("✗ The deal differs from the one the seed gives: %s."),
            "deal_skipped": _(
                "The cards of this game (its joker) are checked by the command, not here."
            ),
            "no_crypto": _("This browser has no WebCrypto: use the command below."),
        },
    }
    if finished:
        rules = engine.rules
        start = engine.position_at(0)
        context["check"] = {
            **context["fair"],
            "values": [c["value"] for c in game.contributions],
            "rules": deal_rules(rules),
            "deal": fairdeal.dealt_cards(start),
        }
    return render(request, "games/verify.html", context)


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


@watchable
@require_GET
def export(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game in the notation, for a player or a spectator (the seed only once it is
    over), with the messages the reader may read as comments: a spectator's holds none
    while the game is played."""
    game, seat = watched_game(request, game_id)
    text = selectors.export_game(game, request.user, seat)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="russian-bank-{game.pk}.txt"'
    return response


def review_turns(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The reviewed turns worth a look (a mark, or some count lost), each decision that
    lost count with its better line: the page's part of the review (docs/review.md)."""
    turns = []
    for turn in review["turns"]:
        costly = [decision for decision in turn["decisions"] if decision["loss"] > 0]
        if turn["marks"] or costly:
            turns.append({**turn, "costly": costly})
    return turns
