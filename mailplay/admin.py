"""Support staff find a received message by its sender, game, Message-ID or outcome.
The message itself is not shown (it is the player's mail); its size, the verdict on
its sender (DKIM) and what became of it are."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import InboundMail


@admin.register(InboundMail)
class InboundMailAdmin(admin.ModelAdmin[InboundMail]):
    list_display = (
        "pk",
        "received_at",
        "source",
        "sender",
        "authentication",
        "game",
        "status",
        "outcome",
    )
    list_filter = ("status", "outcome", "authentication", "source")
    search_fields = ("sender", "message_id", "game__id", "user__username")
    exclude = ("raw",)
    readonly_fields = [f.name for f in InboundMail._meta.fields if f.name != "raw"]
    ordering = ("-received_at",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
