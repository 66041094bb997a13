"""Account pages: profile and notification preferences, the calendar link, API tokens,
vacation, blocked players."""

from django.urls import path

import lib.converters  # noqa: F401  (registers <id:...>)

from . import views

urlpatterns = [
    path("account/", views.profile, name="profile"),
    path("account/tokens/", views.tokens, name="tokens"),
    path("account/tokens/<id:token_id>/revoke/", views.revoke_token, name="token-revoke"),
    path("account/calendar/", views.make_calendar_link, name="calendar-make"),
    path("account/calendar/stop/", views.stop_calendar_link, name="calendar-stop"),
    path("account/vacation/", views.vacation, name="vacation"),
    path("account/blocks/", views.blocks, name="blocks"),
    path("account/delete/", views.delete_account, name="account-delete"),
    path("account/mail-works/", views.mail_works_again, name="mail-works-again"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
