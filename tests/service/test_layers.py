"""The service's layers, read from its code: no import circle between the project's
modules, every module in its room and importing nothing from a room above it, the
library and accounts below every domain, the play services telling no feature
directly, and the selectors reading only models, stored games and the engine."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "accounts", "mailplay", "webhooks", "competitions", "config", "lib")


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


#: The rooms of the service, from the ground up (docs/architecture.md, "Layers"): a
#: module imports only from its own room or the rooms below it. The rules engine and the
#: library import nothing of the domains; accounts knows nothing of games; the play
#: services sit below every feature that follows a game (they publish happenings,
#: games/play/happenings.py); the channels (API, pages) sit above the domains; the
#: wiring (games.subscriptions, games.apps, config) at the top.
ROOMS = (
    "games.engine",
    "lib",
    "accounts",
    "games.clocks",
    "games.models",
    "games.words",
    "games.talk",
    "games.notes",
    "games.play",
    "games.feed",
    "games.notify",
    "games.push",
    "games.lobby",
    "games.computer",
    "games.review",
    "games.archive",
    "games.sweep",
    "games.retention",
    "games.tasks",
    "mailplay",
    "webhooks",
    "competitions",
    "games.templatetags",
    "games.api",
    "games.pages",
    "games.subscriptions",
    "games.admin",
    "games.management",
    "games.urls",
    "games.apps",
    "config",
)


def room_of(name: str) -> str | None:
    """The longest room that holds module ``name`` (an empty package's ``__init__``,
    ``games`` itself, belongs to none)."""
    rooms = [room for room in ROOMS if name == room or name.startswith(room + ".")]
    return max(rooms, key=len) if rooms else None


def test_every_module_has_its_room() -> None:
    assert [name for name in MODULES if name != "games" and room_of(name) is None] == []


def test_no_module_imports_from_a_room_above_its_own() -> None:
    upward = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        for target in targets
        if (room := room_of(name)) is not None
        and (above := room_of(target)) is not None
        and ROOMS.index(above) > ROOMS.index(room)
    )
    assert upward == []


def test_the_library_and_accounts_know_nothing_of_the_domains() -> None:
    for low in ("lib", "accounts"):
        reaching = {
            (name, target)
            for name, targets in GRAPH.items()
            if room_of(name) == low
            for target in targets
            if target.split(".")[0] in ("games", "mailplay", "webhooks", "config")
        }
        assert reaching == set(), low


def test_the_play_services_tell_no_feature_directly() -> None:
    """What follows an action (e-mails, events, ratings, matches, the computer players)
    subscribes to the play services' happenings; they import none of it."""
    features = ("games.notify", "games.feed", "games.lobby", "games.computer", "games.pages")
    assert {
        (name, target)
        for name, targets in GRAPH.items()
        if name.startswith("games.play.")
        for target in targets
        if target.startswith(features)
    } == set()


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


def test_competitions_are_built_on_top_and_only_the_wiring_imports_them() -> None:
    # They follow GameEnded (competitions.apps subscribes) and deal games as challenges
    # do; nothing of games imports them, and the URL conf names their views.
    assert not {
        (name, target)
        for name, targets in GRAPH.items()
        if not name.startswith("competitions") and name != "config.urls"
        for target in targets
        if target.startswith("competitions")
    }


def test_selectors_read_only_models_stored_games_messages_notes_and_the_engine() -> None:
    allowed = {"games.models", "games.play.store", "games.talk", "games.notes", "lib.errors"}
    assert {t for t in GRAPH["games.play.selectors"] if not t.startswith("games.engine")} <= allowed
