"""The admin for players: a user's page shows their profile, links to their games and
e-mails; API tokens can be revoked, never made or read (only their hash is stored)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rbank_site.admin import changelist_link

from .models import ApiToken, Profile

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
