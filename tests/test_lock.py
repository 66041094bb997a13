"""The lock files pin every dependency of pyproject.toml, with hashes (``make lock``):
``requirements.lock`` the service's (the image installs it), ``requirements-dev.lock``
the same plus the tools (``make install``). An image built next month installs the
same versions, and so does ``make test``."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
SERVICE = [Requirement(r) for r in PROJECT["dependencies"]]
TOOLS = [Requirement(r) for r in PROJECT["optional-dependencies"]["dev"]]
PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;]+)\s*(?:;(?P<marker>[^-]+?))?\s*(?P<hashes>(?:--hash=sha256:[0-9a-f]{64}\s*)*)$"
)


@dataclass(frozen=True)
class Pin:
    version: str
    marker: Marker | None
    hashes: int

    def applies_here(self) -> bool:
        return self.marker is None or self.marker.evaluate()


def pins(name: str) -> dict[str, Pin]:
    """The lock file's pins by canonical name (one entry per requirement, continuation
    lines joined, comments dropped)."""
    text = (ROOT / name).read_text()
    entries = re.sub(r"\s*\\\n\s*", " ", re.sub(r"#.*", "", text)).splitlines()
    found: dict[str, Pin] = {}
    for entry in filter(str.strip, entries):
        match = PIN.match(entry.strip())
        assert match, f"{name}: not a pinned requirement with hashes: {entry!r}"
        marker = match["marker"]
        found[canonicalize_name(match["name"])] = Pin(
            match["version"],
            Marker(marker.strip()) if marker else None,
            match["hashes"].count("--hash="),
        )
    return found


def extras_needs(requirement: Requirement) -> set[str]:
    """What the requirement's extras add (``celery[redis]``: redis), from the installed
    package's own metadata."""
    needs: set[str] = set()
    for line in metadata.requires(requirement.name) or []:
        needed = Requirement(line)
        for extra in requirement.extras:
            if needed.marker is not None and needed.marker.evaluate({"extra": extra}):
                needs.add(canonicalize_name(needed.name))
    return needs


@pytest.mark.parametrize(
    ("lock", "requirements"),
    [("requirements.lock", SERVICE), ("requirements-dev.lock", SERVICE + TOOLS)],
)
def test_it_pins_every_dependency_of_pyproject_with_hashes_in_range(
    lock: str, requirements: list[Requirement]
) -> None:
    pinned = pins(lock)
    for requirement in requirements:
        pin = pinned.get(canonicalize_name(requirement.name))
        assert pin is not None, f"{requirement} is not in {lock}: run make lock"
        assert requirement.specifier.contains(pin.version, prereleases=True), (
            f"{lock} pins {requirement.name}=={pin.version}, pyproject.toml wants {requirement}: "
            "run make lock"
        )
        missing = extras_needs(requirement) - set(pinned)
        assert not missing, f"{lock} lacks {missing}, needed by {requirement}: run make lock"
    assert all(pin.hashes >= 1 for pin in pinned.values())


def test_the_two_locks_agree_on_every_package_they_share() -> None:
    service, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    assert set(service) <= set(dev)
    assert {name: dev[name].version for name in service} == {
        name: pin.version for name, pin in service.items()
    }


def test_this_environment_is_the_locked_one() -> None:
    """``make install`` installs the dev lock: what runs the tests is what it pins."""
    wrong = {
        name: (pin.version, metadata.version(name))
        for name, pin in pins("requirements-dev.lock").items()
        if pin.applies_here() and metadata.version(name) != pin.version
    }
    assert wrong == {}, "installed versions differ from the lock (pinned, installed): make install"
