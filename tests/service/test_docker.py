"""The compose files, read as a deployer would (no Docker engine runs here), and what
of them can run here: the image's gunicorn command and the containers' health checks,
against a real gunicorn, a real worker and a real beat on this machine."""

from __future__ import annotations

import ast
import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings as django_settings

from config.cluster import PROXIED, QUEUES

from .smtp import free_port

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"
#: The modules that read the environment: the settings (config/settings.py and the
#: modules it imports) and the error reports'.
READ_BY_THE_APP = "".join(
    (ROOT / "config" / name).read_text()
    for name in ("settings.py", "env.py", "settings_mail.py", "settings_tasks.py", "monitoring.py")
)
GUNICORN_CONF = (ROOT / "config" / "gunicorn_conf.py").read_text()
BIN = Path(sys.executable).parent


class ComposeLoader(yaml.SafeLoader):
    """YAML as compose reads it: ``!reset`` drops what the file below gave (read as None)."""


ComposeLoader.add_constructor("!reset", lambda _loader, _node: None)


def services(name: str = "compose.yml") -> dict[str, Any]:
    doc = yaml.load((DOCKER / name).read_text(), Loader=ComposeLoader)
    result: dict[str, Any] = doc["services"]
    return result


def test_it_has_web_worker_one_beat_postgres_redis_and_no_mail_catcher() -> None:
    svc = services()
    assert set(svc) == {"migrate", "web", "worker", "reviewer", "beat", "mail", "postgres", "redis"}
    assert "receive_mail" in svc["mail"]["command"]
    assert "beat" in svc["beat"]["command"] and "deploy" not in svc["beat"]  # never scaled
    assert "worker" in svc["worker"]["command"]
    assert svc["reviewer"]["command"][3:6] == ["worker", "-Q", "review"]  # games.review
    assert "mailpit" not in (DOCKER / "compose.yml").read_text().lower()


def test_it_publishes_nothing_on_every_interface_but_the_mail_receiver() -> None:
    for name in ("compose.yml", "compose.dev.yml"):
        for service, spec in services(name).items():
            for port in spec.get("ports", []):
                if name == "compose.yml" and service == "mail":
                    # An MX must be reachable: the receiver takes only our addresses.
                    assert str(port) == "${MAIL_BIND:-0.0.0.0}:${MAIL_PORT:-25}:2525"
                    # ... and a reply plays only when its sender's DKIM signature says
                    # it is the player's (mailplay/authentication.py).
                    worker = services(name)["worker"]["environment"]
                    default = "${MAIL_AUTHENTICATE_SENDER:-1}"
                    assert worker["MAIL_AUTHENTICATE_SENDER"] == default
                    continue
                assert str(port).startswith("127.0.0.1:"), (name, service, port)


def test_the_app_services_share_one_configuration_read_by_the_settings() -> None:
    svc = services()
    env = svc["worker"]["environment"]
    for name in ("beat", "migrate"):
        assert svc[name]["environment"] == env
    web = svc["web"]["environment"]
    assert web.items() >= env.items()
    for variable in env:
        assert f'"{variable}"' in READ_BY_THE_APP, f"{variable} is read by no setting"
    for variable in set(web) - set(env):  # gunicorn's own
        assert f'"{variable}"' in GUNICORN_CONF, f"{variable} is read by no gunicorn setting"
    assert env["DATABASE_URL"].startswith("postgres://") and env["REDIS_URL"].startswith("redis://")


REQUIRED = r"\$\{%s:\?[^}]+\}"


def test_it_refuses_to_start_without_its_secrets_and_a_mail_server() -> None:
    svc = services()
    env = svc["web"]["environment"]
    assert re.fullmatch(REQUIRED % "SECRET_KEY", env["SECRET_KEY"])
    assert re.fullmatch(REQUIRED % "EMAIL_HOST", env["EMAIL_HOST"])
    assert re.search(REQUIRED % "POSTGRES_PASSWORD", env["DATABASE_URL"])
    assert re.fullmatch(
        REQUIRED % "POSTGRES_PASSWORD", svc["postgres"]["environment"]["POSTGRES_PASSWORD"]
    )
    text = (DOCKER / "compose.yml").read_text()
    assert not re.search(r"\$\{(POSTGRES_PASSWORD|SECRET_KEY|EMAIL_HOST):-", text)


def test_the_app_waits_for_migrations_and_healthy_data_stores() -> None:
    svc = services()
    assert svc["migrate"]["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    for name in ("web", "worker", "beat", "mail"):
        assert svc[name]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"}
        }
    for name in ("web", "worker", "beat", "mail", "postgres", "redis"):
        assert svc[name]["healthcheck"]["test"], name


def test_the_development_file_adds_the_mail_catcher_on_the_loopback_only() -> None:
    dev = services("compose.dev.yml")
    assert dev["mailpit"]["ports"] == ["127.0.0.1:${MAIL_UI_PORT:-8025}:8025"]
    for name in ("migrate", "web", "worker", "beat", "mail"):
        assert dev[name]["depends_on"] == {"mailpit": {"condition": "service_started"}}
    assert set(dev) - {"mailpit"} <= set(services())
    env = dict(
        line.split("=", 1)
        for line in (DOCKER / "dev.env").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert env["EMAIL_HOST"] == "mailpit" and {"SECRET_KEY", "POSTGRES_PASSWORD"} <= set(env)
    assert (env["MAIL_BIND"], env["MAIL_PORT"]) == ("127.0.0.1", "2525")  # the receiver too
    assert env["MAIL_AUTHENTICATE_SENDER"] == "0"  # replies typed here are signed by nobody


def test_the_image_installs_the_locked_versions_and_runs_gunicorn_from_its_config() -> None:
    dockerfile = (DOCKER / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements.lock" in dockerfile
    assert "pip install --no-deps ." in dockerfile
    assert image_command()[:3] == ["gunicorn", "--config", "python:config.gunicorn_conf"]


def copied_into_the_image() -> set[str]:
    """What of the repository the Dockerfile copies into the image: each ``COPY``'s
    sources (not a build stage's), by their first path component; ``"."`` is all."""
    copied: set[str] = set()
    for line in (DOCKER / "Dockerfile").read_text().splitlines():
        if line.split()[:1] != ["COPY"]:
            continue
        words = shlex.split(line)
        sources = [w for w in words[1:-1] if not w.startswith("--")]
        assert not any(w.startswith("--from") for w in words), line  # no build stage yet
        copied |= {Path(source).parts[0] if source != "." else "." for source in sources}
    return copied


def first_party() -> set[str]:
    """The repository's top-level packages (a folder with ``__init__.py``)."""
    return {path.parent.name for path in ROOT.glob("*/__init__.py")}


#: A dotted path in a string: a setting's class or callback (``"lib.logs.not_a_health_check"``,
#: ``"ext://lib.logs.hide_signatures"``, ``"config.urls"``).
DOTTED = re.compile(r"(?:ext://)?([A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)+(?::\w+)?")


def referenced_packages(package: str) -> set[str]:
    """The first-party packages that ``package``'s modules import, or name in a dotted
    path string (a setting's middleware, a logging callback)."""
    ours = first_party()
    found: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and (match := DOTTED.fullmatch(node.value))
            ):
                names = [match[1]]
            found |= {name.split(".")[0] for name in names} & ours
    return found


def needed_at_run_time() -> set[str]:
    """The repository's packages and folders the service reads at run time: its apps
    (INSTALLED_APPS), the settings' package, every first-party package these import or
    name, the templates' and the catalogues' folders, and manage.py (migrate,
    collectstatic, the worker's commands)."""
    ours = first_party()
    apps = {app.split(".")[0] for app in django_settings.INSTALLED_APPS} & ours
    (line,) = [x for x in (DOCKER / "Dockerfile").read_text().split() if "SETTINGS_MODULE=" in x]
    packages = apps | {line.split("=")[1].split(".")[0]}
    todo = set(packages)
    while todo:
        found = referenced_packages(todo.pop()) - packages
        packages |= found
        todo |= found
    templates: list[dict[str, Any]] = django_settings.TEMPLATES
    folders = [Path(d) for t in templates for d in t["DIRS"]]
    folders += [Path(p) for p in django_settings.LOCALE_PATHS]
    relative = {folder.relative_to(ROOT).parts[0] for folder in folders}
    return packages | relative | {"manage.py"}


def test_the_image_holds_every_package_and_folder_the_service_needs() -> None:
    needed = needed_at_run_time()
    # What the service is known to need, so that the reading above cannot go blind.
    assert needed >= {"games", "accounts", "mailplay", "webhooks", "competitions"}
    assert needed >= {"config", "lib", "templates", "locale", "manage.py"}
    assert not needed & {"tests", "bench", "scripts", "examples", "docs", "docker"}
    copied = copied_into_the_image()
    assert "." in copied or not needed - copied, f"not copied: {sorted(needed - copied)}"


def test_the_image_holds_the_compiled_catalogues() -> None:
    """The image has no gettext: it ships the .mo files kept in git, one per language."""
    assert "locale" in copied_into_the_image()
    tracked = subprocess.run(
        ["git", "ls-files", "locale"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for language, _ in django_settings.LANGUAGES:
        if language != "en":
            assert f"locale/{language}/LC_MESSAGES/django.mo" in tracked, language
    assert not any("locale" in line for line in (ROOT / ".dockerignore").read_text().split())


def test_the_installed_distribution_holds_every_package_the_service_needs() -> None:
    """``pip install --no-deps .`` in the image installs the packages pyproject.toml
    lists: every one the service needs, and none of the tests' or tools'."""
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns: list[str] = found["packages"]["find"]["include"]

    def installed(package: str) -> bool:
        return any(fnmatch.fnmatchcase(package, pattern) for pattern in patterns)

    packages = needed_at_run_time() & first_party()
    assert packages and all(installed(p) for p in packages), [
        p for p in packages if not installed(p)
    ]
    assert not any(installed(p) for p in first_party() - packages)


def image_command() -> list[str]:
    (line,) = [x for x in (DOCKER / "Dockerfile").read_text().splitlines() if x.startswith("CMD")]
    command: list[str] = json.loads(line.removeprefix("CMD"))
    return command


# --- What runs here: the processes of the containers and their health checks.


@pytest.fixture
def app_env(tmp_path: Path) -> dict[str, str]:
    """A container's environment: production settings, and a var folder of its own for
    SQLite and the file broker (never a database or a Redis the suite's other processes
    use: a worker here must take none of their tasks)."""
    unshared = ("DATABASE_URL", "REDIS_URL", "CACHE_URL")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "SECURE_", "SESSION_", "CSRF_", "DEBUG", *unshared))
    }
    return env | {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "test-only-not-secret",
        "ALLOWED_HOSTS": "bank.example.com",
        "RBANK_VAR_DIR": str(tmp_path),
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes a test starts, stopped at its end whatever happens."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def start(
    started: list[subprocess.Popen[bytes]], command: list[str], env: dict[str, str], log: Path
) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    started.append(proc)
    return proc


def healthcheck(service: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The service's compose health check, run as Docker would run it in the container."""
    test = services()[service]["healthcheck"]["test"]
    if test[0] == "CMD-SHELL":
        command = ["sh", "-c", test[1].replace("$$", "$")]  # compose's escape for "$"
    else:
        assert test[0] == "CMD"
        command = test[1:]
        if command[0] == "python":
            command[0] = sys.executable
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def wait_for(condition: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.5)
    return False


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(timeout=30)


def test_gunicorn_takes_its_workers_timeouts_and_max_requests_from_the_config(
    app_env: dict[str, str],
) -> None:
    env = app_env | {"WEB_CONCURRENCY": "5", "GUNICORN_MAX_REQUESTS": "700"}
    result = subprocess.run(
        [str(BIN / "gunicorn"), *image_command()[1:], "--print-config"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    config = dict(
        (name.strip(), value.strip())
        for name, _, value in (line.partition("=") for line in result.stdout.splitlines())
    )
    assert config["workers"] == "5"
    # Recycling is asked for here, with a jitter of half of it unless told.
    assert config["max_requests"] == "700" and config["max_requests_jitter"] == "350"
    assert config["timeout"] == "30" and config["graceful_timeout"] == "30"
    assert config["bind"] == "['0.0.0.0:8000']"


def test_the_web_health_check_passes_against_the_images_gunicorn_and_fails_without_it(
    app_env: dict[str, str], processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    port = free_port()
    env = app_env | {"PORT": str(port), "WEB_CONCURRENCY": "1"}
    command = [str(BIN / "gunicorn"), *image_command()[1:], "--bind", f"127.0.0.1:{port}"]
    web = start(processes, command, env, tmp_path / "web.log")
    assert wait_for(lambda: healthcheck("web", env).returncode == 0, 60), (
        tmp_path / "web.log"
    ).read_text()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/healthz", headers={"Host": "bank.example.com"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert json.load(answer) == {"database": "ok", "broker": "ok"}
    stop(web)
    down = healthcheck("web", env)
    assert down.returncode == 1 and f"127.0.0.1:{port}/healthz" in down.stderr


def test_the_worker_health_check_pings_this_containers_worker(
    app_env: dict[str, str], processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    node = f"rbank-test-{os.getpid()}"
    env = app_env | {"HOSTNAME": node}
    command = shlex.join(services()["worker"]["command"])
    command = command.replace("--concurrency 4", "--pool solo")  # one process is enough here
    assert command.startswith("celery ")
    worker = start(
        processes,
        [sys.executable, "-m", *shlex.split(command), "--hostname", f"celery@{node}"],
        env,
        tmp_path / "worker.log",
    )
    log = tmp_path / "worker.log"
    assert wait_for(lambda: f"celery@{node} ready" in log.read_text(), 60), log.read_text()
    alive = healthcheck("worker", env)
    assert alive.returncode == 0 and f"celery@{node}: OK" in alive.stdout, alive
    stop(worker)
    assert healthcheck("worker", env).returncode != 0  # after its 10 s without an answer


def test_the_beat_health_check_reads_the_heartbeat_beat_writes(
    app_env: dict[str, str], processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    command = [
        str(tmp_path / "celerybeat-schedule") if part == "/app/var/celerybeat-schedule" else part
        for part in services()["beat"]["command"]
    ]
    assert command[0] == "celery"
    heartbeat = tmp_path / "beat-heartbeat"
    beat = start(processes, [sys.executable, "-m", *command], app_env, tmp_path / "beat.log")
    assert wait_for(heartbeat.exists, 60), (tmp_path / "beat.log").read_text()
    assert healthcheck("beat", app_env).returncode == 0
    stop(beat)
    old = time.time() - 600
    os.utime(heartbeat, (old, old))  # a beat that stopped ticking ten minutes ago
    stale = healthcheck("beat", app_env)
    assert stale.returncode == 1 and re.search(r"heartbeat is 6\d\d s old", stale.stderr)
    heartbeat.unlink()
    assert healthcheck("beat", app_env).returncode == 1


def test_the_mail_health_check_talks_smtp_to_the_receiver(
    app_env: dict[str, str], processes: list[subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    port = free_port()
    env = app_env | {"MAIL_RECEIVER_PORT": str(port)}
    command = services()["mail"]["command"]
    assert command[:3] == ["python", "manage.py", "receive_mail"]
    command = [sys.executable, *command[1:]]
    command[command.index("--port") + 1] = str(port)
    command[command.index("--host") + 1] = "127.0.0.1"
    log = tmp_path / "mail.log"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    receiver = start(processes, command, env, log)
    assert wait_for(lambda: "receiving mail for" in log.read_text(), 60), log.read_text()
    assert healthcheck("mail", env).returncode == 0
    stop(receiver)
    down = healthcheck("mail", env)
    assert down.returncode == 1 and f"127.0.0.1:{port}" in down.stderr


def test_the_cluster_file_gives_each_queue_a_worker_and_the_web_containers_to_a_proxy() -> None:
    base, cluster = services(), services("compose.cluster.yml")
    taken: set[str] = set()
    for name, spec in cluster.items():
        command = spec.get("command") or base.get(name, {}).get("command", [])
        if "worker" in command:
            taken |= set(command[command.index("-Q") + 1].split(","))
        if "extends" in spec:  # a worker of its own: as compose.yml's, on its queue
            assert spec["extends"] == {"file": "compose.yml", "service": "worker"}
            assert spec["depends_on"] == base["worker"]["depends_on"]
    assert taken == set(QUEUES)
    app = [name for name, spec in base.items() if "image" not in spec or "rbank" in spec["image"]]
    for name in [*app, *(name for name in cluster if "extends" in cluster[name])]:
        # Whatever sends a task sends it to its queue (config/settings_tasks.py).
        assert cluster[name]["environment"]["TASK_QUEUES"] == "1", name
        assert '"TASK_QUEUES"' in READ_BY_THE_APP
    # Scaled, the web containers publish nothing; the proxy publishes on the loopback.
    assert cluster["web"]["ports"] is None
    assert cluster["proxy"]["ports"] == ["127.0.0.1:${WEB_PORT:-8000}:8000"]
    assert cluster["proxy"]["volumes"] == ["./nginx.conf:/etc/nginx/nginx.conf:ro"]
    assert "beat" not in cluster or "deploy" not in cluster["beat"]


def test_the_clusters_proxy_passes_requests_on_as_make_cluster_does() -> None:
    conf = (DOCKER / "nginx.conf").read_text()
    assert PROXIED in conf  # config/cluster.py's lines, as they are
    assert "server web:8000 resolve" in conf and "least_conn;" in conf
    assert "resolver 127.0.0.11" in conf  # Docker's DNS: the containers --scale adds
    assert re.search(r"^\s*listen 8000;", conf, re.M)
