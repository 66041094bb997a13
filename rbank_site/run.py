"""``make run``: migrate, create the demo players, and run web, worker and beat until Ctrl-C.

Each part runs as its own process, as in production (docker/compose.yml); their
output is interleaved here with a prefix. Ctrl-C (or any part dying) stops all.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "rbank_site.settings")
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


def main() -> int:
    signal.signal(signal.SIGTERM, _interrupt)  # stop the parts on `kill` as on Ctrl-C
    var = Path(os.environ.get("RBANK_VAR_DIR", ROOT / "var"))
    for folder in ("broker/queue", "broker/processed", "broker/control", "static"):
        (var / folder).mkdir(parents=True, exist_ok=True)
    _manage("migrate", "--no-input", "-v", "0")
    _manage("seed_demo")
    celery = [sys.executable, "-m", "celery", "-A", "rbank_site"]
    parts = {
        "web": [sys.executable, "manage.py", "runserver", "127.0.0.1:8000", "--noreload"],
        "worker": [*celery, "worker", "-l", "info", "--concurrency", "2"],
        "beat": [*celery, "beat", "-l", "info"],
    }
    procs: dict[str, subprocess.Popen[str]] = {}
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
    print("Russian Bank is running on http://127.0.0.1:8000/  (Ctrl-C stops everything)")
    status = 0
    try:
        while all(p.poll() is None for p in procs.values()):
            time.sleep(0.5)
        status = 1
        print("a part of the service stopped; stopping the rest", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        # A second Ctrl-C or SIGTERM must not cut the clean-up short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for proc in procs.values():
            if proc.poll() is None:
                proc.terminate()  # the main process: Celery shuts its pool down warmly
        deadline = time.monotonic() + 10
        for proc in procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    return status


if __name__ == "__main__":
    sys.exit(main())
