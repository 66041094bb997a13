"""Competitions' pages (the API's routes are in config/urls.py)."""

from django.urls import path

import lib.converters  # noqa: F401  (registers <id:...>)

from . import pages

urlpatterns = [
    path("competitions/", pages.competition_list, name="competitions"),
    path("competitions/new/", pages.new_competition, name="competition-new"),
    path("competitions/<id:competition_id>/", pages.competition_page, name="competition"),
    *(
        path(
            f"competitions/<id:competition_id>/{action}/",
            pages.act,
            {"action": action},
            name=f"competition-{action}",
        )
        for action in ("enter", "withdraw", "start", "challenge")
    ),
]
