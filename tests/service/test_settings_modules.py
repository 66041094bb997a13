"""The settings are written in several modules, one per job, but Django reads one
(DJANGO_SETTINGS_MODULE=config.settings): every setting of the others is one of it."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

import pytest

from config import env, settings, settings_mail, settings_tasks


def settings_of(module: ModuleType) -> set[str]:
    """The names Django takes for settings (Django's own test: upper case)."""
    return {name for name in vars(module) if name.isupper() and not name.startswith("_")}


@pytest.mark.parametrize("module", [env, settings_mail, settings_tasks], ids=lambda m: m.__name__)
def test_every_setting_of_a_settings_module_is_one_of_config_settings(module: ModuleType) -> None:
    names = settings_of(module)
    assert names
    missing = sorted(name for name in names if not hasattr(settings, name))
    assert missing == [], f"not imported into config/settings.py: {missing}"
    for name in names:
        assert getattr(settings, name) is getattr(module, name), name


def assigned(module: ModuleType) -> set[str]:
    """The settings ``module``'s own code assigns (not those it imports)."""
    tree = ast.parse(Path(str(module.__file__)).read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names |= {t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()}
    return names


def test_each_setting_is_written_in_one_module() -> None:
    """A setting written twice would be two readings of the environment, one of them
    shadowed: each module writes its own and imports the others'."""
    seen: dict[str, list[str]] = {}
    for module in (env, settings_mail, settings_tasks, settings):
        for name in assigned(module):
            seen.setdefault(name, []).append(module.__name__)
    assert {name: where for name, where in seen.items() if len(where) > 1} == {}
    assert assigned(settings_mail) and assigned(settings_tasks)


def test_no_settings_module_is_over_600_lines() -> None:
    """The settings are split by job (config/): none grows back into one long module."""
    for module in (env, settings_mail, settings_tasks, settings):
        lines = Path(str(module.__file__)).read_text().count("\n")
        assert lines <= 600, (module.__name__, lines)
