"""docs/engine.md indexes every rule id of the rules reference to the functions that
decide it: every id has a row, and every name in a row is a real engine function."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\b(?:R\d+(?:\.\d+)?|P\d|S\d+|V\d+|G\d)\b")


def rules_reference() -> str:
    """The project's rules reference, docs/rules.md."""
    own = ROOT / "docs" / "rules.md"
    return own.read_text(encoding="utf-8") if own.exists() else ""


def index() -> dict[str, list[str]]:
    """Rule id -> the dotted names in its row of docs/engine.md's index."""
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text.split("## Where each rule is decided", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not RULE_ID.search(cells[0]):
            continue
        names = re.findall(r"`([\w.]+)`", cells[1])
        for rule in RULE_ID.findall(cells[0]):
            rows[rule] = names
    return rows


def test_every_rule_id_of_the_rules_reference_is_indexed() -> None:
    reference = rules_reference()
    assert reference, "docs/rules.md is missing"
    ids = set(RULE_ID.findall(reference))
    assert ids >= {"R4.4", "P3", "S5", "V14", "G4"}
    assert sorted(ids - set(index())) == []


@pytest.mark.parametrize("rule", sorted(index()))
def test_every_indexed_name_is_an_engine_function(rule: str) -> None:
    names = index()[rule]
    assert names, rule
    for name in names:
        module_path, _, rest = name.partition(".")
        parts = rest.split(".")
        # The module is the longest prefix that imports: ``variants.foster.Stock``.
        for cut in range(len(parts), -1, -1):
            module_name = ".".join(["games.engine", module_path, *parts[:cut]])
            try:
                target: object = importlib.import_module(module_name)
            except ModuleNotFoundError:
                continue
            for attribute in parts[cut:]:
                target = getattr(target, attribute)
            break
        else:
            pytest.fail(f"{rule}: no module for {name}")
