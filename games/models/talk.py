"""What players write to each other at a game."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.game import Game


class Message(models.Model):
    """What a player wrote to the others at a game (``games.talk``): plain text, part
    of the game's history. Its players read it while the game is played; once it is
    over, whoever may see the game does."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="messages", verbose_name=_("game")
    )
    #: The writer; None once they deleted their account (the message stays).
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="game_messages",
        verbose_name=_("author"),
    )
    #: The writer's seat letter.
    seat = models.CharField(_("seat"), max_length=1)
    text = models.TextField(_("text"))
    #: The number of entries in the game's record when it was written: where the replay
    #: and the export show it.
    ply = models.PositiveIntegerField(_("ply"))
    #: Whether the other players have been told of it: at once when it was written
    #: outside its writer's turn, else with the "your turn" (or "game over") that ends
    #: the turn (``games.talk.deliver``).
    delivered = models.BooleanField(_("delivered"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        indexes = [
            models.Index(fields=["game", "id"]),
            models.Index(fields=["author", "created_at"]),  # the rate limit
        ]

    def __str__(self) -> str:
        return f"Message {self.pk} in game {self.game_id}"
