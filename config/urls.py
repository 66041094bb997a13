from anymail.webhooks.mailgun import MailgunInboundWebhookView
from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

import lib.converters  # noqa: F401  (registers <id:...>)
from accounts import api as accounts_api
from accounts import views as account_views
from competitions import api as competitions_api
from webhooks import api as webhooks_api

from . import health, views

handler400 = "lib.api_errors.bad_request"
handler404 = "lib.api_errors.not_found"
handler500 = "lib.api_errors.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    # The development mailbox: 404 unless DEBUG (lib/mailbox.py).
    path("dev/mail/", views.dev_mail, name="dev-mail"),
    path("dev/mail/<str:name>/", views.dev_mail_message, name="dev-mail-message"),
    # Sign-up before allauth's own: it tells an invitee who invites them (accounts/views.py).
    path("accounts/signup/", account_views.signup, name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("", include("games.urls")),
    path("", include("accounts.urls")),
    path("", include("webhooks.urls")),
    path("", include("competitions.urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/me/", accounts_api.MeApi.as_view(), name="api-me"),
    path("api/v1/me/vacation/", accounts_api.VacationApi.as_view(), name="api-vacation"),
    path("api/v1/me/tokens/", accounts_api.TokenListApi.as_view(), name="api-tokens"),
    path(
        "api/v1/me/tokens/<id:token_id>/",
        accounts_api.TokenDetailApi.as_view(),
        name="api-token",
    ),
    path("api/v1/me/blocks/", accounts_api.BlockListApi.as_view(), name="api-blocks"),
    path(
        "api/v1/me/blocks/<str:username>/",
        accounts_api.BlockDetailApi.as_view(),
        name="api-block",
    ),
    path("api/v1/me/webhooks/", webhooks_api.WebhookListApi.as_view(), name="api-webhooks"),
    path(
        "api/v1/me/webhooks/<id:webhook_id>/",
        webhooks_api.WebhookDetailApi.as_view(),
        name="api-webhook",
    ),
    *(
        path(f"api/v1/me/webhooks/<id:webhook_id>/{action}/", view.as_view(), name=name)
        for action, view, name in (
            ("secret", webhooks_api.WebhookSecretApi, "api-webhook-secret"),
            ("ping", webhooks_api.WebhookPingApi, "api-webhook-ping"),
            ("deliveries", webhooks_api.DeliveryListApi, "api-webhook-deliveries"),
        )
    ),
    path(
        "api/v1/me/webhooks/<id:webhook_id>/deliveries/<id:delivery_id>/redeliver/",
        webhooks_api.RedeliverApi.as_view(),
        name="api-webhook-redeliver",
    ),
    path(
        "api/v1/competitions/",
        competitions_api.CompetitionListApi.as_view(),
        name="api-competitions",
    ),
    path(
        "api/v1/competitions/<id:competition_id>/",
        competitions_api.CompetitionDetailApi.as_view(),
        name="api-competition",
    ),
    *(
        path(f"api/v1/competitions/<id:competition_id>/{action}/", view.as_view(), name=name)
        for action, view, name in (
            ("enter", competitions_api.EnterApi, "api-competition-enter"),
            ("withdraw", competitions_api.WithdrawApi, "api-competition-withdraw"),
            ("start", competitions_api.StartApi, "api-competition-start"),
            ("standings", competitions_api.StandingsApi, "api-competition-standings"),
            ("pairings", competitions_api.PairingsApi, "api-competition-pairings"),
            ("challenge", competitions_api.LadderChallengeApi, "api-competition-challenge"),
        )
    ),
    path("api/v1/", include("games.api.urls")),
]
if settings.ANYMAIL.get("MAILGUN_WEBHOOK_SIGNING_KEY"):
    # Play by mail through Mailgun: its route forwards each message here (raw MIME when
    # the URL ends in inbound_mime/), signed with the webhook signing key.
    urlpatterns.append(
        re_path(
            r"^mail/inbound/mailgun/inbound(_mime)?/$",
            MailgunInboundWebhookView.as_view(),
            name="mailgun-inbound",
        )
    )
