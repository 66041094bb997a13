"""Request fields that take JSON's types as the schema states them.

DRF reads ``"12"`` as 12, ``12`` as ``"12"`` and ``0`` as false; the OpenAPI schema says
integer, string and boolean, so a client that sends another type has a bug the API
must name (400), not guess around.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class CharField(serializers.CharField):
    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class IntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        value: int = super().to_internal_value(data)
        return value


class BooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data
