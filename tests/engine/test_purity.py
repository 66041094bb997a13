"""The engine is pure Python on the standard library: nothing from Django, nothing
third-party (ARCHITECTURE.md, "Decisions already made"; README: standard library only).

Checked twice: dynamically, by importing each module in a fresh interpreter and
looking at what got loaded, and statically, by reading every import statement.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))
MODULES = sorted(
    "games.engine" + "".join(f".{part}" for part in path.relative_to(ENGINE).with_suffix("").parts)
    for path in SOURCES
    if path.name != "__init__.py"
)
STDLIB = sys.stdlib_module_names

# Run in a fresh interpreter: import one module (running __main__ as the command
# line does) and report which modules the import added to sys.modules.
PROBE = """
import json, runpy, sys
name = sys.argv[1]
before = set(sys.modules)
if name.endswith(".__main__"):
    sys.argv = ["games.engine", "deal", "--seed", "1"]
    try:
        runpy.run_module(name.removesuffix(".__main__"), run_name="__main__")
    except SystemExit as exc:
        assert exc.code == 0, exc.code
else:
    __import__(name)
print(json.dumps({"added": sorted(set(sys.modules) - before), "all": sorted(sys.modules)}))
"""


def allowed(module: str) -> bool:
    """The standard library, and the engine package itself (with its parent package)."""
    top = module.split(".")[0]
    return (
        top in STDLIB or module in ("games", "games.engine") or module.startswith("games.engine.")
    )


def test_the_engine_has_the_modules_this_file_checks() -> None:
    for name in ("position", "deal", "document", "views", "replay", "cli", "__main__"):
        assert f"games.engine.{name}" in MODULES


@pytest.mark.parametrize("module", ["games.engine", *MODULES])
def test_importing_a_module_loads_only_the_standard_library(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, module],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert ("games.engine.cli" if module.endswith("__main__") else module) in report["all"]
    assert not [m for m in report["all"] if m.split(".")[0].lower().startswith("django")]
    assert [m for m in report["added"] if not allowed(m)] == []


def test_the_command_line_imports_nothing_from_django() -> None:
    """The same through ``-X importtime``, which lists every import the CLI makes."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "games.engine", "deal", "--seed", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    imported = [
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    ]
    assert "games.engine.cli" in imported
    assert "games.engine.position" in imported
    assert [m for m in imported if "django" in m.lower()] == []


def imports_of(path: Path) -> list[tuple[int, str, int]]:
    """(line, imported module, relative level) for every import in a source file."""
    found: list[tuple[int, str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, node.module or "", node.level))
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_import_statement_names_the_standard_library_or_the_engine(path: Path) -> None:
    problems = []
    depth = len(path.relative_to(ENGINE).parts)  # 1 in games/engine, 2 in a subpackage
    for line, module, level in imports_of(path):
        where = f"{path.relative_to(ROOT)}:{line}"
        if "django" in module.lower():
            problems.append(f"{where}: imports {module}")
        elif level > depth:  # from ..x in games/engine: reaches outside it
            problems.append(f"{where}: relative import leaves the engine ({'.' * level}{module})")
        elif level == 0 and not allowed(module):
            problems.append(f"{where}: imports {module}, not in the standard library")
    assert problems == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_dynamic_imports(path: Path) -> None:
    """Nothing reaches a module by name at run time (``__import__``, ``importlib``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    calls = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "__import__")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
        )
    ]
    assert calls == []
    assert not [m for _, m, _ in imports_of(path) if m.split(".")[0] == "importlib"]


#: docs/engine.md: the engine's classes stay small enough to read whole.
MAX_CLASS_LINES = 400


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_class_is_over_400_lines(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    sizes = {
        node.name: (node.end_lineno or node.lineno) - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    assert {name: n for name, n in sizes.items() if n > MAX_CLASS_LINES} == {}
