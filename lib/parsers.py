"""The API's JSON parser: DRF's, with a bound on how deeply a body may nest.

Python's decoder recurses once per level, so ``[[[[…5000 levels…]]]]`` raises
RecursionError, which DRF does not catch (a 500). A body that parses just under the
interpreter's limit is no better: every later walk over it (validation, saving,
rendering) recurses again. No request of this API nests more than a few levels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: The deepest nesting a request body may have (a challenge's options are 2 levels).
MAX_DEPTH = 32


def _too_deep() -> ParseError:
    return ParseError(
        _("JSON parse error - the body is nested too deeply (at most %(depth)s levels)")
        % {"depth": MAX_DEPTH}
    )


def depth_of(value: Any) -> int:
    """How many arrays and objects are nested in ``value``, counted without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        if depth_of(data) > MAX_DEPTH:
            raise _too_deep()
        return data
