"""Stalemate offers and answers (R8.5): an offer stands until every other seat agrees
(the game ends, scored as a blocked game), one declines, or a seat that has not agreed
plays on."""

from __future__ import annotations

import logging

from django.contrib.auth.models import User
from django.db import transaction

from games.models import Game
from games.play.happenings import StalemateDeclined, StalemateOffered, publish
from games.play.services import act, check_version, lock_for_player, playing_engine, save
from lib.logs import fields, logs_refusals

logger = logging.getLogger(__name__)


@logs_refusals("stalemate-offer")
def offer_stalemate(*, game_id: int, user: User, expected_version: int | None = None) -> Game:
    """R8.5: offer to end the game as a stalemate; stands until answered or played over."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        act(game, lambda: engine.offer_stalemate(seat))
        save(game, engine)
        logger.info("stalemate offered %s", fields(game=game.pk, seat=game.letters[seat]))
        publish(StalemateOffered(game, seat))
        return game


@logs_refusals("stalemate-answer")
def answer_stalemate(
    *, game_id: int, user: User, accept: bool, expected_version: int | None = None
) -> Game:
    """Accept or decline a stalemate offer. The game ends, scored as R8.3, once every
    seat has agreed; one refusal withdraws the offer."""
    with transaction.atomic():
        game, seat = lock_for_player(game_id, user)
        check_version(game, expected_version)
        engine = playing_engine(game)
        agreed = engine.stalemate_offer  # the offerer, and any seat that agreed (G3)
        answer = engine.agree_stalemate if accept else engine.decline_stalemate
        act(game, lambda: answer(seat))
        logger.info(
            "stalemate answered %s", fields(game=game.pk, seat=game.letters[seat], accept=accept)
        )
        save(game, engine)
        if not accept:  # an accepted offer ends the game, which is told as such
            publish(StalemateDeclined(game, seat, agreed=list(agreed)))
        return game
