"""Account pages: profile and notification preferences, API tokens, vacation."""

from django.urls import path

from . import views

urlpatterns = [
    path("account/", views.profile, name="profile"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
