"""The service's layers, read from its code: no import circle between the project's
modules, ``accounts`` built below ``games``, and the selectors reading only models,
stored games and the engine."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "accounts", "mailplay", "webhooks", "config", "lib")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(path): path
    for package in PACKAGES
    for path in (ROOT / package).rglob("*.py")
    if "migrations" not in path.parts
}


def imports_of(name: str) -> Iterator[str]:
    """The project's modules ``name`` imports, anywhere in it (a function's import too:
    it ties the two modules as surely at run time)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # ``from . import tasks`` names a module; ``from .x import y`` a name of x.
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            if target in MODULES and target != name:
                yield target


GRAPH = {name: set(imports_of(name)) for name in MODULES}


def test_no_module_imports_itself_back() -> None:
    # Tarjan's strongly connected components: any with two modules or more is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in GRAPH[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for name in sorted(GRAPH):
        if name not in index:
            visit(name)
    assert circles == []


def test_accounts_is_built_below_games() -> None:
    # The sign-up page shows the challenge a newcomer's e-mail invitation names: the one
    # place accounts reads a game's model (docs/architecture.md, "Layers").
    allowed = {("accounts.invitations", "games.models")}
    reaching = {
        (name, target)
        for name, targets in GRAPH.items()
        if name.startswith("accounts")
        for target in targets
        if target.startswith("games")
    }
    assert reaching <= allowed


def test_webhooks_are_built_on_top_and_nothing_imports_them() -> None:
    # games tells the webhooks by a signal (games.feed.events.event_recorded); the URL conf
    # names every app's views.
    assert not {
        (name, target)
        for name, targets in GRAPH.items()
        if not name.startswith("webhooks") and name != "config.urls"
        for target in targets
        if target.startswith("webhooks")
    }


def test_selectors_read_only_models_stored_games_and_the_engine() -> None:
    allowed = {"games.models", "games.play.store", "lib.errors"}
    assert {t for t in GRAPH["games.play.selectors"] if not t.startswith("games.engine")} <= allowed
