"""Every rule is decided in games/engine: the service, the pages, the API and the
e-mails ask it. This reads their code and fails when rule logic shows outside it: an
engine module that decides rules imported past the engine's public face, a position
changed by hand, or the words of the old move log (the service's own record of a
game, before the engine kept one)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    path
    for folder in ("games", "accounts", "mailplay", "webhooks", "config", "lib")
    for path in (ROOT / folder).rglob("*.py")
    if "engine" not in path.relative_to(ROOT).parts[:2] and "migrations" not in path.parts
)
#: What the rest of the code may import from the engine besides its package's public
#: names: data and words, no rules.
DATA_MODULES = {
    "games.engine.cards",
    "games.engine.rules",
    "games.engine.messages",
    "games.engine.record",
}
#: Methods that change a position by hand: a rule applied outside the engine's Game.
POSITION_CHANGES = {"push", "forfeit", "finish_stalemate", "stop_turn", "reveal_reserve", "_apply"}
#: A position's piles that only the engine reads: a view (``view``, ``revealed_view``)
#: says what of them a reader may see.
POSITION_INTERNALS = {"reserve_down", "houses_down"}
#: A layout given to the notation's reader by hand: the engine knows the layouts
#: (``reads_as_move``, ``LARGEST_LAYOUT``, a game's own ``parse``).
LAYOUT_KEYWORDS = {"seats", "foundations", "houses"}
#: The words of the old move log, which the service wrote and read itself.
OLD_LOG_WORDS = ("resigns", "times-out", "agrees-stalemate", "loses-turn", "stop:")


def problems_in(path: Path, root: Path = ROOT) -> list[str]:
    where = path.relative_to(root)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        line = getattr(node, "lineno", 0)
        module = getattr(node, "module", None) or ""
        if module.startswith("games.engine.") and module not in DATA_MODULES:
            found.append(f"{where}:{line}: imports {module}")
        attribute = (
            node.func.attr
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            else ""
        )
        if attribute in POSITION_CHANGES:
            found.append(f"{where}:{line}: calls .{attribute}()")
        if isinstance(node, ast.Attribute) and node.attr in POSITION_INTERNALS:
            found.append(f"{where}:{line}: reads .{node.attr}")
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", "")) == "parse_move"
            and {keyword.arg for keyword in node.keywords} & LAYOUT_KEYWORDS
        ):
            found.append(f"{where}:{line}: gives parse_move a layout")
        text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
        if text in OLD_LOG_WORDS or text.startswith("stop:"):
            found.append(f"{where}:{line}: the log word {text!r}")
    return found


def test_it_reads_the_service_code() -> None:
    names = {path.name for path in SOURCES}
    assert {"services.py", "stops.py", "selectors.py", "views.py", "api.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_rule_is_decided_outside_the_engine(path: Path) -> None:
    assert problems_in(path) == []


def test_it_catches_rule_logic(tmp_path: Path) -> None:
    """The check itself: each kind of rule logic is caught."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from games.engine.stop import call_stop\nposition.forfeit(1)\ntext = 'loses-turn'\n"
        "down = seat.reserve_down + position.houses_down\n"
        "parse_move(token, seats=3, foundations=8, houses=9)\n",
        encoding="utf-8",
    )
    assert len(problems_in(sample, tmp_path)) == 6
