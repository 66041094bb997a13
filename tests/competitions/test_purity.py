"""The formats are pure: the standard library, networkx and themselves, nothing from
Django (competitions/formats/__init__.py), so the pairing can be run and tested alone."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "competitions" / "formats"
SOURCES = sorted(FORMATS.glob("*.py"))


def allowed(module: str) -> bool:
    top = module.split(".")[0]
    return top in sys.stdlib_module_names or top == "networkx" or module.startswith("competitions")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_every_import_names_the_standard_library_networkx_or_the_formats(path: Path) -> None:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append(node.module or "")
    assert [m for m in found if not allowed(m)] == []
    assert [m for m in found if m.startswith("competitions") and ".formats" not in m] == []


def test_importing_the_formats_loads_no_django() -> None:
    probe = (
        "import sys, competitions.formats.swiss, competitions.formats.standings, "
        "competitions.formats.league, competitions.formats.ladder, "
        "competitions.formats.knockout, competitions.formats.roundrobin; "
        "print(sorted(m for m in sys.modules if m.startswith('django')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
