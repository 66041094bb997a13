"""`make test` does its own set-up: what the system lacks is installed when it can be
(root with apt-get), else the run stops at once with the one line that says what to run.

The checks run `scripts/system-deps.sh` (and `make`) with a PATH that holds only fakes:
no chromium, an `id` that says who we are, an `apt-get` that records what it was asked
and installs a fake chromium. The real Chromium of the machine is never touched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "system-deps.sh"
BASH = shutil.which("bash") or "/bin/bash"


class FakeSystem:
    """A directory of fake commands, the only one on the PATH."""

    def __init__(self, path: Path) -> None:
        self.bin = path / "bin"
        self.bin.mkdir()
        self.apt_log = path / "apt-get.log"

    def command(self, name: str, body: str) -> None:
        script = self.bin / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)

    def real(self, name: str) -> None:
        """A real command, reachable through the fake PATH."""
        found = shutil.which(name)
        assert found, name
        (self.bin / name).symlink_to(found)

    def user(self, uid: int) -> None:
        self.command("id", f"echo {uid}")

    def apt_get(self, works: str = "always") -> None:
        """``works``: ``always``, ``after-update`` (stale package lists) or ``never``."""
        chromium = self.bin / "chromium"
        chmod = shutil.which("chmod")
        self.command(
            "apt-get",
            f"""echo "$*" >> {self.apt_log}
case "$*" in
  update*) : > {self.bin}/updated; exit 0 ;;
esac
case {works} in
  never) exit 100 ;;
  after-update) [ -e {self.bin}/updated ] || exit 100 ;;
esac
for package; do
  case $package in
    chromium) printf '#!/bin/sh\\n' > {chromium}; {chmod} 755 {chromium} ;;
    nginx) printf '#!/bin/sh\\n' > {self.bin}/nginx; {chmod} 755 {self.bin}/nginx ;;
    python3.*-venv) : > {self.bin}/venv-installed ;;
  esac
done""",
        )

    @property
    def apt_calls(self) -> list[str]:
        return self.apt_log.read_text().splitlines() if self.apt_log.exists() else []

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [BASH, str(SCRIPT), *args],
            env={"PATH": str(self.bin), "SYSTEM_SBIN": str(self.bin)},
            capture_output=True,
            text=True,
            timeout=60,
        )


@pytest.fixture
def system(tmp_path: Path) -> FakeSystem:
    return FakeSystem(tmp_path)


def test_it_does_nothing_when_chromium_is_there(system: FakeSystem) -> None:
    system.command("chromium", "exit 0")
    system.user(0)
    system.apt_get()
    result = system.run("chromium")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert system.apt_calls == []


def test_it_installs_chromium_as_root(system: FakeSystem) -> None:
    system.user(0)
    system.apt_get()
    result = system.run("chromium")
    assert result.returncode == 0, result.stderr
    assert system.apt_calls == ["install -y -q chromium"]
    assert (system.bin / "chromium").exists()
    assert "installing it (apt-get install chromium)" in result.stderr


def test_it_does_nothing_when_nginx_is_there(system: FakeSystem) -> None:
    system.command("nginx", "exit 0")
    system.user(0)
    system.apt_get()
    result = system.run("nginx")
    assert (result.returncode, result.stderr) == (0, "")
    assert system.apt_calls == []


def test_it_installs_nginx_as_root(system: FakeSystem) -> None:
    system.user(0)
    system.apt_get()
    result = system.run("nginx")
    assert result.returncode == 0, result.stderr
    assert system.apt_calls == ["install -y -q nginx"]
    assert "installing it (apt-get install nginx)" in result.stderr


def test_it_says_what_to_run_for_nginx_when_the_user_is_not_root(system: FakeSystem) -> None:
    system.user(1000)
    system.apt_get()
    result = system.run("nginx")
    assert result.returncode == 1
    assert "run `sudo apt-get install nginx`, then make again" in result.stderr
    assert system.apt_calls == []


def test_it_updates_the_package_lists_when_the_first_install_fails(system: FakeSystem) -> None:
    system.user(0)
    system.apt_get(works="after-update")
    result = system.run("chromium")
    assert result.returncode == 0, result.stderr
    assert system.apt_calls == ["install -y -q chromium", "update -q", "install -y -q chromium"]


def test_it_says_what_to_run_when_the_user_is_not_root(system: FakeSystem) -> None:
    system.user(1000)
    system.apt_get()
    result = system.run("chromium")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "make test needs Chromium for the browser tests: "
        "run `sudo apt-get install chromium`, then make again"
    ]
    assert system.apt_calls == []  # nothing tried: it could not work


def test_it_says_what_to_install_without_apt_get(system: FakeSystem) -> None:
    system.user(0)
    result = system.run("chromium")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "make test needs Chromium for the browser tests: "
        "install it (Debian's package chromium), then run make again"
    ]


def test_it_says_what_to_run_when_apt_get_fails(system: FakeSystem) -> None:
    system.user(0)
    system.apt_get(works="never")
    result = system.run("chromium")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[-1] == (
        "make test needs Chromium for the browser tests, and `apt-get install chromium` "
        "failed: run `apt-get update && apt-get install chromium` to see why"
    )
    assert len(lines) == 2  # "installing it", then the one line


def fake_python(system: FakeSystem, version_ok: bool = True) -> str:
    """A python that passes (or fails) the version check and has the venv module only
    once its Debian package is installed."""
    system.command(
        "python3",
        f"""case "$2" in
  *version_info\\ \\<*) exit {0 if version_ok else 1} ;;
  *ensurepip*) [ -e {system.bin}/venv-installed ] ;;
  *) exec {sys.executable} "$@" ;;
esac""",
    )
    return str(system.bin / "python3")


def test_it_installs_the_venv_module_python_lacks(system: FakeSystem) -> None:
    python = fake_python(system)
    system.user(0)
    system.apt_get()
    result = system.run("python", python)
    assert result.returncode == 0, result.stderr
    package = f"python3.{sys.version_info[1]}-venv"
    assert system.apt_calls == [f"install -y -q {package}"]


def test_it_says_what_to_run_for_the_venv_module(system: FakeSystem) -> None:
    python = fake_python(system)
    system.user(1000)
    system.apt_get()
    result = system.run("python", python)
    assert result.returncode == 1
    package = f"python3.{sys.version_info[1]}-venv"
    assert result.stderr.splitlines() == [
        f"make needs the venv module of {python}: "
        f"run `sudo apt-get install {package}`, then make again"
    ]


def test_it_refuses_a_python_older_than_3_11(system: FakeSystem) -> None:
    python = fake_python(system, version_ok=False)
    result = system.run("python", python)
    assert result.returncode == 1
    assert result.stderr.startswith(f"make needs Python 3.11 or newer (found: {python})")
    assert system.run("python", "").stderr.startswith("make needs Python 3.11 or newer")


def test_the_python_here_passes(system: FakeSystem) -> None:
    result = system.run("python", sys.executable)
    assert (result.returncode, result.stderr) == (0, "")


def test_make_test_stops_at_once_before_anything_else(system: FakeSystem) -> None:
    """The real Makefile: the check is the first thing `make test` runs."""
    for name in ("make", "bash", "sh"):
        system.real(name)
    system.user(1000)
    system.apt_get()
    result = subprocess.run(
        ["make", "--no-print-directory", "test"],
        cwd=ROOT,
        env={"PATH": str(system.bin)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert result.stdout == ""  # nothing ran: no install, no ruff, no pytest
    assert result.stderr.splitlines()[0] == (
        "make test needs Chromium for the browser tests: "
        "run `sudo apt-get install chromium`, then make again"
    )


def test_ci_relies_on_make_test_for_the_set_up() -> None:
    """One place installs system packages for the suite: scripts/system-deps.sh."""
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci and "apt-get" not in ci
