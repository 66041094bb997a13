"""``{{ game|rules_label }}``: a game's or a challenge's rules in a few words, in the
active language (``games.lobby.rules_catalog.rules_label``)."""

from __future__ import annotations

from typing import Any

from django import template

from games.lobby.rules_catalog import rules_label as label

register = template.Library()


@register.filter
def rules_label(made: Any) -> str:
    """``Standard (pagat.com)``, or ``Standard (pagat.com) + Lenient turn, Reserve size
    12``, of anything made with rules (a game, a challenge, a match)."""
    return label(made.rules, made.rule_options)
