"""Helpers shared by the test_rules_*.py files (no tests here).

refuse(pos, "H2-H1", "S4")   # refused with S4, not in legal(pos), nothing changed
houses(H1="9S", H3="")       # eight quiet houses (kings), some replaced
"""

from __future__ import annotations

import re

import pytest

from games.engine import IllegalMove, Position, to_document
from tests.engine.builders import legal

#: Eight kings: nothing is ever built on them here, so these houses stay out of the way.
QUIET = {1: "KS", 2: "KH", 3: "KD", 4: "KC", 5: "KS", 6: "KH", 7: "KD", 8: "KC"}


def houses(**extra: str) -> dict[int, str]:
    """QUIET houses with some replaced, e.g. houses(H1="9S"); "" leaves a house empty."""
    return {**QUIET, **{int(k[1:]): v for k, v in extra.items()}}


def play(pos: Position, moves: str) -> None:
    """Play moves given as text, separated by spaces (one seat's turn, or several)."""
    for text in moves.split():
        pos.play(text)


def assert_plain(message: str) -> None:
    """A message for a player: words, no program internals."""
    assert re.search(r"[a-z]{2,} [a-z]{2,}", message), message
    for jargon in ("Move(", "None", "_", "{", "Traceback", "src", "dst"):
        assert jargon not in message, message


def refuse(pos: Position, text: str, code: str) -> str:
    """Assert that ``text`` is refused with ``code``, is not listed as legal, and changes
    nothing; returns the message (checked to be plain words)."""
    before = to_document(pos)
    assert text not in legal(pos)
    with pytest.raises(IllegalMove) as info:
        pos.play(text)
    assert info.value.code == code, info.value.message
    assert to_document(pos) == before
    assert_plain(info.value.message)
    return info.value.message
