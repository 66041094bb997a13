"""The review of a finished game (``games.review``; docs/review.md): one row per game,
written once by the review task."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.game import Game


class GameReview(models.Model):
    """What the engine's review found (``games.engine.review``), as its JSON document
    (``format`` names its version); ``seconds``: the CPU time it took."""

    game = models.OneToOneField(
        Game,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="review",
        verbose_name=_("game"),
    )
    format = models.CharField(_("format"), max_length=32)
    document = models.JSONField(_("document"))
    seconds = models.FloatField(_("seconds"), default=0.0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("game review")
        verbose_name_plural = _("game reviews")

    def __str__(self) -> str:
        return f"Review of game {self.game_id}"
