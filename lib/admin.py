"""Links between the admin's pages, for every app's admin."""

from __future__ import annotations

from django.db.models import Model
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString


def link(obj: Model | None) -> SafeString | str:
    """A link to ``obj``'s admin page, or "-", for a list's column (a change page links
    its foreign keys by itself)."""
    if obj is None:
        return "-"
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, obj)


def changelist_link(model: str, text: str, **query: str | int) -> SafeString:
    """A link to the list of ``model`` ("app_label.modelname"), filtered by ``query``:
    named, so an app links to another's admin without importing it."""
    url = reverse(f"admin:{model.replace('.', '_')}_changelist")
    return format_html('<a href="{}?{}">{}</a>', url, urlencode(query), text)
