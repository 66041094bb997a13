"""The review of a finished game: queued when it ends (``game_ended``, a subscriber of
``GameEnded``), computed by the engine on the ``review`` queue (``review_game``, the task
``games.tasks.review_game``), stored in ``GameReview``, read by ``review_of``.

A game in play is never reviewed: the task reads the row and does nothing unless the
game is over, and ``review_of`` refuses to show anything before. The task is idempotent:
a game reviewed already (in the current format) is left as it is.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Final

from django.conf import settings
from django.db.models import F
from django.utils.translation import gettext as _

from games.engine import review as engine_review
from games.models import SEATS, Game, GameReview
from games.play.happenings import GameEnded
from games.play.store import engine_game
from lib.errors import ServiceError
from lib.logs import fields
from lib.outbox import dispatch, dispatch_on_commit

logger = logging.getLogger(__name__)

#: The task that reviews a game (``games.tasks``), queued by name on its own queue:
#: a review never waits behind a move, nor a move behind a review.
REVIEW_GAME: Final = "games.tasks.review_game"  # routed to "review" (CELERY_TASK_ROUTES)


def game_ended(happening: GameEnded) -> None:
    """Subscriber of ``GameEnded`` (``games.subscriptions``): the review is queued once
    the end commits."""
    dispatch_on_commit(REVIEW_GAME, happening.game.pk)


def review_game(game_id: int) -> str:
    """Review game ``game_id`` if it is over and not reviewed yet; what was done, in words
    for the log ("" for nothing)."""
    game = Game.objects.prefetch_related(SEATS).filter(pk=game_id).first()
    if game is None or game.status == Game.Status.PLAYING:
        return ""
    if GameReview.objects.filter(game=game, format=engine_review.FORMAT).exists():
        return ""
    engine = engine_game(game)
    if not engine.is_over:
        return ""
    started = time.process_time()
    found = engine_review.review(
        engine,
        decision_steps=settings.REVIEW_DECISION_STEPS,
        game_steps=settings.REVIEW_GAME_STEPS,
        samples=settings.REVIEW_SAMPLES,
    )
    seconds = round(time.process_time() - started, 3)
    GameReview.objects.update_or_create(
        game=game,
        defaults={
            "format": engine_review.FORMAT,
            "document": found.to_document(),
            "seconds": seconds,
        },
    )
    decisions = sum(len(turn.decisions) for turn in found.turns)
    logger.info("game reviewed %s", fields(game=game.pk, decisions=decisions, seconds=seconds))
    return f"{decisions} decisions in {seconds} s"


def unreviewed(limit: int) -> list[int]:
    """Up to ``limit`` finished games with no review (in the current format), the last
    finished first: those that ended before reviews existed, or whose task was lost."""
    games = (
        Game.objects.exclude(status=Game.Status.PLAYING)
        .exclude(review__format=engine_review.FORMAT)
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")
        .values_list("pk", flat=True)
    )
    return list(games[:limit])


def queue_unreviewed(limit: int) -> int:
    """Queue the reviews of ``unreviewed(limit)``; how many were queued."""
    return sum(dispatch(REVIEW_GAME, pk) for pk in unreviewed(limit))


def review_of(game: Game) -> dict[str, Any]:
    """The stored review of ``game``, for whoever may watch it: refused (409) while the
    game is played, and while the review is still being prepared."""
    if game.status == Game.Status.PLAYING:
        raise ServiceError(409, "GAME_NOT_OVER", _("a game is reviewed once it is over"))
    row = GameReview.objects.filter(game=game, format=engine_review.FORMAT).first()
    if row is None:
        raise ServiceError(
            409, "REVIEW_PENDING", _("the review of this game is being prepared: try again soon")
        )
    return {"id": game.pk, "seconds": row.seconds, **row.document}


def stored_review(game: Game) -> dict[str, Any] | None:
    """The stored review's document of a finished game, or None (in play, or pending)."""
    try:
        return review_of(game)
    except ServiceError:
        return None
