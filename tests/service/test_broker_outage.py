"""A broker that cannot take a task never turns a committed action into an error.

Each test deploys the service as the README's Docker set-up does, without ``make
run``: ``migrate`` on a fresh data folder, then gunicorn with the production
settings, and talks to it over HTTP. The e-mail stays in the outbox, pending, and
the minute sweep queues it once the broker is back.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .smtp import free_port

ROOT = Path(__file__).resolve().parents[2]

#: Two players with API tokens, printed as JSON by ``manage.py shell``.
MAKE_PLAYERS = """
import json
from django.contrib.auth.models import User
from accounts.services import create_token
keys = {}
for name in ("alice", "bob"):
    user = User.objects.create_user(name, name + "@example.com", "pw-" + name + "-123")
    keys[name] = create_token(user, "test")[1]
print(json.dumps(keys))
"""

#: What the outbox holds, and what the sweep and the digest dispatch do with it.
OUTBOX = """
import json
from datetime import timedelta
from django.utils import timezone
from games.models import Notification
from games.sweep import sweep
from games.tasks import send_digests
rows = Notification.objects.all()
out = {"rows": sorted([r.kind, r.status] for r in rows)}
rows.update(next_attempt_at=timezone.now() - timedelta(minutes=10))  # due for the sweep
out["sweep"] = sweep()
rows.filter(kind="your_turn").update(status="digest")
out["digests"] = send_digests()
print(json.dumps(out))
"""


@dataclass
class Site:
    url: str
    env: dict[str, str]
    log: Path
    keys: dict[str, str]

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def post(self, user: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        return self.call(user, path, body)

    def call(self, user: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "Authorization": f"Token {self.keys[user]}",
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            text = error.read().decode(errors="replace")
            return error.code, text


def deploy(tmp_path: Path, **extra: str) -> Iterator[Site]:
    """Migrate a fresh SQLite database under ``tmp_path`` and serve it with gunicorn."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "REDIS_", "CACHE_", "RBANK_", "EMAIL_", "CELERY_"))
        and k not in ("DATABASE_URL", "DEBUG")
    }
    var = tmp_path / "var"
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "RBANK_VAR_DIR": str(var),
        "DATABASE_URL": f"sqlite:///{var / 'db.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }
    port = free_port()
    site = Site(f"http://127.0.0.1:{port}", env, tmp_path / "gunicorn.log", {})
    site.manage("migrate", "--no-input", "-v", "0")
    site.keys = json.loads(site.manage("shell", "-c", MAKE_PLAYERS).strip().splitlines()[-1])
    with site.log.open("w") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
                "--timeout",
                "120",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(site.url + "/api/v1/rules/", timeout=5)
                break
            except urllib.error.HTTPError:
                break  # it answers
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, site.log.read_text()
                assert time.monotonic() < deadline, "gunicorn never answered"
                time.sleep(0.2)
        yield site
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture
def default_broker(tmp_path: Path) -> Iterator[Site]:
    yield from deploy(tmp_path)


@pytest.fixture
def broker_down(tmp_path: Path) -> Iterator[Site]:
    closed = free_port()  # nothing listens there: every connection is refused
    yield from deploy(tmp_path, REDIS_URL=f"redis://127.0.0.1:{closed}/0", REDIS_TIMEOUT="0.5")


def test_it_creates_the_broker_folders_and_queues_the_email_of_a_challenge(
    default_broker: Site,
) -> None:
    site = default_broker
    status, body = site.post("alice", "/api/v1/challenges/", {"opponent": "bob"})
    assert status == 201, body
    queue = Path(site.env["RBANK_VAR_DIR"]) / "broker" / "queue"
    assert len(list(queue.iterdir())) == 1, "the invitation's task is queued"
    outbox = json.loads(site.manage("shell", "-c", OUTBOX).strip().splitlines()[-1])
    assert outbox["rows"] == [["invitation", "pending"]]


def test_it_answers_committed_actions_when_the_broker_is_unreachable(broker_down: Site) -> None:
    site = broker_down
    started = time.monotonic()
    status, challenge = site.post("alice", "/api/v1/challenges/", {"opponent": "bob"})
    assert status == 201, challenge
    status, accepted = site.post("bob", f"/api/v1/challenges/{challenge['id']}/accept/", {})
    assert status == 200, accepted
    game_id = accepted["game"]
    mover = "alice" if site.call("alice", f"/api/v1/games/{game_id}/")[1]["your_turn"] else "bob"
    while True:  # a whole turn, move by move: its last move queues "your turn"
        status, game = site.call(mover, f"/api/v1/games/{game_id}/")
        assert status == 200, game
        if not game["your_turn"]:
            break
        legal = game["legal_moves"]
        move = next((m for m in ("C-W", "E", "T") if m in legal), legal[0])
        status, played = site.post(mover, f"/api/v1/games/{game_id}/moves/", {"moves": [move]})
        assert status == 200, played
    waiting = "bob" if mover == "alice" else "alice"
    status, offer = site.post(waiting, f"/api/v1/games/{game_id}/stalemate/offer/", {})
    assert status == 200, offer
    status, resigned = site.post(mover, f"/api/v1/games/{game_id}/resign/", {})
    assert status == 200, resigned
    assert time.monotonic() - started < 60, "each request gave up on the broker quickly"
    log = site.log.read_text()
    assert "could not queue games.tasks.send_notification" in log, log
    assert "Internal Server Error" not in log and "Traceback" not in log, log
    outbox = json.loads(site.manage("shell", "-c", OUTBOX).strip().splitlines()[-1])
    # Every e-mail is in the outbox, still to send: the sweep queues it again later.
    assert outbox["rows"] == [
        ["game_over", "pending"],
        ["game_over", "pending"],
        ["invitation", "pending"],
        ["stalemate_offer", "pending"],
        ["your_turn", "pending"],  # the first turn, when bob accepted
        ["your_turn", "pending"],
    ]
    assert outbox["sweep"]["resent"] == 0 and outbox["sweep"]["unqueued"] == 6
    assert outbox["digests"] == 0
