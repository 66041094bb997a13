"""Events: what happened, kept a while for each player it concerns, for API clients
(``games.feed.events``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.game import Game


class Event(models.Model):
    """Something that happened, as one player is told it: what the event stream
    (``games.feed.stream``) and the webhooks carry. Written in the transaction of what it
    tells, published once that commits; kept ``settings.EVENT_RETENTION_DAYS`` for
    clients that reconnect with ``Last-Event-ID``. ``data`` holds nothing hidden: moves
    as played (which every seat saw), never a face-down card."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="events",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=32)
    #: The game it is about, if any (webhooks deliver one game's events in order).
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("game")
    )
    data = models.JSONField(_("data"), default=dict, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        indexes = [
            models.Index(fields=["user", "id"]),  # a stream's catch-up after Last-Event-ID
            models.Index(fields=["created_at"]),  # the daily prune
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} (#{self.pk})"

    def as_json(self) -> dict[str, Any]:
        """The event as clients read it: its id, kind and time, then what it tells."""
        return {"id": self.pk, "kind": self.kind, "at": self.created_at, **self.data}
