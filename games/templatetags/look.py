"""The site's look in e-mails: ``{% look "ink" %}`` is the value of ``--ink`` in the
light theme of games/static/games/site.css, the one place the tokens are defined.
Mail clients read no custom property and many drop a <style> block, so an e-mail
carries the values inline; read from the stylesheet, they never drift from the pages."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from django import template
from django.contrib.staticfiles import finders

register = template.Library()

STYLESHEET = "games/site.css"
ROOT = re.compile(r"^:root\s*\{(.*?)^\}", re.DOTALL | re.MULTILINE)
TOKEN = re.compile(r"--([\w-]+):\s*([^;]+);")


@cache
def tokens() -> dict[str, str]:
    """The light theme's tokens: the stylesheet's first ``:root`` block, comments out."""
    found = finders.find(STYLESHEET)
    assert isinstance(found, str), STYLESHEET
    text = re.sub(r"/\*.*?\*/", "", Path(found).read_text(encoding="utf-8"), flags=re.DOTALL)
    root = ROOT.search(text)
    assert root is not None, f"{STYLESHEET} has no :root block"
    return {name: " ".join(value.split()) for name, value in TOKEN.findall(root.group(1))}


@register.simple_tag
def look(name: str) -> str:
    """The token's value; an unknown name fails the rendering (a typo shows in tests)."""
    try:
        return tokens()[name]
    except KeyError:
        raise template.TemplateSyntaxError(f"{STYLESHEET} defines no --{name}") from None
