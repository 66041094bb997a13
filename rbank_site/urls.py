from django.contrib import admin
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/games/<int:game_id>/", api.GameDetailApi.as_view(), name="api-game"),
    path("api/v1/games/<int:game_id>/moves/", api.PlayMovesApi.as_view(), name="api-game-moves"),
]
