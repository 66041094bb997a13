"""The admin, for support staff: find a game, a challenge, a failed e-mail.

Games and everything about them are read-only here: every change to a game goes
through ``games.play.services`` (version, log, clocks and e-mails move together), never a
form. While a game is played its deal seed and its engine state (the hidden cards,
the priority slips a classic game keeps secret) are shown to nobody, superusers
included; support staff read its export, as the players do. Once it is over the seed
and the record are shown, read-only (docs/operating.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.functional import lazy
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import (
    Challenge,
    ChallengeSeat,
    DatabaseMonth,
    Event,
    Game,
    GameReview,
    IdempotentRequest,
    Lock,
    Match,
    MatchSeat,
    Message,
    Notification,
    PushMessage,
    PushSubscription,
    Rating,
    Seat,
    StreamLease,
)
from games.play.selectors import export_game, game_record
from games.play.store import engine_game
from lib.admin import changelist_link, link
from lib.naming import site_name

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups


def _support_title() -> str:
    return _("%(site)s support") % {"site": site_name()}


#: In the language of each admin page (computed as each page shows it).
admin.site.site_header = admin.site.site_title = lazy(_support_title, str)()


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    """Shown, searched, never written through a form (deleting stays a permission)."""

    #: Fields no list may be filtered by: ``?seed__startswith=4`` would read a secret a
    #: character at a time from the number of rows found.
    secret_fields: tuple[str, ...] = ()

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if lookup.split("__")[0] in self.secret_fields:
            return False
        return super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline[Any, Any]):
    """Rows shown on their parent's page, never written there."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    """A game's seats: who sits there, their clock, calls and points."""

    model: Any = Seat
    fields = ("letter", "user", "bank", "wrong_calls", "offer", "score")


class MatchSeatInline(ReadOnlyInline):
    model: Any = MatchSeat
    fields = ("letter", "user", "total")


class ChallengeSeatInline(ReadOnlyInline):
    model: Any = ChallengeSeat
    fields = ("user", "invited", "letter")


#: Secret while the game is played (the deal's cards, and the server's secret that makes
#: the seed: docs/fair-deal.md; R7.4 for the slips).
GAME_SECRETS = ("seed", "server_secret", "state", "record", "record_entries")


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["id", "title", "status", "to_move", "ply", "rules", "deadline", "updated_at"]
    list_filter = ["status", "ending", "stop_mode", "rules", "time_control"]
    search_fields = ["id__exact", "seats__user__username"]
    inlines = [SeatInline]
    readonly_fields = ["export", "slips", "record_entries", "emails_link"]
    date_hierarchy = "created_at"
    secret_fields = GAME_SECRETS

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> _FieldGroups:
        fields = super().get_fields(request, obj)
        if obj is None or obj.status == Game.Status.PLAYING:
            return [f for f in fields if f not in GAME_SECRETS]
        return fields

    @admin.display(description=gettext_lazy("the game in the notation"))
    def export(self, game: Game) -> SafeString:
        """What the players may read: no seed and no slip while it is played."""
        return format_html("<pre>{}</pre>", export_game(game))

    @admin.display(description=gettext_lazy("the record"))
    def record_entries(self, game: Game) -> SafeString:
        """Every entry of a finished game's record, slips and wrong calls included."""
        return format_html("<pre>{}</pre>", "\n".join(map(str, engine_game(game).entries)))

    @admin.display(description=gettext_lazy("priority slips"))
    def slips(self, game: Game) -> str:
        """A classic game's accepted slips (R7.4): the opponent's to spot while it is
        played, so shown only once it is over."""
        if game.status == Game.Status.PLAYING:
            return _("(shown when the game ends)")
        found = game_record(game)["violations"]
        return ", ".join(
            f"{v['index'] + 1}: {v['seat']} {v['move']} {v['violation']}" for v in found
        )

    @admin.display(description=gettext_lazy("e-mails"))
    def emails_link(self, game: Game) -> SafeString:
        return changelist_link("games.notification", _("its e-mails"), game__id__exact=game.pk)


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["id", "title", "target", "totals", "winner", "created_at", "finished_at"]
    list_filter = ["winner", "rules"]
    search_fields = ["id__exact", "seats__user__username"]
    inlines = [MatchSeatInline]


@admin.register(IdempotentRequest)
class IdempotentRequestAdmin(ReadOnlyAdmin):
    list_display = ["key", "user", "game", "status_code", "created_at"]
    search_fields = ["key", "user__username", "game__id__exact"]
    list_select_related = ["user", "game"]


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ["id", "challenger", "email", "is_open", "status", "created_at"]
    list_filter = ["status", "is_open", "rules"]
    search_fields = [
        "id__exact",
        "email",
        "challenger__username",
        "challenger__email",
        "seats__user__username",
    ]
    list_select_related = ["challenger"]
    inlines = [ChallengeSeatInline]
    # The invitation token is a secret link that would let its reader take the seat; the
    # server's secret would let its reader foresee the deal (it is its game's to reveal).
    exclude = ["token", "server_secret"]
    secret_fields = ("token", "server_secret")


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "status", "email", "user_link", "game_link", "attempts"]
    list_display_links = ["id"]
    list_filter = ["status", "kind"]
    search_fields = ["email", "user__username", "game__id__exact", "challenge__id__exact"]
    list_select_related = ["user", "game"]
    date_hierarchy = "created_at"

    @admin.display(description=gettext_lazy("user"))
    def user_link(self, row: Notification) -> SafeString | str:
        return link(row.user)

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, row: Notification) -> SafeString | str:
        return link(row.game)


@admin.register(PushMessage)
class PushMessageAdmin(ReadOnlyAdmin):
    """The pushes' outbox: what went to which device, what failed and why."""

    list_display = ["id", "kind", "status", "user_link", "game_link", "attempts", "last_error"]
    list_display_links = ["id"]
    list_filter = ["status", "kind"]
    search_fields = ["user__username", "game__id__exact"]
    list_select_related = ["user", "game"]
    date_hierarchy = "created_at"

    @admin.display(description=gettext_lazy("user"))
    def user_link(self, row: PushMessage) -> SafeString | str:
        return link(row.user)

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, row: PushMessage) -> SafeString | str:
        return link(row.game)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyAdmin):
    """Each player's devices (their endpoints are capabilities: shown, never edited)."""

    list_display = ["id", "user", "device", "created_at", "last_used_at"]
    search_fields = ["user__username"]
    secret_fields = ("endpoint", "p256dh", "auth")
    list_select_related = ["user"]


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    """What players wrote at their games (docs/messages.md), found by its words, its
    game or its writer; read-only (a reported message is copied into its report)."""

    list_display = ["id", "created_at", "game_link", "author_link", "seat", "excerpt", "ply"]
    list_display_links = ["id"]
    search_fields = ["text", "game__id__exact", "author__username"]
    list_select_related = ["game", "author"]
    date_hierarchy = "created_at"

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, row: Message) -> SafeString | str:
        return link(row.game)

    @admin.display(description=gettext_lazy("author"))
    def author_link(self, row: Message) -> SafeString | str:
        return link(row.author)

    @admin.display(description=gettext_lazy("text"))
    def excerpt(self, row: Message) -> str:
        return Truncator(row.text).chars(80)


@admin.register(GameReview)
class GameReviewAdmin(ReadOnlyAdmin):
    """A finished game's review (games.review; docs/review.md): written by its task only."""

    list_display = ["game", "format", "seconds", "created_at"]
    list_filter = ["format"]
    search_fields = ["game__id__exact"]
    date_hierarchy = "created_at"


@admin.register(DatabaseMonth)
class DatabaseMonthAdmin(ReadOnlyAdmin):
    """A month of the open database (games.archive; docs/open-database.md): written once
    by its task, never changed."""

    list_display = ["month", "count", "size", "sha256", "written_at"]
    date_hierarchy = "month"


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    """Ratings move only when a rated game ends (games.lobby.ratings): read-only here."""

    list_display = ["id", "user", "family", "rating", "deviation", "games", "wins", "losses"]
    list_filter = ["family"]
    search_fields = ["user__username"]
    list_select_related = ["user"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """What the event streams and webhooks carried (kept EVENT_RETENTION_DAYS)."""

    list_display = ["id", "kind", "user_link", "game_link", "created_at"]
    list_display_links = ["id"]
    list_filter = ["kind"]
    search_fields = ["user__username", "game__id__exact"]
    list_select_related = ["user", "game"]
    date_hierarchy = "created_at"

    @admin.display(description=gettext_lazy("user"))
    def user_link(self, row: Event) -> SafeString | str:
        return link(row.user)

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, row: Event) -> SafeString | str:
        return link(row.game)


@admin.register(StreamLease)
class StreamLeaseAdmin(ReadOnlyAdmin):
    """The event streams open now, by player and web process (STREAM_MAX_PER_USER
    counts them across processes; a dead process's rows stop counting by themselves)."""

    list_display = ["id", "user_link", "hub", "renewed_at"]
    list_display_links = ["id"]
    search_fields = ["user__username"]
    list_select_related = ["user"]

    @admin.display(description=gettext_lazy("user"))
    def user_link(self, row: StreamLease) -> SafeString | str:
        return link(row.user)


@admin.register(Lock)
class LockAdmin(ReadOnlyAdmin):
    """Who holds each lock (beat's: the one beat that sends the schedule's tasks)."""

    list_display = ["name", "holder", "expires_at"]
