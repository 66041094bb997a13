"""A whole number's allowed range, said once for the form, the API and the service that
all check it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


class FieldBounds(TypedDict):
    min_value: int
    max_value: int


@dataclass(frozen=True)
class Bounds:
    """From ``low`` to ``high``, both included."""

    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def field(self) -> FieldBounds:
        """The keywords a Django form's or a DRF serializer's IntegerField takes."""
        return FieldBounds(min_value=self.low, max_value=self.high)

    def words(self) -> dict[str, int]:
        """The ends, for a message: ``"from %(low)s to %(high)s"``."""
        return {"low": self.low, "high": self.high}
