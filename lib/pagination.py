"""Pagination for every list: ``?limit=&offset=``, at most 100 items a page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from lib.errors import ServiceError


def _check_number(request: Request, name: str) -> None:
    """``limit`` (1 or more) and ``offset`` (0 or more), when given, are whole numbers."""
    values = request.query_params.getlist(name)
    first = 1 if name == "limit" else 0
    if any(not (v.isascii() and v.isdigit() and int(v) >= first) for v in values):
        message = _("%(name)s must be a whole number from %(first)s")
        raise ServiceError(400, "BAD_REQUEST", message % {"name": name, "first": first})


class Pages(LimitOffsetPagination):
    default_limit = 50
    max_limit = 100

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            first = 1 if parameter["name"] == self.limit_query_param else 0
            parameter["schema"]["minimum"] = first
        return parameters

    def get_limit(self, request: Request) -> int | None:
        _check_number(request, self.limit_query_param)
        return super().get_limit(request)

    def get_offset(self, request: Request) -> int:
        _check_number(request, self.offset_query_param)
        # A huge offset overflows the database's integers: clamp it to what can exist.
        return min(super().get_offset(request), 10**9)

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        wrapper = super().get_paginated_response_schema(schema)
        fields = wrapper["properties"]
        url = "https://rbank.example/api/v1/games/?limit=50&offset={}"
        for name, example, description in (
            ("count", 120, "How many items the whole list holds"),
            ("next", url.format(100), "The next page, or null on the last"),
            ("previous", url.format(0), "The previous page, or null on the first"),
        ):
            fields[name].update(example=example, description=description)
        return wrapper


class ListApi(APIView):
    """A view whose GET answers a list: one page of it in the one wrapper
    (``count``, ``next``, ``previous``, ``results``). ``pagination_class`` also tells
    the OpenAPI schema that the list is paginated and takes ``limit`` and ``offset``."""

    pagination_class = Pages

    def page(
        self,
        request: Request,
        items: QuerySet[Any] | Sequence[Any],
        render: Callable[[Any], dict[str, Any]],
    ) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, request, view=self)
        assert page is not None  # Pages always paginates
        return paginator.get_paginated_response([render(item) for item in page])
