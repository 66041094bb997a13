"""An event checked against its kind's JSON Schema (``games.feed.schemas``), as a client
reads it: its JSON, times as text."""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from jsonschema import Draft202012Validator, FormatChecker

from games.feed.schemas import SCHEMAS

#: jsonschema checks no date-time without an extra package: the ISO 8601 the API writes.
FORMATS = FormatChecker(formats=())


def is_datetime(value: object) -> bool:
    return not isinstance(value, str) or datetime.fromisoformat(value).tzinfo is not None


FORMATS.checks("date-time", raises=ValueError)(is_datetime)


@cache
def validator(kind: str) -> Draft202012Validator:
    Draft202012Validator.check_schema(SCHEMAS[kind])
    return Draft202012Validator(SCHEMAS[kind], format_checker=FORMATS)


def problems(event: dict[str, Any]) -> list[str]:
    """What is wrong with ``event`` (as ``Event.as_json`` gives it): nothing, or each
    way it departs from its kind's schema."""
    data = json.loads(json.dumps(event, cls=DjangoJSONEncoder))
    kind = data.get("kind")
    if kind not in SCHEMAS:
        return [f"#{data.get('id')}: no schema for the kind {kind!r}"]
    return [
        f"{kind} #{data.get('id')} at /{'/'.join(map(str, error.path))}: {error.message}"
        for error in validator(kind).iter_errors(data)
    ]
