"""The account's webhooks page and its forms (the API's routes are in config/urls.py)."""

from django.urls import path

import lib.converters  # noqa: F401  (registers <id:...>)

from . import views

urlpatterns = [
    path("account/webhooks/", views.webhooks, name="webhooks"),
    path("account/webhooks/<id:webhook_id>/switch/", views.switch, name="webhook-switch"),
    path("account/webhooks/<id:webhook_id>/ping/", views.ping, name="webhook-ping"),
    path("account/webhooks/<id:webhook_id>/secret/", views.replace_secret, name="webhook-secret"),
    path("account/webhooks/<id:webhook_id>/delete/", views.delete, name="webhook-delete"),
]
