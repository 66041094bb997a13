"""The base of every request body the API reads: a field it does not know is refused.

DRF's serializers drop unknown keys, so ``{"moves": [...], "expected_verison": 7}``
played the moves with no version check. Every write operation validates its body
with a ``RequestBody``, even one that takes no fields (``NoBody``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


class RequestBody(serializers.Serializer[dict[str, Any]]):
    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, Mapping):
            errors = {name: self._refusal(name) for name in data if name not in self._writable()}
            if errors:
                raise serializers.ValidationError(errors)
        values: dict[str, Any] = super().to_internal_value(data)
        return values

    def _writable(self) -> set[str]:
        return {name for name, field in self.fields.items() if not field.read_only}

    def _refusal(self, name: str) -> str:
        if name in self.fields:
            return "read-only, it cannot be set"
        known = ", ".join(sorted(self._writable())) or "none"
        return f"unknown field (this operation takes: {known})"


class NoBody(RequestBody):
    """The body of an operation that takes no fields: empty, or ``{}``."""
