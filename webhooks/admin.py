"""Support staff find a webhook by its owner or URL, and its deliveries by webhook,
owner or game. A webhook's secret is not shown (it signs the owner's deliveries);
deliveries are read-only, and a webhook can be deleted, never made or edited."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from lib.admin import changelist_link

from .models import Delivery, Webhook


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin[Webhook]):
    list_display = ["id", "url", "user", "active", "consecutive_failures", "created_at"]
    list_filter = ["active"]
    search_fields = ["url", "user__username", "user__email"]
    list_select_related = ["user"]
    exclude = ["secret"]
    readonly_fields = [
        *(f.name for f in Webhook._meta.fields if f.name not in ("id", "secret")),
        "deliveries_link",
    ]

    @admin.display(description=gettext_lazy("deliveries"))
    def deliveries_link(self, webhook: Webhook) -> SafeString:
        log = _("the delivery log")
        return changelist_link("webhooks.delivery", log, webhook__id__exact=webhook.pk)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its secret is shown once, to its owner: made by the player only

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin[Delivery]):
    list_display = ["id", "kind", "status", "webhook", "game_id", "attempts", "response_status"]
    list_filter = ["status", "kind"]
    search_fields = ["webhook__url", "webhook__user__username", "=game_id"]
    list_select_related = ["webhook"]
    readonly_fields = [f.name for f in Delivery._meta.fields]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
