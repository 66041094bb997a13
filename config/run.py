"""``make run``: migrate, create the demo players, and run web, worker, beat and the mail
receiver until Ctrl-C.

Each part runs as its own process, as in production (docker/compose.yml); their
output is interleaved here with a prefix. Ctrl-C (or any part dying) stops all.
``PORT`` (``make run PORT=8123``) moves the site to another port, the links of its
e-mails (``SITE_URL``) with it. With no ``EMAIL_HOST``, each e-mail is kept as a file
under ``var/mail/`` and logged in one line; ``/dev/mail/`` lists them with their links.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


DEFAULT_PORT = 8000


def port(environ: Mapping[str, str]) -> int:
    """The web's port: ``PORT`` if set, else 8000; exits with one line if it is no port."""
    text = environ.get("PORT", "").strip() or str(DEFAULT_PORT)
    if not text.isdigit() or not 0 < int(text) < 65536:
        sys.exit(f"PORT must be a TCP port number (1-65535), not {text!r}")
    return int(text)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("SITE_URL", f"http://127.0.0.1:{port(os.environ)}")
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env.setdefault("DEBUG", "1")
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def _manage(*args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=_env(), check=True)


def _pipe(name: str, proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        sys.stdout.write(f"{name:>6} | {line}")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def stop_on_signals() -> None:
    """Ctrl-C, `kill` or a closed terminal stop every part. SIGINT too is set here: a
    process started in the background by a shell (or by a test run started so) inherits
    it ignored, and Python then keeps it ignored, so the launcher went on while the
    one who started it believed it stopped, and was killed at last without stopping its
    parts (a CI run's test cluster was left running so)."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _interrupt)


def main() -> int:
    stop_on_signals()
    var = Path(os.environ.get("RBANK_VAR_DIR", ROOT / "var"))
    for folder in ("broker/queue", "broker/processed", "broker/control", "static"):
        (var / folder).mkdir(parents=True, exist_ok=True)
    host, web_port = "127.0.0.1", str(port(os.environ))
    web = f"{host}:{web_port}"
    _manage("migrate", "--no-input", "-v", "0")
    _manage("seed_demo")
    # Push notifications need the server's VAPID key: made under var/ on the first start.
    _manage("make_vapid_keys", "--if-absent")
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    mail = os.environ.get("MAIL_RECEIVER_PORT", "2525")
    parts = {
        # ASGI (the event streams), as in production; static files by WhiteNoise.
        "web": [
            *(sys.executable, "-m", "uvicorn", "config.asgi:application"),
            *("--host", host, "--port", web_port),
            *("--timeout-graceful-shutdown", "3", "--no-access-log"),
        ],
        "worker": [*celery, "worker", "-l", "info", "--concurrency", "2"],
        # The reviews of finished games, on their own queue: never in a move's way.
        "reviewer": [*celery, "worker", "-l", "info", "-Q", "review", "-c", "1", "-n", "review@%h"],
        "beat": [*celery, "beat", "-l", "info"],
        # Play by mail: replies delivered by SMTP to 127.0.0.1:2525 (docs/play-by-mail.md).
        "mail": [sys.executable, "manage.py", "receive_mail", "--port", mail],
    }
    procs: dict[str, subprocess.Popen[str]] = {}
    status = 0
    try:
        for name, cmd in parts.items():
            procs[name] = subprocess.Popen(
                cmd,
                cwd=ROOT,
                env=_env(),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                start_new_session=True,
            )
            threading.Thread(target=_pipe, args=(name, procs[name]), daemon=True).start()
        print(f"Russian Bank is running on http://{web}/  (Ctrl-C stops everything)")
        if not os.environ.get("EMAIL_HOST") and not os.environ.get("EMAIL_BACKEND"):
            # Each e-mail is a file, one line below ("e-mail kept"): lib/mailbox.py.
            print(f"E-mails are kept in {var / 'mail'}/ and listed at http://{web}/dev/mail/")
        while all(p.poll() is None for p in procs.values()):
            time.sleep(0.5)
        status = 1
        print("a part of the service stopped; stopping the rest", file=sys.stderr)
    except KeyboardInterrupt:
        status = 0  # Ctrl-C (or a signal) is the normal way to stop
    finally:
        _stop(list(procs.values()))
    return status


def _stop(procs: list[subprocess.Popen[str]]) -> None:
    """Ask each part to stop (Celery shuts its pool down warmly), then kill what is left
    of every process group, including groups whose leader has already gone."""
    # A second Ctrl-C or signal must not cut the clean-up short.
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + 10
    for proc in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


if __name__ == "__main__":
    sys.exit(main())
