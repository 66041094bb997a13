"""Support staff find a competition by name or maker, an entry by player, a pairing by
player or game. Results come from the games: nothing here is edited by hand (a wrong
row would disagree with its game); a competition may be deleted."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from .models import Competition, Division, Entry, Pairing, Round, Season


class ReadOnly(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Competition)
class CompetitionAdmin(ReadOnly):
    list_display = ["id", "name", "format", "status", "creator", "by_staff", "created_at"]
    list_filter = ["format", "status", "by_staff"]
    search_fields = ["name", "creator__username", "creator__email", "=id"]
    list_select_related = ["creator"]
    exclude = ["token"]  # a private competition's link is its maker's to give


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    list_display = ["id", "name", "competition", "rating", "withdrawn_at", "place"]
    search_fields = ["name", "player__username", "player__email", "=competition__id"]
    list_select_related = ["competition"]


@admin.register(Round)
class RoundAdmin(ReadOnly):
    list_display = ["id", "competition", "number", "started_at", "deadline", "finished_at"]
    search_fields = ["competition__name", "=competition__id"]
    list_select_related = ["competition"]


@admin.register(Pairing)
class PairingAdmin(ReadOnly):
    list_display = ["id", "round", "seat_a", "seat_b", "game", "points_a", "points_b"]
    search_fields = ["seat_a__name", "seat_b__name", "=game__id", "=round__competition__id"]
    list_select_related = ["round", "seat_a", "seat_b"]


@admin.register(Season)
class SeasonAdmin(ReadOnly):
    list_display = ["id", "competition", "number", "started_at", "finished_at"]
    search_fields = ["competition__name", "=competition__id"]


@admin.register(Division)
class DivisionAdmin(ReadOnly):
    list_display = ["id", "season", "level"]
    search_fields = ["season__competition__name", "=season__competition__id"]
