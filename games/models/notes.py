"""A player's private note at a game (docs/notes.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.game import Game


class Note(models.Model):
    """What a player keeps for themselves at a game (``games.notes``): one per player
    per game, read by its writer alone (page, API, their export), never by the other
    players, spectators, webhooks or e-mails."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="notes", verbose_name=_("game")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_notes",
        verbose_name=_("author"),
    )
    text = models.TextField(_("text"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("private note")
        verbose_name_plural = _("private notes")
        constraints = [
            models.UniqueConstraint(fields=["game", "author"], name="one_note_per_player"),
        ]
