"""The site's URLs, plus a view and a task that fail: what an error report is made of."""

from __future__ import annotations

from celery import shared_task
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import handler400, handler404, handler500, urlpatterns

__all__ = ["handler400", "handler404", "handler500", "urlpatterns"]


class FailingApi(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request) -> Response:
        return Response({"ratio": 1 / 0})


@shared_task  # type: ignore[untyped-decorator]
def failing_task() -> float:
    return 1 / 0


urlpatterns = [path("api/v1/fail/", FailingApi.as_view()), *urlpatterns]
