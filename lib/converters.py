"""``<id:name>`` in a URL: a row's id, at most 18 digits.

Django's ``<int:...>`` takes any number of digits, and a 20-digit id overflows the
database's 64-bit integer (SQLite raises OverflowError, PostgreSQL "out of range"):
a 500 for what is only an id that cannot exist. No id has more than 18 digits, so a
path with a longer one matches no URL and answers 404 like any other unknown id.
Importing this module registers the converter; every URL conf that names ids does.
"""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
