"""Pagination for every list: ``?limit=&offset=``, at most 100 items a page."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request


class Pages(LimitOffsetPagination):
    default_limit = 50
    max_limit = 100

    def get_offset(self, request: Request) -> int:
        # A huge offset overflows the database's integers: clamp it to what can exist.
        return min(super().get_offset(request), 10**9)
