"""The admin for players: a user's page shows their profile, links to their games and
e-mails; API tokens can be revoked, never made or read (only their hash is stored).
Players' reports reach support staff here, unhandled first (docs/conduct.md); blocks are
shown, never made or lifted by staff (only the blocker and support staff see one)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import F, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from lib.admin import changelist_link

from .models import ApiToken, Block, InvitationOptOut, Profile, Report

#: Vacation days move the clocks of the player's games (a service does it): not a form's.
VACATION = ["vacation_year", "vacation_days_used", "vacation_until"]
#: The secret of the player's calendar link: theirs alone, not shown to the staff.
SECRET = ["calendar_token"]


class ProfileInline(admin.StackedInline[Profile, User]):
    model = Profile
    can_delete = False
    readonly_fields = VACATION
    exclude = SECRET


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin[Profile]):
    list_display = ["user", "display_name", "time_zone", "vacation_until"]
    search_fields = ["user__username", "user__email", "display_name"]
    list_select_related = ["user"]
    readonly_fields = ["user", *VACATION]
    exclude = SECRET


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    list_display = ["name", "hint", "user", "created_at", "last_used_at"]
    search_fields = ["user__username", "user__email", "name", "hint"]
    list_select_related = ["user"]
    readonly_fields = ["user", "hint", "key_hash", "created_at", "last_used_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a key is shown once, to its owner: made by the player only


@admin.register(InvitationOptOut)
class InvitationOptOutAdmin(admin.ModelAdmin[InvitationOptOut]):
    """Addresses that asked never to be invited (the invitation's unsubscribe link)."""

    list_display = ["address", "created_at"]
    search_fields = ["address"]
    readonly_fields = ["created_at"]


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin[User]):
    inlines = [ProfileInline]
    readonly_fields = ["games_link", "emails_link"]
    fieldsets = [
        *(UserAdmin.fieldsets or ()),
        (gettext_lazy("Play"), {"fields": ["games_link", "emails_link"]}),
    ]

    @admin.display(description=gettext_lazy("games"))
    def games_link(self, user: User) -> SafeString:
        return changelist_link("games.game", _("their games"), q=user.get_username())

    @admin.display(description=gettext_lazy("e-mails"))
    def emails_link(self, user: User) -> SafeString:
        return changelist_link("games.notification", _("their e-mails"), user__id__exact=user.pk)


class HandledFilter(admin.SimpleListFilter):
    """Reports still to deal with, or those dealt with."""

    title = gettext_lazy("handled")
    parameter_name = "handled"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("no", gettext_lazy("Not yet")), ("yes", gettext_lazy("Handled"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "no":
            return queryset.filter(handled_at__isnull=True)
        if self.value() == "yes":
            return queryset.filter(handled_at__isnull=False)
        return queryset


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin[Report]):
    """A player's report of a player or of a message: what was written (copied when it
    was reported), a link to its game; staff mark it handled, with a note."""

    list_display = ["created_at", "reporter", "reported", "reason", "excerpt", "handled"]
    list_display_links = ["created_at"]
    list_filter = [HandledFilter, "reason"]
    search_fields = [
        "reporter__username",
        "reported__username",
        "message_text",
        "details",
        "staff_note",
    ]
    list_select_related = ["reporter", "reported"]
    # Unhandled first (a null handled_at sorts first on every database), newest first.
    ordering = [F("handled_at").asc(nulls_first=True), "-created_at"]
    date_hierarchy = "created_at"
    actions = ["mark_handled"]
    #: What the player reported, and who handled it when: not for staff to rewrite.
    REPORTED = [
        "created_at",
        "reporter",
        "reported",
        "reason",
        "details",
        "game_link",
        "message_id",
        "message_text",
        "handled_at",
        "handled_by",
    ]
    fields = [*REPORTED, "staff_note"]
    readonly_fields = REPORTED

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # players file reports; staff deal with them

    @admin.display(description=gettext_lazy("handled"), boolean=True, ordering="handled_at")
    def handled(self, report: Report) -> bool:
        return report.handled_at is not None

    @admin.display(description=gettext_lazy("message text"))
    def excerpt(self, report: Report) -> str:
        return Truncator(report.message_text).chars(80)

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, report: Report) -> SafeString | str:
        """The game the reported message was written at, in the admin (accounts never
        imports games: the page is named by its URL's name)."""
        if report.game_id is None:
            return "-"
        url = reverse("admin:games_game_change", args=[report.game_id])
        return format_html('<a href="{}">{}</a>', url, _("game %(id)s") % {"id": report.game_id})

    @admin.action(
        description=gettext_lazy("Mark the selected reports handled"), permissions=["change"]
    )
    def mark_handled(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        done = queryset.filter(handled_at__isnull=True).update(
            handled_at=timezone.now(), handled_by=request.user
        )
        self.message_user(
            request,
            ngettext("%(count)d report marked handled.", "%(count)d reports marked handled.", done)
            % {"count": done},
            messages.SUCCESS,
        )


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin[Block]):
    """Who blocks whom: shown to support staff, made and lifted by the players only."""

    list_display = ["created_at", "blocker", "blocked"]
    search_fields = ["blocker__username", "blocked__username"]
    list_select_related = ["blocker", "blocked"]
    date_hierarchy = "created_at"
    readonly_fields = ["blocker", "blocked", "created_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
